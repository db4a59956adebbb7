/**
 * Failover (loaded on first use, never by a chat that does not fail over): a chat call's candidates
 * — each provider of `provider: [...]`, then each of `fallbackModels` — tried in order until one gives
 * its first token. A candidate that fails in a way another could not (a refused connection, a 5xx, a
 * 429, a timeout or an error inside the stream before any token, "not served by this provider") moves
 * the call to the next at once; a caller's mistake fails it at once. After the first token nothing is
 * retried or replayed. With the router's catalog, a candidate that cannot serve the call is skipped
 * without a request. One clock spans the candidates (the call's `timeout` and `signal`); each
 * candidate has its own first-chunk and body limits.
 */
import type { Call } from "../core/call";
import { ConnectionError, HttpError, IncompleteStreamError, type InferenceError, InputError, MalformedEventError, ModelLoadingError, TimeoutError } from "../core/errors";
import { InferenceClientRoutingError } from "../core/hfErrors";
import { isRecord } from "../core/json";
import { redactUrl, sealError } from "../core/redact";
import { withRetries } from "../core/retry";
import { DEFAULT_MAX_RETRIES } from "../core/sending";
import type { Source } from "../core/source";
import { checkArgs, validateChatInput } from "../checks/params";
import type {
  BaseArgs,
  ChatCompletionArgs,
  ChatRouting,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  ChatCompletionUsage,
  FailoverAttempt,
  FailoverReason,
  OneChatArgs,
  Options,
  RouterModel,
  RouterModelPricing,
  RouterModelProvider,
  Served,
} from "../types";
import { listModels } from "./catalog";
import { type ChatContext, prepareChat } from "./chat";
import { estimateCost } from "./cost";
import { FailoverError } from "./routing";
import { tapped } from "./tapped";

export { tapped };
import { chatRoute } from "./routes";

/** The most candidates one call may name (each is a request at worst). */
export const MAX_CANDIDATES = 16;

/** A model id as the Hub spells them: `name` or `org/name`, of letters, digits, `-`, `_` and `.` (no `..`: checked by the route). */
const MODEL_ID = /^[\w.-]+(\/[\w.-]+)?$/;

/** A provider name: what `provider` and a `:provider` suffix take. */
const PROVIDER_NAME = /^[A-Za-z0-9][\w.-]*$/;

/** One target of a call that fails over. */
interface Candidate<A = OneChatArgs> {
  /** As `onFailover` and the attempts name it: `model:provider`, `model:auto`, or an endpoint's origin. */
  readonly name: string;
  /** The model id, without a provider suffix: what the catalog is searched for. */
  readonly model: string;
  /** The provider asked for by name; undefined for the router's choice (auto or a policy such as `:fastest`). */
  readonly provider: string | undefined;
  readonly args: A;
  readonly options: Options;
  /** Sent through the HF router (not an endpoint or another base URL): the catalog applies. */
  readonly router: boolean;
}

/** The whole answer of a chat call that fails over; `tries`, each candidate's (the caller's: the failover carries no reader of its own). */
export function failoverWhole(args: ChatCompletionArgs, options: Options, span: Call, tries: (ctx: ChatContext) => () => Promise<ChatCompletionOutput>): Promise<ChatCompletionOutput> {
  return failover(args, options, span, false, tries, (answer, served, price, end) => {
    end();
    answer.served = priced(served, answer.usage, price);
    return answer;
  });
}

/** The source of a streamed chat call that fails over: the chunks of the first candidate that gave its first token. */
export function failoverStream(
  args: ChatCompletionArgs,
  options: Options,
  span: Call,
  tries: (ctx: ChatContext) => () => Promise<Source<ChatCompletionStreamOutput>>,
): Promise<Source<ChatCompletionStreamOutput>> {
  return failover(args, options, span, true, tries, (source, served, price, end) =>
    tapped(source, (chunk) => (chunk.served = priced(served, chunk.usage, price)), end),
  );
}

