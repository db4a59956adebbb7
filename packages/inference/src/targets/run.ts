/**
 * The shared core of the tasks that are not chat: check the arguments, build the body, send it with the
 * same timeouts, retries (loading-aware) and typed errors as chat, and shape the answer. A task is a
 * {@link TaskSpec}; its file is a few lines.
 */
import { ConnectionError, HttpError, type InferenceError, MalformedEventError, RateLimitError, ServerError } from "../core/errors";
import { routeOf } from "./providers/direct";
import type { ProviderIo } from "./providers/helper";
import { resolveProvider, type Target, planProvider } from "./providers/resolve";
import { taskProvider, taskRoute } from "./routes";
import { readBlob } from "../core/body";
import type { Call } from "../core/call";
import { toHttpError } from "../core/errorTable";
import { redactUrl, sealError, serverText } from "../core/redact";
import { isInternalUrl } from "../core/address";
import { InferenceClientProviderOutputError } from "../core/hfErrors";
import { type Connection, fetchUnder, mediaType, parseMaybeJson, type Payload, readText, type Reply, requestIdOf, sendOnce, serialize } from "../core/request";
import { withRetries } from "../core/retry";
import type { BaseArgs, Options } from "../types";
import { checkArgs, sending } from "../core/sending";
import type { Answer } from "../checks/answers";
import type { TaskBody } from "../checks/inputs";

/** One task: its pipeline name, its checks, its body on hf-inference and endpoints, the shape of its answer. */
export interface TaskSpec<A, O> {
  /** The pipeline's name, e.g. `"fill-mask"` (the route of some tasks depends on it). */
  readonly task: string;
  /**
   * The checks of the arguments and options that hold on every target (an InputError before any request, the
   * Hub's lookup included). A task that only hf-inference and endpoints serve may leave them to `body`.
   */
  readonly check?: (args: A, options: Options) => void;
  /** Makes the body on hf-inference and endpoints (with the checks of those targets alone). */
  readonly body: (args: A, options: Options) => TaskBody | Promise<TaskBody>;
  /** Shapes the answer (parsed JSON, or a Blob for a binary one). */
  readonly answer: Answer<O>;
}

/**
 * Runs `spec` for `args`: nothing is sent unless the arguments and options are valid. On a provider
 * other than hf-inference (or `"auto"`) the Hub's mapping of the model is looked up first, and the
 * provider's format sent through the router.
 */
export async function runTask<A extends BaseArgs, O>(spec: TaskSpec<A, O>, args: A, options: Options = {}): Promise<O> {
  checkArgs(args, options);
  spec.check?.(args, options);
  const provider = taskProvider(args, options);
  const plan = provider === undefined ? undefined : planProvider(provider, spec.task, args as A & Loose, options as Options & Loose);
  const direct = plan ? undefined : await hfTarget(spec, args, options);
  const ctx = sending(args, options, plan?.model ?? direct!.model);
  try {
    const onHfInference = (model: string) => hfTarget(spec, { ...args, model, provider: "hf-inference" }, options);
    const target = direct ?? (await resolveProvider(plan!, { call: ctx.call, options: options as Options & Loose, args: args as A & Loose, logger: ctx.logger, onHfInference }));
    const conn = target.headers ? { ...ctx.conn, headers: withHeaders(ctx.conn.headers, target.headers) } : ctx.conn;
    const inNetwork = outward(target.out.url, options.allowPrivateNetwork === true, ctx.call.secret);
    const again = ctx.policy.enabled ? Math.min(GET_RETRIES, ctx.policy.maxRetries) : 0;
    const io: ProviderIo = {
      file: (url) => idempotent(ctx.call, again, () => getOnce(ctx.call, conn, inNetwork(url), false)) as Promise<Blob>,
      json: (url) => idempotent(ctx.call, again, () => getOnce(ctx.call, conn, inNetwork(url), true)),
      sleep: (ms) => ctx.call.sleep(ms),
      route: (path) => routeOf(target.provider ?? "hf-inference", path, ctx.call.secret),
    };
    // Retries resend the request only: what its answer needs next (a queue's polls, the file it names) is
    // tried again on its own (`idempotent`), so that a failed poll never submits a queued task (and bills it) twice.
    const submitting = target.submitOnce ? { ...ctx, policy: { ...ctx.policy, retryable: unaccepted } } : ctx;
    const sent = await withRetries(submitting, async () => ({ value: await readAnswer(ctx.call, await sendOnce(ctx.call, conn, target.out)) })).catch((error: unknown) => {
      throw target.submitOnce ? maybeSubmitted(error) : error;
    });
    return (await target.answer(sent.value, ctx.call.secret, io)) as O;
  } catch (error) {
    throw sealError(error, ctx.call.secret);
  } finally {
    ctx.call.finish();
  }
}

type Loose = Record<string, unknown>;

/**
 * The check of every URL a provider's answer names: one on a loopback, private, link-local or metadata address is
 * refused (a typed error, nothing fetched), unless `allowed` or the call's own target is such a host.
 */
