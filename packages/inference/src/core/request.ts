import { InferenceError, InputError } from "./errors";
import { redactText, redactUrl } from "./redact";
import { toHttpError } from "./errorTable";
import type { Backend, FetchLike, Options, ResponseInfo } from "../types";
import { VERSION } from "../version";
import { readText, parseMaybeJson } from "./body";
import type { Call } from "./call";

export { isBlank, MAX_ANSWER_BYTES, parseMaybeJson, readText } from "./body";

/** A request body and its JSON, made once (`serialize`), so what is sent is what was checked. */
export interface Payload {
  /** What errors show as the request body (a binary body: a note of its size). */
  readonly value: Record<string, unknown>;
  /** The JSON sent, unless the body is binary. */
  readonly json: string;
  /** A binary body (audio, an image), sent as is instead of the JSON. */
  readonly bytes?: Blob | ArrayBuffer;
  /** The binary body's media type, sent as `Content-Type`. */
  readonly contentType?: string;
}

/** How every request of a call is sent: its headers (made once, the token in them) and its fetch. */
export interface Connection {
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch?: FetchLike;
  readonly fetchOptions?: Record<string, unknown>;
  readonly onResponse?: (info: ResponseInfo) => void;
  /** `HFKIT_LOG=debug`: where a line per request goes (URLs redacted, no header, never the token). */
  readonly debug?: (line: string) => void;
}

/** One request: where, and the body (serialised once). */
export interface Outgoing {
  readonly url: string;
  readonly body: Payload;
  /** Whose protocol the request speaks, when a chat or generate call chose a backend. */
  readonly backend?: Backend;
}

/** Where an answer came from, for the errors made of it: URL and request id redacted, and the token to redact with. */
export interface Origin {
  /** Redacted. */
  url: string;
  requestId?: string;
  /** The router's `x-inference-provider`: named in errors. */
  provider?: string;
  /** The access token, redacted from what errors keep. */
  secret?: string;
}

/** A 2xx answer, its body unread; `release()` ends its request once the body is done with (some fetches, msw's, only stop on abort). */
export interface Reply {
  readonly res: Response;
  readonly origin: Origin;
  readonly release: () => void;
}

/**
 * The body as JSON, before any request: a cycle, a BigInt or a throwing `toJSON` is an InputError
 * naming the argument, not a connection failure retried for seconds.
 */
export function serialize(value: Record<string, unknown>): Payload {
  try {
    return { value, json: JSON.stringify(value) };
  } catch (error) {
    const field = Object.keys(value).find((key) => !canSerialize(value[key])) ?? "args";
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new InputError(`\`${field}\` cannot be sent as JSON: ${why}`, field);
  }
}