/**
 * The candidates of a chat call tried in order. `attempt` makes one candidate's try (what the retry loop runs);
 * `serve` hands the first success on with which candidate served it, its price, and `end` (to call once its
 * body is done with: it ends the candidate's clock).
 */
export function failover<T>(
  args: ChatCompletionArgs,
  options: Options,
  span: Call,
  stream: boolean,
  attempt: (ctx: ChatContext) => () => Promise<T>,
  serve: (value: T, served: Served, price: RouterModelPricing | undefined, end: () => void) => T,
): Promise<T> {
  const run: Run<OneChatArgs, T> = async (c, last, moves) => {
    let answeredBy: string | undefined;
    const onResponse = c.options.onResponse;
    const own = prepareChat(c.args, { ...c.options, timeout: undefined, signal: undefined, onResponse: (info) => {
      answeredBy = info.headers.get("x-inference-provider") ?? undefined;
      onResponse?.(info);
    } }, stream);
    // Before the last candidate, what would move the call is not retried (a loading model is still waited for);
    // the last one retries as any call does, its budget less the moves already made.
    const policy = last
      ? { ...own.policy, maxRetries: Math.max(0, own.policy.maxRetries - moves) }
      : { ...own.policy, retryable: (e: InferenceError) => e instanceof ModelLoadingError || movesOn(e) === undefined };
    const ctx: ChatContext = { ...own, policy };
    const unlink = span.onCancel((e) => ctx.call.fail(e as InferenceError));
    const end = (): void => {
      unlink();
      ctx.call.finish();
    };
    try {
      return { value: await withRetries(ctx, attempt(ctx)), answeredBy, end };
    } catch (e) {
      end();
      throw ctx.call.translate(e);
    }
  };
  return overCandidates(args, options, span, () => candidatesOf(args, options, validateChatInput, chatRoute), run, serve);
}

/** What a whole call to one target takes from a task that fails over: its checks and the call itself (the task's own, handed in). */
export interface OneCall<A, T> {
  /** The task's checks of its input (an InputError), before any request. */
  readonly check: (args: A) => void;
  /** A candidate's route checks, before any request. */
  readonly route: (args: A, options: Options) => void;
  /** The task's call to one target. */
  readonly call: (args: A, options: Options) => Promise<T>;
}

/**
 * A whole call of another task that fails over (`textGeneration` on the router's providers): each candidate is
 * the task's own call to one target, under the span's clock; the answer says who served it.
 */
export function failoverCalls<A extends BaseArgs, T extends object>(args: Omit<A, "provider"> & ChatRouting, options: Options, span: Call, one: OneCall<A, T>): Promise<T & { served?: Served }> {
  const run: Run<A, T> = async (c, last, moves) => {
    let answeredBy: string | undefined;
    const onResponse = c.options.onResponse;
    const stop = new AbortController();
    const unlink = span.onCancel((e) => stop.abort(e));
    const policy = last ? { maxRetries: Math.max(0, (c.options.maxRetries ?? DEFAULT_MAX_RETRIES) - moves) } : { maxRetries: 0 }; // a loading model is still waited for
    try {
      const value = await one.call(c.args, { ...c.options, ...policy, timeout: undefined, signal: stop.signal, onResponse: (info) => {
        answeredBy = info.headers.get("x-inference-provider") ?? undefined;
        onResponse?.(info);
      } });
      return { value, answeredBy, end: unlink };
    } catch (e) {
      unlink();
      throw e;
    }
  };
  const whole = (value: T, served: Served, _price: RouterModelPricing | undefined, end: () => void): T & { served?: Served } => {
    end();
    return Object.assign(value, { served });
  };
  return overCandidates<A, T & { served?: Served }>(args as A, options, span, () => candidatesOf(args as A & ChatRouting, options, one.check, one.route, false), run, whole);
}

/** One candidate's run: its value, the provider the router said answered, and `end` (called once its body is done with). */
type Run<A, T> = (c: Candidate<A>, last: boolean, moves: number) => Promise<{ value: T; answeredBy: string | undefined; end: () => void }>;