function outward(target: string, allowed: boolean, secret: string | undefined): (url: string) => string {
  if (allowed || isInternalUrl(target)) return (url) => url;
  return (url) => {
    if (!isInternalUrl(url)) return url;
    throw new InferenceClientProviderOutputError(`The provider's answer names a URL on a private or local address (${serverText(redactUrl(url), secret)}); it is not fetched. Set \`allowPrivateNetwork: true\` to allow it`);
  };
}

/** `extra` over `headers`, a name of `extra` replacing the same name of `headers` in any case. */
function withHeaders(headers: Record<string, string>, extra: Readonly<Record<string, string>>): Record<string, string> {
  const names = new Set(Object.keys(extra).map((k) => k.toLowerCase()));
  const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !names.has(k.toLowerCase())));
  return { ...kept, ...extra };
}

/** The request of `spec` on hf-inference or an endpoint (the body checked first). */
async function hfTarget<A extends BaseArgs, O>(spec: TaskSpec<A, O>, args: A, options: Options): Promise<Target & { model: string }> {
  const route = taskRoute(args, options, spec.task);
  return { out: { url: route.url, body: payloadOf(await spec.body(args, options)) }, answer: spec.answer, model: route.model };
}

function payloadOf(body: TaskBody): Payload {
  if ("json" in body) return serialize(body.json);
  const size = body.bytes instanceof ArrayBuffer ? body.bytes.byteLength : body.bytes.size;
  return { value: { data: `[binary body: ${size} bytes]` }, json: "", bytes: body.bytes, contentType: body.contentType || "application/octet-stream" };
}

const isJson = (type: string): boolean => type === "application/json" || type.endsWith("+json");

/** A 2xx answer: JSON when the server says so (it must parse), anything else a Blob of its type. */
export async function readAnswer(call: Call, { res, origin, release }: Reply): Promise<unknown> {
  try {
    if (!isJson(mediaType(res))) return await readBlob(call, res);
    const text = await readText(call, res);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new MalformedEventError(`The server's JSON answer does not parse: ${serverText(text, origin.secret)}`, text, error, origin.secret);
    }
  } finally {
    release();
  }
}

/** Failures of a connection never made (refused, no such host): nothing was sent. */
const NEVER_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/;

/** Whether `error` (or a cause of it) is a connection that was never made. */
function neverSent(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NEVER_SENT.test(code)) return true;
  }
  return false;
}

/** What a billed submission may be sent again after: a connection never made, a 429, a 503 (nothing accepted). */
function unaccepted(error: InferenceError): boolean {
  if (error instanceof ConnectionError) return neverSent(error);
  return error instanceof HttpError && (error.status === 429 || error.status === 503);
}

/** A billed submission whose connection failed after its bytes may have gone out: the error says the job may exist. */
function maybeSubmitted(error: unknown): unknown {
  if (!(error instanceof ConnectionError) || neverSent(error)) return error;
  const message = `${error.message}. The request may have reached the provider: the job may exist (and be billed), so it was not sent again`;
  return new ConnectionError(message, { cause: error.cause, url: error.url });
}

/** A poll or a file GET is tried again at most this often (and never more than the call's `maxRetries`). */
const GET_RETRIES = 2;

/**
 * `get` again after a 5xx, a 429 or a lost connection (a GET is idempotent), `again` times at most: 0.5 s,
 * then 1 s later, or after the server's `retry-after` when it asks for at most 10 s; within the call's deadline.
 */
async function idempotent(call: Call, again: number, get: () => Promise<unknown>): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await get();
    } catch (error) {
      if (attempt >= again || !(error instanceof ServerError || error instanceof RateLimitError || error instanceof ConnectionError)) throw error;
      const asked = error instanceof HttpError ? error.retryAfterMs : undefined;
      await call.sleep(asked !== undefined && asked <= 10_000 ? asked : 500 * 2 ** attempt);
    }
  }
}

/**
 * GETs what a provider's answer names (http(s) only): with `json`, a route of the provider through the router
 * (the call's headers, the answer's JSON); else a file, as a Blob, without the call's headers (the token never leaves for it).
 */
async function getOnce(call: Call, conn: Connection, url: string, json: boolean): Promise<unknown> {
  if (!/^https?:\/\//i.test(url)) throw new MalformedEventError(`The provider's answer names a URL that is not http(s): ${serverText(url, call.secret)}`, url, undefined, call.secret);
  const { res, release } = await fetchUnder(call, conn, url, { method: "GET", headers: json ? conn.headers : {} });
  if (!res.ok) {
    const body = parseMaybeJson(await readText(call, res, false).finally(release));
    throw toHttpError({ status: res.status, body, url, method: "GET", requestId: requestIdOf(res, call.secret), secret: call.secret });
  }
  if (json) return readAnswer(call, { res, origin: { url: redactUrl(url), secret: call.secret }, release });
  return readBlob(call, res).finally(release);
}