function canSerialize(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

export const isBrowser: boolean =
  typeof document !== "undefined" || (typeof navigator !== "undefined" && /^Mozilla\//.test(navigator.userAgent ?? ""));

/** The headers and fetch of a call's requests, made once. */
export function connection(
  options: Options,
  accessToken: string | undefined,
  debug?: (line: string) => void,
): Connection {
  const h: Record<string, string> = { "Content-Type": "application/json" };
  if (accessToken) h.Authorization = `Bearer ${accessToken}`;
  if (!isBrowser) h["User-Agent"] = `hfkit/${VERSION}`;
  if (options.use_cache === false) h["x-use-cache"] = "false";
  if (options.billTo) h["X-HF-Bill-To"] = options.billTo;
  return {
    headers: Object.assign(h, options.headers),
    fetch: options.fetch,
    fetchOptions: options.fetchOptions,
    onResponse: options.onResponse,
    debug,
  };
}

/** The request's headers as errors may show them: the token never appears. */
export function redactHeaders(headers: Record<string, string>, secret?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    out[k] = /^authorization$/i.test(k) ? "Bearer [redacted]" : redactText(v, secret);
  return out;
}

/** The media type of a response, lower-cased and without parameters (`Text/Event-Stream; charset=UTF-8` → `text/event-stream`). */
export function mediaType(res: Response): string {
  const type = res.headers.get("content-type") ?? "";
  const semi = type.indexOf(";");
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase();
}

/** True when the response is an event stream with a body. */
export function isEventStream(res: Response): res is Response & { body: ReadableStream<Uint8Array> } {
  return res.body !== null && mediaType(res) === "text/event-stream";
}

/** The server's `x-request-id`, which some servers build from what was sent: redacted. */
export function requestIdOf(res: Response, secret?: string): string | undefined {
  const id = res.headers.get("x-request-id");
  return id === null ? undefined : redactText(id, secret);
}

/**
 * Sends one request and answers the 2xx response (body unread), or throws the typed error of a
 * non-2xx (its body read with a cap, `retry-after` kept on it) or a ConnectionError. Retrying is the
 * caller's business; after a loading wait the call asks the server to hold the request (`x-wait-for-model`).
 */
export async function sendOnce(call: Call, conn: Connection, out: Outgoing): Promise<Reply> {
  const own = out.body.contentType ? { ...conn.headers, "Content-Type": out.body.contentType } : conn.headers;
  const headers = call.waitForModel && !("x-wait-for-model" in own) ? { ...own, "x-wait-for-model": "true" } : own;
  const { debug } = conn;
  const sentAt = debug ? Date.now() : 0;
  const { bytes, json } = out.body;
  debug?.(`POST ${redactUrl(out.url)} (${bytes ? "binary" : `${json.length} bytes`})`);
  let res: Response;
  let release: () => void;
  try {
    ({ res, release } = await fetchUnder(call, conn, out.url, { method: "POST", headers, body: bytes ?? json }));
  } catch (error) {
    debug?.(`failed after ${Date.now() - sentAt} ms: ${(error as Error).message}`);
    throw error;
  }
  const secret = call.secret;
  const origin: Origin = {
    url: redactUrl(out.url),
    requestId: requestIdOf(res, secret),
    provider: res.headers.get("x-inference-provider") ?? undefined,
    secret,
  };
  debug?.(
    `${res.status} ${mediaType(res) || "-"} in ${Date.now() - sentAt} ms${origin.requestId ? `, request id ${origin.requestId}` : ""}`,
  );
  conn.onResponse?.({
    status: res.status,
    headers: res.headers,
    url: origin.url,
    requestId: origin.requestId,
    backend: out.backend,
  });
  if (res.ok) return { res, origin, release };
  const body = await readErrorBody(call, res);
  throw toHttpError({
    status: res.status,
    body,
    requestId: origin.requestId,
    url: out.url,
    requestHeaders: redactHeaders(headers, secret),
    requestBody: out.body.value,
    retryAfterMs: retryAfterMs(res.headers),
    provider: origin.provider,
    secret,
  });
}

/** Why a request is aborted once its answer is read: made once (an abort without a reason makes an exception per call). */
const RELEASED = /* @__PURE__ */ new DOMException("The answer was read", "AbortError");

/**
 * The one way a call sends a request: aborted as soon as the call fails (deadline, first chunk, caller's
 * signal); once the answer's first data is in (a poll, a file it names), the wait for the response's head
 * is watched by `idleTimeout` and `stallTimeout` too, so that no request of a call waits unbounded.
 */
export async function fetchUnder(
  call: Call,
  conn: Pick<Connection, "fetch" | "fetchOptions">,
  url: string,
  init: RequestInit,
): Promise<{ res: Response; release: () => void }> {
  call.check();
  const doFetch = conn.fetch ?? globalThis.fetch;
  if (typeof doFetch !== "function") throw new InferenceError("No fetch is available: pass one as the `fetch` option");
  const attempt = call.attempt();
  call.awaitHead();
  try {
    const res = await doFetch(url, { ...conn.fetchOptions, ...init, signal: attempt.signal });
    return { res, release: () => attempt.abort(RELEASED) };
  } catch (error) {
    attempt.abort();
    throw call.translate(error, url);
  } finally {
    call.stopWatching(); // no body of this call is being read while it sends
  }
}

/** Reads at most 64 KB of an error body under the call's limits, then cancels the rest. */
async function readErrorBody(call: Call, res: Response): Promise<unknown> {
  return parseMaybeJson(await readText(call, res, false));
}

/** A delay in HTTP's delta-seconds (a decimal accepted), or undefined. */
const DELAY = /^\s*\d+(\.\d+)?\s*$/;

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date, in ms; undefined when absent or not HTTP's form. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && DELAY.test(ms)) return Number(ms);
  const ra = headers.get("retry-after");
  if (ra === null) return undefined;
  if (DELAY.test(ra)) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
