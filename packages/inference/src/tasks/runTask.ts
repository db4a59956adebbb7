/**
 * The shared core of the tasks that are not chat: check the arguments, build the body, send it with the
 * same timeouts, retries (loading-aware) and typed errors as chat, and shape the answer. A task is a
 * {@link TaskSpec}; its file is a few lines.
 */
import { ConnectionError, HttpError, MalformedEventError, RateLimitError, ServerError } from "../errors";
import { routeOf } from "../providers/direct";
import type { ProviderIo } from "../providers/helper";
import { resolveProvider, type Target, planProvider } from "../providers/resolve";
import { taskProvider, taskRoute } from "../router";
import { readBlob } from "../transport/body";
import type { Call } from "../transport/call";
import { toHttpError } from "../errorTable";
import { redactUrl } from "../redact";
import { type Connection, mediaType, parseMaybeJson, type Payload, readText, type Reply, requestIdOf, sendOnce, serialize } from "../transport/request";
import { withRetries } from "../transport/retry";
import type { BaseArgs, Options } from "../types";
import { checkArgs, sending } from "./prepare";
import type { Answer } from "./taskAnswers";
import type { TaskBody } from "./taskInputs";

/** One task: its pipeline name, its body (the checks first), the shape of its answer. */
export interface TaskSpec<A, O> {
  /** The pipeline's name, e.g. `"fill-mask"` (the route of some tasks depends on it). */
  readonly task: string;
  /** Checks the arguments (an InputError before any request) and makes the body. */
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
  const provider = taskProvider(args, options);
  const plan = provider === undefined ? undefined : planProvider(provider, spec.task, args as A & Loose, options as Options & Loose);
  const direct = plan ? undefined : await hfTarget(spec, args, options);
  const ctx = sending(args, options, plan?.model ?? direct!.model);
  try {
    const onHfInference = (model: string) => hfTarget(spec, { ...args, model, provider: "hf-inference" }, options);
    const target = direct ?? (await resolveProvider(plan!, { call: ctx.call, options: options as Options & Loose, args: args as A & Loose, logger: ctx.logger, onHfInference }));
    const conn = target.headers ? { ...ctx.conn, headers: withHeaders(ctx.conn.headers, target.headers) } : ctx.conn;
    const again = ctx.policy.enabled ? Math.min(GET_RETRIES, ctx.policy.maxRetries) : 0;
    const io: ProviderIo = {
      file: (url) => idempotent(ctx.call, again, () => getOnce(ctx.call, conn, url, false)) as Promise<Blob>,
      json: (url) => idempotent(ctx.call, again, () => getOnce(ctx.call, conn, url, true)),
      sleep: (ms) => ctx.call.sleep(ms),
      route: (path) => routeOf(target.provider ?? "hf-inference", path, ctx.call.secret),
    };
    // Retries resend the request only: what its answer needs next (a queue's polls, the file it names) is
    // tried again on its own (`idempotent`), so that a failed poll never submits a queued task (and bills it) twice.
    const sent = await withRetries(ctx, async () => ({ value: await readAnswer(ctx.call, await sendOnce(ctx.call, conn, target.out)) }));
    return (await target.answer(sent.value, ctx.call.secret, io)) as O;
  } finally {
    ctx.call.finish();
  }
}

type Loose = Record<string, unknown>;

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
      throw new MalformedEventError(`The server's JSON answer does not parse: ${text.slice(0, 200)}`, text, error, origin.secret);
    }
  } finally {
    release();
  }
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
  if (!/^https?:\/\//i.test(url)) throw new MalformedEventError(`The provider's answer names a URL that is not http(s): ${url.slice(0, 200)}`, url, undefined, call.secret);
  call.check();
  const attempt = call.attempt();
  const release = (): void => attempt.abort();
  let res: Response;
  try {
    res = await (conn.fetch ?? globalThis.fetch)(url, { ...conn.fetchOptions, method: "GET", headers: json ? conn.headers : {}, signal: attempt.signal });
  } catch (error) {
    throw call.translate(error, url);
  }
  if (!res.ok) {
    const body = parseMaybeJson(await readText(call, res, false).finally(release));
    throw toHttpError({ status: res.status, body, url, method: "GET", requestId: requestIdOf(res, call.secret), secret: call.secret });
  }
  if (json) return readAnswer(call, { res, origin: { url: redactUrl(url), secret: call.secret }, release });
  return readBlob(call, res).finally(release);
}
