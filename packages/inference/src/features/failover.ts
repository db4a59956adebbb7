/**
 * Failover (loaded on first use, never by a chat that does not fail over): a chat call's candidates
 * (`candidates.ts`, each with the token bound to its host) tried in order until one gives its first
 * content (`commitment.ts`). A candidate that fails in a way another could not (a refused connection, a
 * 5xx, a 429, a timeout or an error inside the stream before any content, "not served by this provider")
 * moves the call to the next at once; a caller's mistake fails it at once, whether a status or an error
 * inside a 200 says it. After the first content nothing is retried or replayed. With the router's
 * catalog, a candidate that cannot serve the call is skipped without a request. One clock spans the
 * candidates (the call's `timeout` and `signal`); each candidate has its own first-chunk and body limits.
 */
import type { Call } from "../core/call";
import {
  ConnectionError,
  HttpError,
  IncompleteStreamError,
  type InferenceError,
  MalformedEventError,
  ModelLoadingError,
  ServerError,
  TimeoutError,
} from "../core/errors";
import { InferenceClientRoutingError } from "../core/hfErrors";
import { forgetEventText } from "../core/eventText";
import { isRecord } from "../core/json";
import { withRetries } from "../core/retry";
import { DEFAULT_MAX_RETRIES } from "../core/sending";
import type { Source } from "../core/source";
import { validateChatInput } from "../checks/params";
import type {
  BaseArgs,
  ChatCompletionArgs,
  ChatRouting,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  ChatCompletionUsage,
  FailoverReason,
  OneChatArgs,
  Options,
  RouterModel,
  RouterModelPricing,
  RouterModelProvider,
  Served,
} from "../types";
import { type Candidate, type Candidates, candidatesOf, type RouteOf } from "./candidates";
import { listModels } from "./catalog";
import { type ChatContext, prepareChat } from "../targets/chat";
import { committed } from "./commitment";
import { estimateCost } from "./cost";
import { tapped } from "./tapped";
import { overCandidates as loop, type Run, type Serve } from "./tries";

export { tapped };
import { chatRoute } from "../targets/routes";

export { MAX_CANDIDATES } from "./candidates";

/** Where a chat candidate's requests go (the Responses API's route is beside it, on the same host). */
const chatUrl = (args: BaseArgs, options: Options): string => chatRoute(args, options).url;

/** The whole answer of a chat call that fails over; `tries`, each candidate's (the caller's: the failover carries no reader of its own). */
export function failoverWhole(
  args: ChatCompletionArgs,
  options: Options,
  span: Call,
  tries: (ctx: ChatContext) => () => Promise<ChatCompletionOutput>,
): Promise<ChatCompletionOutput> {
  return failover(args, options, span, tries, (answer, served, price, end) => {
    end(answer.usage?.completion_tokens);
    answer.served = priced(served, answer.usage, price);
    return answer;
  });
}

/** The source of a streamed chat call that fails over: the chunks of the first candidate that gave its first content. */
export function failoverStream(
  args: ChatCompletionArgs,
  options: Options,
  span: Call,
  tries: (ctx: ChatContext) => () => Promise<Source<ChatCompletionStreamOutput>>,
): Promise<Source<ChatCompletionStreamOutput>> {
  return failoverSource(args, options, span, tries, (source, served, price, end) => {
    let tokens = 0; // the usage's count when the server sends one, else the chunks with content
    let counted: number | undefined;
    const mark = (chunk: ChatCompletionStreamOutput): void => {
      chunk.served = priced(served, chunk.usage, price);
      forgetEventText(chunk);
      counted = chunk.usage?.completion_tokens ?? counted;
      if (chunk.choices?.some((c) => c.delta?.content)) tokens++;
    };
    return tapped(source, mark, () => end(counted ?? tokens));
  });
}

/**
 * The candidates of a streamed call (chat chunks, Responses events) tried in order: each candidate's try reads
 * up to its first content (`commitment.ts`), so that a failure before it moves the call as one before any chunk.
 */