/** The loop over the candidates: skips by the catalog, moves on what another could serve, reports each move, the all-failed error. */
async function overCandidates<A extends BaseArgs, T>(
  args: A,
  options: Options,
  span: Call,
  candidatesFor: () => Candidate<A>[],
  run: Run<A, T>,
  serve: (value: T, served: Served, price: RouterModelPricing | undefined, end: () => void) => T,
): Promise<T> {
  try {
    checkArgs(args, options);
    const { onFailover } = options;
    if (onFailover !== undefined && typeof onFailover !== "function") throw new InputError("`onFailover` must be a function", "onFailover");
    const candidates = candidatesFor();
    const catalog = candidates.some((c) => c.router) ? await catalogOf(args, options, span) : undefined;
    const attempts: FailoverAttempt[] = [];
    let moves = 0;
    for (const [i, c] of candidates.entries()) {
      const next = candidates[i + 1];
      let reason = catalog && c.router ? unfit(c, catalog) : undefined;
      let error: InferenceError | undefined;
      if (reason === undefined) {
        try {
          const { value, answeredBy, end } = await run(c, next === undefined, moves);
          const provider = answeredBy ?? (c.router ? (c.provider ?? "auto") : c.provider ?? "endpoint");
          return serve(value, { model: c.model, provider }, priceOf(catalog, c.model, provider), end);
        } catch (e) {
          if (span.failure) throw span.failure;
          error = e as InferenceError;
          reason = movesOn(error);
          if (reason === undefined) throw error;
          moves++;
        }
      }
      attempts.push(error === undefined ? { candidate: c.name, reason } : { candidate: c.name, reason, error });
      if (next === undefined) throw failedOver(attempts);
      onFailover?.(error === undefined ? { from: c.name, to: next.name, reason } : { from: c.name, to: next.name, reason, error });
    }
    throw new InputError("A call that fails over needs at least one candidate", "provider"); // candidatesOf gives one at least
  } catch (e) {
    throw sealError(e, span.secret);
  }
}

/** The longest text quoted from one attempt's error in the message (each error keeps its whole message). */
const QUOTED = 200;

/** The error of a call whose candidates all failed or were skipped: its message names each and what ended it. */
function failedOver(attempts: FailoverAttempt[]): FailoverError {
  const describe = ({ candidate, reason, error }: FailoverAttempt): string => {
    if (error === undefined) return `${candidate} skipped (${reason})`;
    const text = error.message.length > QUOTED ? `${error.message.slice(0, QUOTED)}…` : error.message;
    return `${candidate} ${reason} (${error.name}: ${text})`;
  };
  const last = attempts.filter((a) => a.error !== undefined).at(-1)?.error;
  return new FailoverError(`Every candidate failed: ${attempts.map(describe).join("; ")}`, attempts, last === undefined ? undefined : { cause: last });
}

/** Why a candidate's failure moves the call to the next one; undefined: it would fail everywhere (the caller's mistake), or the call is over. */
export function movesOn(error: InferenceError): FailoverReason | undefined {
  if (error instanceof ConnectionError) return "connection";
  if (error instanceof TimeoutError) return error.kind === "deadline" ? undefined : "timeout";
  if (error instanceof IncompleteStreamError || error instanceof MalformedEventError) return "stream-error";
  if (!(error instanceof HttpError)) return undefined;
  if (error.httpResponse.status === 200) return "stream-error";
  if (error instanceof InferenceClientRoutingError || error.status === 404) return "not-served";
  if (error instanceof ModelLoadingError) return "loading";
  if (error.status === 429) return "rate-limit";
  if (error.status === 503) return "overloaded";
  return error.status >= 500 ? "server-error" : undefined;
}

