import { InferenceError } from "../errors";
import { toHttpError } from "../errorTable";
import type { FetchLike, ResponseInfo } from "../types";
import { VERSION } from "../version";
import type { Call } from "./call";

/** Everything the transport needs to send one request; built by a task from the options. */
export interface RequestSpec {
  url: string;
  body: unknown;
  accessToken?: string;
  headers?: Record<string, string>;
  fetch?: FetchLike;
  fetchOptions?: Record<string, unknown>;
  billTo?: string;
  useCache?: boolean;
  onResponse?: (info: ResponseInfo) => void;
}

const ERROR_BODY_CAP = 64 * 1024;

const isBrowser: boolean =
  typeof document !== "undefined" ||
  (typeof navigator !== "undefined" && /^Mozilla\//.test(navigator.userAgent ?? ""));

export function buildHeaders(spec: RequestSpec, extra?: Record<string, string>): Record<string, string> {
  const h: Record<string, string> = { "Content-Type": "application/json" };
  if (spec.accessToken) h.Authorization = `Bearer ${spec.accessToken}`;
  if (!isBrowser) h["User-Agent"] = `hfkit/${VERSION}`;
  if (spec.useCache === false) h["x-use-cache"] = "false";
  if (spec.billTo) h["X-HF-Bill-To"] = spec.billTo;
  return Object.assign(h, extra, spec.headers);
}

/** The request's headers as errors may show them: the token never appears. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = /^authorization$/i.test(k) ? "Bearer [redacted]" : v;
  return out;
}

/** Strips `user:password@` so no URL in an error or log carries a credential. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
}

/**
 * Sends one request and answers the 2xx response (body unread), or throws the typed error of a
 * non-2xx (its body read with a cap) or a ConnectionError. Retrying is the caller's business.
 */
export async function sendOnce(call: Call, spec: RequestSpec, extraHeaders?: Record<string, string>): Promise<Response> {
  call.check();
  const headers = buildHeaders(spec, extraHeaders);
  const doFetch = spec.fetch ?? globalThis.fetch;
  if (typeof doFetch !== "function") throw new InferenceError("No fetch is available: pass one as the `fetch` option");
  const attempt = call.attempt();
  let res: Response;
  try {
    res = await doFetch(spec.url, { ...spec.fetchOptions, method: "POST", headers, body: JSON.stringify(spec.body), signal: attempt.signal });
  } catch (e) {
    throw call.translate(e);
  }
  attempts.set(res, attempt);
  const requestId = res.headers.get("x-request-id") ?? undefined;
  spec.onResponse?.({ status: res.status, headers: res.headers, url: redactUrl(spec.url), requestId });
  if (res.ok) return res;
  const body = await readErrorBody(call, res);
  const error = toHttpError({
    status: res.status,
    body,
    requestId,
    url: redactUrl(spec.url),
    requestHeaders: redactHeaders(headers),
    requestBody: spec.body,
  });
  setRetryAfter(error, res.headers);
  throw error;
}

const attempts = new WeakMap<Response, AbortController>();

/** Ends the request behind `res` once its body is done with (some fetches, msw's, only stop on abort). */
export function release(res: Response): void {
  attempts.get(res)?.abort();
}

/** Reads at most 64 KB of an error body under the call's limits, then cancels the rest. */
async function readErrorBody(call: Call, res: Response): Promise<unknown> {
  return parseMaybeJson(await readText(call, res, ERROR_BODY_CAP, false));
}

/**
 * Reads a body as text under the call's limits (abort, deadline, and the idle timeout: a server that
 * sends an answer but never ends the response must not hang the call); past `cap` chars the rest is
 * cancelled. Only an answer's bytes meet the first-chunk limit; an error body's do not.
 */
export async function readText(call: Call, res: Response, cap = Infinity, isAnswer = true): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const off = call.onCancel(() => void reader.cancel().catch(() => {}));
  const decoder = new TextDecoder();
  let text = "";
  call.watchIdle();
  try {
    for (;;) {
      call.reading();
      const { done, value } = await reader.read();
      call.check();
      if (done) break;
      call.touch();
      if (isAnswer) call.firstByte();
      text += decoder.decode(value, { stream: true });
      if (text.length >= cap) {
        await reader.cancel().catch(() => {});
        break;
      }
    }
  } catch (e) {
    throw call.translate(e);
  } finally {
    call.stopIdle();
    off();
  }
  return text + decoder.decode();
}

export function parseMaybeJson(text: string): unknown {
  const t = text.trim();
  if (t.startsWith("{") || t.startsWith("[")) {
    try {
      return JSON.parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

const retryAfterMs = new WeakMap<object, number>();

/** `retry-after-ms`, `retry-after` in seconds or as an HTTP date, kept for the retry policy. */
function setRetryAfter(error: object, headers: Headers): void {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return void retryAfterMs.set(error, ms);
  const ra = headers.get("retry-after");
  if (ra === null) return;
  const secs = Number(ra);
  const value = Number.isFinite(secs) ? secs * 1000 : Date.parse(ra) - Date.now();
  if (Number.isFinite(value)) retryAfterMs.set(error, Math.max(0, value));
}

export function retryAfterOf(error: object): number | undefined {
  return retryAfterMs.get(error);
}
