/**
 * The access token must never come back out of the client: not in an error's message, body, request
 * id, headers or `cause` chain, nor in a URL. Servers echo it (an `Authorization` header quoted in an
 * error body, an `x-request-id` built from it), and fetch errors quote URLs that may carry it.
 */
import type { JsonObject } from "./json";

const REDACTED = "[redacted]";
/** Hugging Face tokens (`hf_` + 34 letters and digits), whoever's they are. */
const HF_TOKEN = /\bhf_[A-Za-z0-9]{16,}/g;
const BEARER = /\b(Bearer\s+)[^\s"',;]+/gi;
/** `user:password@` of a URL, and of any URL inside it (a redirect target in its query). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi;
/** Query parameters that carry credentials by convention (`?token=`, `?api_key=`, `?sig=` …). */
const SECRET_PARAM =
  /([?&](?:[\w.-]*(?:token|key|secret|password|passwd|sig|signature|auth|credential)[\w.-]*)=)[^&#]*/gi;

/** `url` without `user:password@` and without the values of credential-like query parameters. */
export function redactUrl(url: string): string {
  return url.replace(USERINFO, "$1").replace(SECRET_PARAM, `$1${REDACTED}`);
}

/** `text` with `secret`, any HF token and any `Bearer …` credential replaced by `[redacted]`. */
export function redactText(text: string, secret?: string): string {
  let out = text;
  if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out.replace(HF_TOKEN, REDACTED).replace(BEARER, `$1${REDACTED}`);
}

/** A JSON value (an error body) with every string redacted; past 32 levels, `[redacted]` (a server chooses the depth). */
export function redactValue(value: unknown, secret?: string, depth = 0): unknown {
  if (typeof value === "string") return redactText(value, secret);
  if (typeof value !== "object" || value === null || !isPlain(value)) return value;
  if (depth > 32) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactText(k, secret)] = redactValue(v, secret, depth + 1);
  return out;
}

/** An array or an object made by a literal or `JSON.parse`: what a body is made of (a Blob or a Date is left as it is). */
function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

/**
 * The only way a server's words become an error's words: `value` (a status, an id, a reason; an object as
 * JSON) as text of at most `max` characters, with the token, any HF token and any `Bearer …` redacted.
 */
export function serverText(value: unknown, secret?: string, max = 200): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)); // a parsed JSON value: no cycle
  // Redacted before it is cut (with room for a token across the cut), then cut: no token's start is left behind.
  return redactText(text.slice(0, max + 256 + (secret?.length ?? 0)), secret).slice(0, max);
}

/** Fields of a Node or undici error worth keeping in a redacted copy. */
const KEPT_FIELDS = ["code", "errno", "syscall", "address", "port", "hostname"] as const;

/** An error with those fields, each of any type, where it has them. */
type WithFields = Error & { [F in (typeof KEPT_FIELDS)[number]]?: unknown };

/**
 * An error and its `cause` chain with every message, stack and kept field redacted: fetch errors quote the URL
 * they failed on (with its userinfo or `?token=`), and `inspect` prints it all. An error with nothing to redact
 * is answered as itself (the caller's abort reason, a parse error keep their identity), else as a copy.
 */
export function redactError(error: unknown, secret?: string, depth = 0): unknown {
  if (typeof error === "string") return redactText(error, secret);
  if (!(error instanceof Error)) return error;
  if (depth > 8) return new Error(REDACTED); // a chain longer than any runtime makes: not shown unredacted
  const cause = error.cause;
  const from: WithFields = error;
  const copy: WithFields = new Error(
    redactText(error.message, secret),
    cause === undefined ? undefined : { cause: redactError(cause, secret, depth + 1) },
  );
  copy.name = error.name;
  copy.stack = error.stack && redactText(error.stack, secret);
  let same = copy.message === error.message && copy.stack === error.stack && copy.cause === cause;
  for (const field of KEPT_FIELDS) {
    const v = from[field];
    if (v === undefined) continue;
    const safe = typeof v === "string" ? redactText(v, secret) : v;
    copy[field] = safe;
    same &&= safe === v;
  }
  return same ? error : copy;
}

/**
 * `error` made safe to show, in place, where a call hands it to its caller: its message, stack and own
 * fields redacted, its `cause` chain replaced by redacted copies (`util.inspect` prints them all).
 */
export function sealError<E>(error: E, secret?: string): E {
  if (!(error instanceof Error)) return error;
  const fields: JsonObject = {};
  for (const [key, value] of Object.entries(error)) fields[key] = redactValue(value, secret); // `cause` is not enumerable: below
  Object.assign(error, fields);
  error.message = redactText(error.message, secret);
  if (error.stack) error.stack = redactText(error.stack, secret);
  if (error.cause !== undefined) error.cause = redactError(error.cause, secret);
  return error;
}