/** The call's candidates, every one checked (an InputError naming the field) before anything is sent. */
function candidatesOf<A extends BaseArgs>(
  args: Omit<A, "provider"> & ChatRouting,
  options: Options,
  check: (args: A) => void,
  route: (args: A, options: Options) => void,
  suffixed = true,
): Candidate<A>[] {
  const { provider, fallbackModels, ...rest } = args;
  const chat = rest as unknown as A; // the call's own arguments, without its routing
  check(chat);
  const model = typeof chat.model === "string" ? chat.model : undefined;
  const endpointUrl = chat.endpointUrl ?? options.endpointUrl;
  const chosen: unknown = provider ?? options.provider; // the call's own, else the client's
  if (!(chosen === undefined || typeof chosen === "string" || Array.isArray(chosen))) {
    throw new InputError(`\`provider\` must be a provider's name or a list of them (got ${describeValue(chosen)})`, "provider");
  }
  const providers: (string | undefined)[] = Array.isArray(chosen) ? providerList(chosen) : [chosen];
  if (Array.isArray(chosen) && (endpointUrl !== undefined || options.baseUrl !== undefined)) {
    throw new InputError("A `provider` list needs the HF router: `endpointUrl` and `baseUrl` name one server (name other models in `fallbackModels`)", "provider");
  }
  if (Array.isArray(chosen) && model?.includes(":")) {
    throw new InputError(`\`model\` names its provider (${JSON.stringify(model)}): give \`provider\` a list or the model a suffix, not both`, "provider");
  }
  const out: Candidate<A>[] = providers.map((p) => {
    const [id = "", suffix] = (model ?? "").split(":", 2);
    const named = suffix !== undefined && !POLICIES.has(suffix) ? suffix : p === "auto" ? undefined : p;
    const own = { ...chat, provider: p };
    const name = endpointUrl !== undefined ? originOf(endpointUrl) : suffix !== undefined ? (model ?? "") : `${id}:${p ?? "auto"}`;
    return { name, model: id, provider: named, args: own, options, router: endpointUrl === undefined && options.baseUrl === undefined && named !== "hf-inference" };
  });
  for (const [i, id] of fallbackList(fallbackModels).entries()) {
    const [base = "", suffix] = id.split(":", 2);
    const named = suffix !== undefined && !POLICIES.has(suffix) ? suffix : undefined;
    if (!suffixed && suffix !== undefined && named === undefined) {
      throw new InputError(`\`fallbackModels[${i}]\`: the router chooses by :${suffix} for chat only; name a provider here`, `fallbackModels[${i}]`);
    }
    // The router reads `model:provider` in a chat's body; another task's call takes the provider apart.
    const own = suffixed ? { ...chat, model: id, provider: "auto", endpointUrl: undefined } : { ...chat, model: base, provider: named ?? "auto", endpointUrl: undefined };
    const candidate = { name: suffix === undefined ? `${id}:auto` : id, model: base, provider: named, args: own, options: { ...options, endpointUrl: undefined }, router: options.baseUrl === undefined && named !== "hf-inference" };
    if (out.some((c) => c.name === candidate.name)) throw new InputError(`\`fallbackModels[${i}]\` repeats the candidate ${candidate.name}: each is tried once`, `fallbackModels[${i}]`);
    out.push(candidate);
  }
  if (out.length > MAX_CANDIDATES) {
    throw new InputError(`A call may name at most ${MAX_CANDIDATES} candidates (providers and fallback models), got ${out.length}`, Array.isArray(chosen) && chosen.length > MAX_CANDIDATES ? "provider" : "fallbackModels");
  }
  for (const c of out) route(c.args, c.options); // each route's own checks, before any request
  return out;
}

/** The router's provider policies: a suffix that chooses, not a provider's name. */
const POLICIES = new Set(["fastest", "cheapest", "preferred"]);

function providerList(list: readonly unknown[]): string[] {
  if (list.length === 0) throw new InputError("`provider` must list at least one provider (or be a provider's name)", "provider");
  const seen = new Set<string>();
  return list.map((p, i) => {
    const field = `provider[${i}]`;
    if (typeof p !== "string" || !PROVIDER_NAME.test(p)) {
      throw new InputError(`\`${field}\` must be a provider's name such as "together" or "auto" (got ${describeValue(p)})`, field);
    }
    if (seen.has(p)) throw new InputError(`\`${field}\` repeats ${JSON.stringify(p)}: each candidate is tried once`, field);
    seen.add(p);
    return p;
  });
}

