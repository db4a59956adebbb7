/**
 * A server's words, made safe to show: the credentials the app gave the server (its headers, its keys), any HF
 * token and any `Bearer …` value replaced by `[redacted]`, and the text cut. `@hfkit/inference` keeps its own
 * redaction to itself (it is not among its exports): this is the same rule, with a connection's credentials.
 */

/** The credentials of one connection, never shown. */
export type Secrets = readonly string[];

const REDACTED = "[redacted]";
/** Hugging Face tokens (`hf_` + letters and digits), whoever's they are. */
const HF_TOKEN = /\bhf_[A-Za-z0-9]{16,}/g;
const BEARER = /\b(Bearer\s+)[^\s"',;]+/gi;
/** Shorter values are not taken for credentials: replacing them would garble the text and hide nothing. */
const SECRET_MIN = 4;
/** Headers that carry no credential: their values are left in the text. */
const PLAIN_HEADER = /^(?:accept(?:-[\w-]+)?|content-type|user-agent|cache-control|mcp-protocol-version)$/i;
/** The authentication schemes a header's value may start with: the credential is what follows. */
const SCHEME = /^(?:bearer|basic|token|digest|apikey|dpop|gnap|hoba|mutual|negotiate|ntlm|mac)\s+(?=\S)/i;
/** Environment variables whose names say they hold a credential. */
const SECRET_NAME = /key|token|secret|passw|auth|credential|cookie|session|private|signature/i;

/** `text` with each of `secrets`, any HF token and any `Bearer …` value replaced by `[redacted]`. */
export function redactText(text: string, secrets: Secrets = []): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  return out.replace(HF_TOKEN, REDACTED).replace(BEARER, `$1${REDACTED}`);
}

/**
 * `text` redacted and cut to its first `max` characters. A long text is cut before it is redacted (a server chooses
 * its length), with room past `max`; the cut then goes back past what a credential cut in two at the room's end may
 * have left (a run of the characters tokens are made of, the start of one of `secrets`), so no piece of one is shown
 * however much redaction shrank the text.
 */
export function serverText(text: string, secrets: Secrets, max: number): string {
  const room = roomFor(secrets);
  if (text.length <= max + room) return redactText(text, secrets).slice(0, max);
  const redacted = redactText(text.slice(0, max + room), secrets);
  return redacted.slice(0, Math.min(safeEnd(redacted, secrets, room), max));
}

/**
 * `text` redacted and cut to its last `max` characters (the end of a log), the same way at the other end: the cut
 * goes forward past the word a credential was cut in, the spaces and the word after it (a `Bearer` value whose
 * keyword was cut off), and the end of one of `secrets`.
 */
export function serverTail(text: string, secrets: Secrets, max: number): string {
  const room = roomFor(secrets);
  if (text.length <= max + room) return redactText(text, secrets).slice(-max);
  const redacted = redactText(text.slice(-(max + room)), secrets);
  return redacted.slice(Math.max(safeStart(redacted, secrets, room), redacted.length - max));
}

/** What is read past the cut: room for the longest credential to be whole. */
function roomFor(secrets: Secrets): number {
  return 256 + secrets.reduce((longest, secret) => Math.max(longest, secret.length), 0);
}

/** Characters of tokens (RFC 7235's token68, and `_`): a token cut at the end of a text is a run of them. */
const TOKEN_CHAR = /[\w.~+/=-]/;

/** Where `part` (cut from a longer text, then redacted) may safely end, at most `room` back: see `serverText`. */
function safeEnd(part: string, secrets: Secrets, room: number): number {
  let end = part.length;
  while (end > part.length - room && TOKEN_CHAR.test(part.charAt(end - 1))) end--;
  for (const secret of secrets) {
    for (let from = Math.max(0, part.length - secret.length + 1); from < end; from++) {
      if (secret.startsWith(part.slice(from))) end = from;
    }
  }
  return end;
}

/** Where `part` (cut from a longer text, then redacted) may safely start, at most `room` in: see `serverTail`. */
function safeStart(part: string, secrets: Secrets, room: number): number {
  let start = 0;
  for (const skipped of [/\S/, /\s/, /[^\s"',;]/]) {
    while (start < room && skipped.test(part.charAt(start))) start++;
  }
  for (const secret of secrets) {
    for (let size = Math.min(secret.length - 1, part.length); size > start; size--) {
      if (secret.endsWith(part.slice(0, size))) start = size;
    }
  }
  return start;
}

/**
 * The credentials the app configured for a server: the value of every header but the plain ones (after its scheme:
 * `Bearer <this>`), and the values of the variables of `env` and of the query parameters of `url` whose names say
 * they are keys.
 */
export function secretsOf(headers: Record<string, string> = {}, env: Record<string, string> = {}, url?: URL): Secrets {
  const values = [
    ...Object.entries(headers)
      .filter(([name]) => !PLAIN_HEADER.test(name))
      .map(([, value]) => value.trim().replace(SCHEME, "")),
    ...namedSecrets(Object.entries(env)),
    ...namedSecrets(url?.searchParams ?? []),
  ].map((value) => value.trim());
  // The longest first: a value that contains another is replaced whole.
  return [...new Set(values.filter((value) => value.length >= SECRET_MIN))].sort((a, b) => b.length - a.length);
}

/** The values of `entries` whose names say they hold a credential. */
function namedSecrets(entries: Iterable<[string, string]>): string[] {
  return [...entries].filter(([name]) => SECRET_NAME.test(name)).map(([, value]) => value);
}

/** At most this many characters of an error's message, and of its stack, in a cause. */
const CAUSE_TEXT_MAX = 1_000;
const CAUSE_STACK_MAX = 4_000;
/** Causes deeper than this are left out (a server cannot make the chain, but a copy is bounded anyway). */
const CAUSE_DEPTH_MAX = 4;

/**
 * A copy of `cause` and its own causes that shows no credential and holds no server text past a bound: each an
 * `Error` of the same name with its message and stack redacted and cut, and its `code` when it is a number or a
 * short string (what a server put in other fields, an MCP error's `data` say, is left out).
 */
export function safeCause(cause: unknown, secrets: Secrets, depth = 0): unknown {
  if (cause === undefined || depth > CAUSE_DEPTH_MAX) return undefined;
  if (!(cause instanceof Error)) return serverText(String(cause), secrets, CAUSE_TEXT_MAX);
  const inner = safeCause(cause.cause, secrets, depth + 1);
  const copy: Error & { code?: unknown } = new Error(
    serverText(cause.message, secrets, CAUSE_TEXT_MAX),
    inner === undefined ? undefined : { cause: inner },
  );
  copy.name = serverText(cause.name, secrets, 100);
  copy.stack = cause.stack === undefined ? undefined : serverText(cause.stack, secrets, CAUSE_STACK_MAX);
  const code: unknown = Reflect.get(cause, "code");
  if (typeof code === "number" || (typeof code === "string" && code.length <= 100)) copy.code = code;
  return copy;
}
