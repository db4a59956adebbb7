/**
 * Reading a whole body under a call's limits: abort, deadline, idle and stall (a server that sends an
 * answer but never ends the response must not hang the call), and with a bound on its size.
 */
import { InferenceError, KEPT_TEXT_CHARS, MalformedEventError } from "./errors";
import type { Call } from "./call";

/** The largest 2xx JSON answer read (a long answer with logprobs is a few MB). */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/**
 * `text + piece`, within the bound of one answer: an answer collected from a stream (its content, reasoning or
 * a tool call's arguments) past 32 MB is a MalformedEventError, never V8's `Invalid string length`.
 */
export function grow(text: string, piece: string): string {
  if (text.length + piece.length > MAX_ANSWER_BYTES) {
    throw new MalformedEventError(
      `The answer collected from the stream is larger than ${MAX_ANSWER_BYTES / 1048576} MB; collecting stopped there`,
      text.slice(0, 200),
    );
  }
  return text + piece;
}

/** White space that may come before a JSON value or an event stream's first line, and a BOM. */
export const isBlank = (code: number): boolean =>
  code === 32 || code === 9 || code === 10 || code === 13 || code === 0xfeff;

/** The index of the first character of `text` that is not blank, or -1. */
export function firstNonBlank(text: string): number {
  for (let i = 0; i < text.length; i++) if (!isBlank(text.charCodeAt(i))) return i;
  return -1;
}

/**
 * A body's reader. A body that is not a web ReadableStream (node-fetch's Node stream) is destroyed, so that its
 * socket is freed, and refused with an error that says what to do, which no retry repeats.
 */
export function readerOf(body: ReadableStream<Uint8Array>): ReadableStreamDefaultReader<Uint8Array> {
  // Typed as a web stream, whatever the `fetch` passed made it.
  const given: { getReader?: unknown; destroy?: () => void } = body;
  if (typeof given.getReader === "function") return body.getReader();
  given.destroy?.();
  throw new InferenceError(
    "The response body is not a web ReadableStream (node-fetch?): pass a WHATWG fetch as `fetch`",
  );
}

/**
 * Feeds each piece of the body to `take` until the body ends or `take` answers true (then the rest is
 * cancelled). Whatever fetch or `take` throws ends the read as the error the caller must see.
 */
export async function pump(call: Call, res: Response, take: (piece: Uint8Array) => boolean): Promise<void> {
  if (!res.body) return;
  const reader = readerOf(res.body);
  const off = call.onCancel(() => void reader.cancel().catch(() => {}));
  call.watchBody();
  try {
    for (;;) {
      call.reading();
      const { done, value } = await reader.read();
      call.check();
      if (done) return;
      call.touch();
      if (take(value)) return void (await reader.cancel().catch(() => {}));
    }
  } catch (e) {
    void reader.cancel().catch(() => {});
    throw call.translate(e, res.url);
  } finally {
    call.stopWatching();
    off();
  }
}

/**
 * Reads a body as text. An error body, or an answer that does not start as JSON (an HTML page from a
 * proxy, an event stream), is kept to its first 64 KB and the rest cancelled; a JSON answer past 32 MB is a
 * MalformedEventError. Progress (the first-chunk and stall limits) is a JSON answer's non-blank bytes only:
 * an event stream's keep-alive comments, or any other text, never hold a whole call open (idle still sees them).
 */
export async function readText(call: Call, res: Response, isAnswer = true): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  let cap = isAnswer ? MAX_ANSWER_BYTES : KEPT_TEXT_CHARS;
  let started = !isAnswer;
  await pump(call, res, (value) => {
    const piece = decoder.decode(value, { stream: true });
    text += piece;
    bytes += value.byteLength;
    // Only the new piece is scanned (linear in the body), and blanks are not data: they keep no stalled server alive.
    const first = firstNonBlank(piece);
    if (isAnswer && first >= 0) {
      if (!started && piece[first] !== "{" && piece[first] !== "[") cap = KEPT_TEXT_CHARS; // not JSON: its start says what it is
      started = true;
      if (cap === MAX_ANSWER_BYTES) call.data();
    }
    if (bytes < cap) return false;
    if (cap === MAX_ANSWER_BYTES) {
      throw new MalformedEventError(
        `The server's answer is larger than ${MAX_ANSWER_BYTES / 1048576} MB; reading stopped there`,
        text,
        undefined,
        call.secret,
      );
    }
    return true;
  });
  return text + decoder.decode();
}

/** JSON when the text is an object or an array that parses, else the text. */
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