function fallbackList(list: unknown): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new InputError(`\`fallbackModels\` must be a list of model ids such as "org/name" or "org/name:provider" (got ${describeValue(list)})`, "fallbackModels");
  return list.map((id: unknown, i) => {
    const field = `fallbackModels[${i}]`;
    const [base = "", suffix, extra] = typeof id === "string" ? id.split(":") : [];
    if (typeof id !== "string" || !MODEL_ID.test(base) || extra !== undefined || (suffix !== undefined && !PROVIDER_NAME.test(suffix))) {
      throw new InputError(`\`${field}\` must be a model id such as "org/name" or "org/name:provider" (got ${describeValue(id)})`, field);
    }
    return id;
  });
}

const describeValue = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v.slice(0, 120)) : Array.isArray(v) ? "an array" : v === null ? "null" : typeof v);

const originOf = (url: string): string => {
  try {
    return new URL(redactUrl(url)).origin;
  } catch {
    return "endpoint";
  }
};

/** The router's catalog, for the skips and the prices; a lookup that fails leaves the candidates unchecked (the router answers for them). */
async function catalogOf(args: BaseArgs, options: Options, span: Call): Promise<readonly RouterModel[] | undefined> {
  try {
    // A lookup shared by every call that asks meanwhile: not one call's request, so not told to its `onResponse`.
    return await span.until(listModels({ ...options, accessToken: args.accessToken, timeout: undefined, signal: undefined, onResponse: undefined }));
  } catch (error) {
    if (span.failure) throw span.failure;
    options.logger?.debug?.(`failover: the router's catalog could not be read (${(error as Error).name}); no candidate is skipped`);
    return undefined;
  }
}

/** Why the catalog says a candidate cannot serve this call (for the router's choice: none of the model's providers can); undefined: try it. */
function unfit(c: Candidate<object>, catalog: readonly RouterModel[]): FailoverReason | undefined {
  const providers = catalog.find((m) => m.id === c.model)?.providers ?? [];
  const pool = c.provider === undefined ? providers : providers.filter((p) => p.provider === c.provider);
  let reason: FailoverReason | undefined;
  for (const p of pool) {
    const why = unfitProvider(p, c.args);
    if (why === undefined) return undefined;
    reason ??= why;
  }
  return reason; // a model or provider the catalog does not list is tried: the router has the last word
}

/** Why `p` cannot serve a call with `args`: a chat's tools, structured output and `max_tokens`, or a generation's `max_new_tokens`. */
function unfitProvider(p: RouterModelProvider, args: object): FailoverReason | undefined {
  if (p.status !== undefined && p.status !== "live") return "not-live";
  if (!isRecord(args)) return undefined;
  if (Array.isArray(args.tools) && args.tools.length > 0 && p.supports_tools === false) return "no-tools";
  const format = args.response_format;
  if (isRecord(format) && (format.type === "json_schema" || format.type === "json") && p.supports_structured_output === false) return "no-structured-output";
  const max = args.max_tokens ?? (isRecord(args.parameters) ? args.parameters.max_new_tokens : undefined);
  if (typeof max === "number" && p.context_length !== undefined && p.context_length < max) return "context-length";
  return undefined;
}

function priceOf(catalog: readonly RouterModel[] | undefined, model: string, provider: string): RouterModelPricing | undefined {
  return catalog?.find((m) => m.id === model)?.providers.find((p) => p.provider === provider)?.pricing;
}

/** `served`, with the cost of `usage` when there is a price. */
function priced(served: Served, usage: ChatCompletionUsage | null | undefined, price: RouterModelPricing | undefined): Served {
  return usage && price ? { ...served, cost: estimateCost(usage, price) } : served;
}