export function failoverSource<T>(
  args: ChatCompletionArgs,
  options: Options,
  span: Call,
  tries: (ctx: ChatContext) => () => Promise<Source<T>>,
  serve: Serve<Source<T>>,
): Promise<Source<T>> {
  return chatOver(
    args,
    options,
    span,
    true,
    (ctx) => {
      const attempt = tries(ctx);
      return () => attempt().then(committed);
    },
    serve,
  );
}

/** The candidates of a whole chat call (or Responses call) tried in order; `attempt` makes one candidate's try (what the retry loop runs). */
export function failover<T>(
  args: ChatCompletionArgs,
  options: Options,
  span: Call,
  attempt: (ctx: ChatContext) => () => Promise<T>,
  serve: Serve<T>,
): Promise<T> {
  return chatOver(args, options, span, false, attempt, serve);
}

function chatOver<T>(
  args: ChatCompletionArgs,
  options: Options,
  span: Call,
  stream: boolean,
  attempt: (ctx: ChatContext) => () => Promise<T>,
  serve: Serve<T>,
): Promise<T> {
  const run: Run<OneChatArgs, T> = async (c, last, moves, signal) => {
    let answeredBy: string | undefined;
    const onResponse = c.options.onResponse;
    const own = prepareChat(
      c.args,
      {
        ...c.options,
        timeout: undefined,
        signal: undefined,
        onResponse: (info) => {
          answeredBy = info.headers.get("x-inference-provider") ?? undefined;
          onResponse?.(info);
        },
      },
      stream,
    );
    // Before the last candidate, what would move the call is not retried (a loading model is still waited for);
    // the last one retries as any call does, its budget less the moves already made.
    const policy = last
      ? { ...own.policy, maxRetries: Math.max(0, own.policy.maxRetries - moves) }
      : { ...own.policy, retryable: (e: InferenceError) => e instanceof ModelLoadingError || movesOn(e) === undefined };
    const ctx: ChatContext = { ...own, policy };
    // The try's own abort (chained to the call's by the loop; a hedge's loser is aborted by it too).
    const cancel = (): void => ctx.call.fail(signal.reason as InferenceError);
    if (signal.aborted) cancel();
    else signal.addEventListener("abort", cancel, { once: true });
    const end = (): void => {
      signal.removeEventListener("abort", cancel);
      ctx.call.finish();
    };
    try {
      return { value: await withRetries(ctx, attempt(ctx)), answeredBy, end };
    } catch (e) {
      end();
      throw ctx.call.translate(e);
    }
  };
  return overCandidates(args, options, span, () => candidatesOf(args, options, validateChatInput, chatUrl), run, serve);
}

/** What a whole call to one target takes from a task that fails over: its checks and the call itself (the task's own, handed in). */
export interface OneCall<A, T> {
  /** The task's checks of its input (an InputError), before any request. */
  readonly check: (args: A) => void;
  /** A candidate's route checks, before any request: where its requests go (a URL, or a provider of the Hub's mapping). */
  readonly route: RouteOf<A>;
  /** The task's call to one target. */
  readonly call: (args: A, options: Options) => Promise<T>;
}

/**
 * A whole call of another task that fails over (`textGeneration` on the router's providers): each candidate is
 * the task's own call to one target, under the span's clock; the answer says who served it.
 */
export function failoverCalls<A extends BaseArgs, T extends object>(
  args: Omit<A, "provider"> & ChatRouting,
  options: Options,
  span: Call,
  one: OneCall<A, T>,
): Promise<T & { served?: Served }> {
  const run: Run<A, T> = async (c, last, moves, signal) => {
    let answeredBy: string | undefined;
    const onResponse = c.options.onResponse;
    const policy = last
      ? { maxRetries: Math.max(0, (c.options.maxRetries ?? DEFAULT_MAX_RETRIES) - moves) }
      : { maxRetries: 0 }; // a loading model is still waited for
    const value = await one.call(c.args, {
      ...c.options,
      ...policy,
      timeout: undefined,
      signal, // the try's own abort, chained to the call's by the loop
      onResponse: (info) => {
        answeredBy = info.headers.get("x-inference-provider") ?? undefined;
        onResponse?.(info);
      },
    });
    return { value, answeredBy, end: () => {} };
  };
  const whole = (
    value: T,
    served: Served,
    _price: RouterModelPricing | undefined,
    end: (tokens?: number) => void,
  ): T & { served?: Served } => {
    end();
    return Object.assign(value, { served });
  };
  return overCandidates<A, T & { served?: Served }>(
    args as A,
    options,
    span,
    () => candidatesOf(args as A & ChatRouting, options, one.check, one.route, false),
    run,
    whole,
  );
}

/** Why a candidate's failure moves the call to the next one; undefined: it would fail everywhere (the caller's mistake), or the call is over. */
export function movesOn(error: InferenceError): FailoverReason | undefined {
  if (error instanceof ConnectionError) return "connection";
  if (error instanceof TimeoutError) return error.kind === "deadline" ? undefined : "timeout";
  if (error instanceof IncompleteStreamError || error instanceof MalformedEventError) return "stream-error";
  if (!(error instanceof HttpError)) return undefined;
  const reason = httpReason(error);
  // One rule whatever the framing: an error inside a 200 moves exactly when its status would.
  return reason !== undefined && error.httpResponse.status === 200 ? "stream-error" : reason;
}

/** Why an HTTP error (or one inside a 200, by the status the error table gave it) moves the call. */
function httpReason(error: HttpError): FailoverReason | undefined {
  if (error instanceof InferenceClientRoutingError || error.status === 404) return "not-served";
  if (error instanceof ModelLoadingError) return "loading";
  if (error.status === 429) return "rate-limit";
  if (error.status === 503) return "overloaded";
  // The table's class, not the status alone: TGI's `generation` error is a ServerError of status 424.
  return error instanceof ServerError || error.status >= 500 ? "server-error" : undefined;
}

/** The loop over the candidates (`tries.ts`), with the failover's rules. */
const overCandidates = <A extends BaseArgs, T>(
  args: A,
  options: Options,
  span: Call,
  candidatesFor: () => Candidates<A>,
  run: Run<A, T>,
  serve: Serve<T>,
): Promise<T> => loop(args, options, span, candidatesFor, run, serve, { catalogOf, unfit, movesOn, priceOf });

/** The router's catalog, for the skips and the prices; a lookup that fails leaves the candidates unchecked (the router answers for them). */
async function catalogOf(
  accessToken: string | undefined,
  options: Options,
  span: Call,
): Promise<readonly RouterModel[] | undefined> {
  try {
    // A lookup shared by every call that asks meanwhile: not one call's request, so not told to its `onResponse`.
    return await span.until(
      listModels({ ...options, accessToken, timeout: undefined, signal: undefined, onResponse: undefined }),
    );
  } catch (error) {
    if (span.failure) throw span.failure;
    options.logger?.debug?.(
      `failover: the router's catalog could not be read (${(error as Error).name}); no candidate is skipped`,
    );
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
  if (
    isRecord(format) &&
    (format.type === "json_schema" || format.type === "json") &&
    p.supports_structured_output === false
  )
    return "no-structured-output";
  const max = args.max_tokens ?? (isRecord(args.parameters) ? args.parameters.max_new_tokens : undefined);
  if (typeof max === "number" && p.context_length !== undefined && p.context_length < max) return "context-length";
  return undefined;
}

function priceOf(
  catalog: readonly RouterModel[] | undefined,
  model: string,
  provider: string,
): RouterModelPricing | undefined {
  return catalog?.find((m) => m.id === model)?.providers.find((p) => p.provider === provider)?.pricing;
}

/** `served`, with the cost of `usage` when there is a price. */
function priced(
  served: Served,
  usage: ChatCompletionUsage | null | undefined,
  price: RouterModelPricing | undefined,
): Served {
  return usage && price ? { ...served, cost: estimateCost(usage, price) } : served;
}
