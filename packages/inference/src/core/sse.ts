import { serverText } from "./redact";
import { IncompleteStreamError, type InferenceError, InferenceError as BaseError, MalformedEventError } from "./errors";
import { toHttpError } from "./errorTable";
import type { Call } from "./call";
import { firstNonBlank, readerOf } from "./body";
import { MAX_ANSWER_BYTES, type Origin, parseMaybeJson } from "./request";
import { noop, type Source, type StreamRules } from "./source";

/** How the body speaks: not known until its first non-blank byte; an event stream; or one bare JSON value. */
const enum Mode { Unknown, Events, Json } // prettier-ignore

const DECODE_STREAM: TextDecodeOptions = { stream: true };
const LF = 10;
const COLON = 58;
const SPACE = 32;

/** `[DONE]` with any spacing around it (looked for first, so that no chunk's data is trimmed). */
function isDoneMarker(data: string): boolean {
  return data.includes("[DONE]") && data.trim() === "[DONE]";
}

/**
 * Bytes of an event stream -> values, with the termination rules: complete on `[DONE]`, on the
 * body's end, or a short grace after the answer is complete; never wait for `[DONE]`. A plain pull
 * reader: the stream iterator orders the callers, ends the call and closes this.
 */
export class EventStream<T> implements Source<T> {
  /**
   * Values parsed and not yet taken: `queue[head..size)`. Slots are reused, not truncated (setting
   * `length` costs more than the rest of a one-event read), and cleared as they are taken.
   */
  private readonly queue: (T | undefined)[] = [];
  private head = 0;
  private size = 0;
  private error: InferenceError | undefined;
  private closed = false;
  private accepted = false;
  private mode = Mode.Unknown;
  /** The body so far, in `Mode.Json`. */
  private json = "";
  /** Bytes since the last event or comment: one event may not grow without bound. */
  private pendingBytes = 0;
  /** The body has ended: an event cut there is an incomplete stream, not a malformed one. */
  private bodyEnded = false;
  /** The body was cancelled and its request released (once: the end and `close()` both ask). */
  private cancelled = false;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  declare private readonly call: Call; // these: assigned in the constructor, so declared only (no empty field in a bundle)
  declare private readonly rules: StreamRules<T>;
  declare private readonly origin: Origin;
  declare private readonly release: () => void;
  declare private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  /** The line the last read ended inside, in pieces (joined once, when its end arrives). */
  private readonly partial: string[] = [];
  /** The last read ended on a CR: an LF that starts the next one belongs to it. */
  private afterCR = false;
  /** The event being read: its `data` lines joined by "\n", how many, its `event` field. */
  private data = "";
  private dataLines = 0;
  private eventName: string | undefined;
  declare private readonly offCancel: () => void;
  /** The read's callbacks, made once per `then` (the iterator passes the same one each time), not per read. */
  private pullThen: (() => unknown) | undefined;
  private afterRead: (r: ReadableStreamReadResult<Uint8Array>) => unknown = noop;
  private afterReadError: (e: unknown) => unknown = noop;

  constructor(
    body: ReadableStream<Uint8Array>,
    call: Call,
    rules: StreamRules<T>,
    origin: Origin,
    release: () => void = noop,
  ) {
    this.call = call;
    this.rules = rules;
    this.origin = origin;
    this.release = release;
    try {
      this.reader = readerOf(body);
    } catch (error) {
      release();
      throw error;
    }
    this.offCancel = call.onCancel(() => this.cancelBody());
    call.watchBody();
  }

  /** Reads until the first value is ready; throws, the body closed, if the stream fails before any (retry-safe). */
  async prime(): Promise<this> {
    while (this.head === this.size && !this.error && !this.closed) await this.pull(noop);
    if (this.head === this.size && this.error) {
      this.close();
      throw this.error;
    }
    return this;
  }

  poll(): T | undefined {
    return this.head < this.size ? this.take() : undefined;
  }

  get ended(): boolean {
    return this.head === this.size && (this.closed || this.error !== undefined);
  }

  failure(): InferenceError | undefined {
    return this.error;
  }

  /** One `reader.read()` and one `then` per network chunk. */
  pull<R>(then: () => R | Promise<R>): Promise<R> {
    this.call.reading();
    if (this.pullThen !== then) {
      this.pullThen = then;
      this.afterRead = (r) => (this.onRead(r), then());
      this.afterReadError = (e) => (this.onReadError(e), then());
    }
    return this.reader.read().then(this.afterRead, this.afterReadError) as Promise<R>;
  }

  close(): void {
    this.closed = true;
    this.head = this.size = this.queue.length = 0;
    this.cancelBody();
    this.offCancel();
    this.call.stopWatching();
  }

  private take(): T | undefined {
    const value = this.queue[this.head];
    this.queue[this.head++] = undefined;
    if (this.head === this.size) this.head = this.size = 0;
    return value;
  }

  private onReadError(e: unknown): void {
    if (!this.closed) this.error ??= this.call.translate(e, this.origin.url);
  }

  private onRead(r: ReadableStreamReadResult<Uint8Array>): void {
    if (this.call.failure) {
      this.error ??= this.call.failure;
      return;
    }
    if (this.closed) return;
    if (r.done) return this.onBodyEnd();
    this.call.touch();
    const text = this.decoder.decode(r.value, DECODE_STREAM);
    if (this.mode !== Mode.Events && this.sniff(text)) return;
    this.pendingBytes += r.value.byteLength;
    if (this.pendingBytes > MAX_ANSWER_BYTES) return this.tooLarge(text);
    this.feed(text);
  }

  /**
   * The event-stream format (WHATWG HTML, "Parsing an event stream"), as far as a client of these
   * servers needs it: lines end at CRLF, LF or CR (a CR ending one read and an LF starting the next
   * are one line end); `data` lines join with "\n"; `event` names the event; a blank line dispatches
   * it when it has data. Comments, `id`, `retry` and unknown fields are read past. The UTF-8 BOM is
   * the decoder's to drop. Comments count towards the bytes of the event they precede.
   */
  private feed(text: string): void {
    let at = 0;
    if (this.afterCR) {
      this.afterCR = false;
      if (text.charCodeAt(0) === LF) at = 1;
    }
    let lf = text.indexOf("\n", at);
    let cr = text.indexOf("\r", at);
    while (lf >= 0 || cr >= 0) {
      const end = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
      if (this.partial.length > 0) {
        this.partial.push(text.slice(at, end));
        const line = this.partial.join("");
        this.partial.length = 0;
        this.onLine(line, 0, line.length);
      } else this.onLine(text, at, end);
      at = end + 1;
      if (end === cr) {
        if (at === text.length) this.afterCR = true;
        else if (text.charCodeAt(at) === LF) at++;
        cr = text.indexOf("\r", at);
      }
      if (lf >= 0 && lf < at) lf = text.indexOf("\n", at);
      if (this.closed || this.error) return;
    }
    if (at < text.length) this.partial.push(at === 0 ? text : text.slice(at));
  }

  /** One line, `text[start, end)`. */
  private onLine(text: string, start: number, end: number): void {
    if (start === end) {
      const lines = this.dataLines;
      const name = this.eventName;
      this.dataLines = 0;
      this.eventName = undefined;
      const data = this.data;
      this.data = ""; // a slice of the read it came in: kept, it would keep that whole read alive
      if (lines > 0) this.onEvent(name, data, lines === 1);
      return;
    }
    // `data` and `event`, by their first letters' codes (a `startsWith` per line costs more than the rest).
    const c = text.charCodeAt(start);
    const isData =
      c === 100 &&
      text.charCodeAt(start + 1) === 97 &&
      text.charCodeAt(start + 2) === 116 &&
      text.charCodeAt(start + 3) === 97;
    if (!isData && !(c === 101 && text.startsWith("vent", start + 1))) return; // a comment, `id`, `retry` or another field
    let at = start + (isData ? 4 : 5);
    if (at < end) {
      if (text.charCodeAt(at) !== COLON) return; // `datum:`, `events`: another field
      at += text.charCodeAt(at + 1) === SPACE ? 2 : 1; // at the line's end, the next code is its terminator (or NaN): never a space
    }
    const value = text.slice(at, end);
    if (!isData) this.eventName = value || undefined;
    else this.data = this.dataLines++ === 0 ? value : `${this.data}\n${value}`;
  }

  /** Until the body's first non-blank byte, whether it is events or one bare JSON value; true when `text` was taken as JSON. */
  private sniff(text: string): boolean {
    const i = firstNonBlank(text);
    if (this.mode === Mode.Unknown) {
      if (i < 0) return false;
      const c = text[i];
      this.mode = c === "{" || c === "[" ? Mode.Json : Mode.Events;
      if (this.mode === Mode.Events) return false;
    }
    this.json += text;
    if (i >= 0) this.call.data(); // blanks are not data
    if (this.json.length > MAX_ANSWER_BYTES) this.tooLarge(this.json);
    return true;
  }

  private tooLarge(text: string): void {
    this.error = new MalformedEventError(
      `An event of the stream is larger than ${MAX_ANSWER_BYTES / 1048576} MB; reading stopped there`,
      text,
      undefined,
      this.origin.secret,
    );
    this.complete();
  }

  private onBodyEnd(): void {
    this.bodyEnded = true;
    const rest = this.decoder.decode();
    if (this.mode === Mode.Json) return this.onWholeAnswer(this.json + rest);
    // An event the body ends without its blank line is still dispatched (a lone final CR ends its line too).
    this.feed(`${rest}\n\n`);
    if (this.closed || this.error) return;
    if (this.rules.graceAfterComplete() === undefined) {
      this.error = new IncompleteStreamError(
        this.accepted ? "The stream ended before the answer was complete" : "The stream ended before any chunk arrived",
      );
    }
    this.complete();
  }

  /** A bare JSON body under an event-stream type: an error mapped, or a whole answer yielded. */
  private onWholeAnswer(text: string): void {
    const body = parseMaybeJson(text);
    if (typeof body === "object" && body !== null && (body as { error?: unknown }).error != null)
      this.inStreamError(body);
    else {
      try {
        for (const value of this.rules.whole(body, text)) this.queue[this.size++] = value;
        this.accepted = true;
      } catch (error) {
        this.error =
          error instanceof BaseError
            ? error
            : new MalformedEventError(
                `Unexpected answer: ${serverText(text, this.origin.secret)}`,
                text,
                error,
                this.origin.secret,
              );
      }
    }
    this.complete();
  }

  /** One event: `oneLine` when its data came on one line (so it can be written back as one `data:` line). */
  private onEvent(name: string | undefined, data: string, oneLine: boolean): void {
    this.pendingBytes = 0;
    if (this.closed || this.error) return;
    if (name === "error") return this.inStreamError(this.failureOf(parseMaybeJson(data)));
    if (isDoneMarker(data)) {
      if (!this.accepted) this.error = new IncompleteStreamError("The stream sent [DONE] before any chunk");
      return this.complete();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch (e) {
      this.error = this.bodyEnded
        ? new IncompleteStreamError("The stream ended inside an event")
        : new MalformedEventError(
            `Malformed event in the stream: ${serverText(data, this.origin.secret)}`,
            data,
            e,
            this.origin.secret,
          );
      return;
    }
    if (typeof parsed !== "object" || parsed === null) {
      this.error = new MalformedEventError(
        `Unexpected event in the stream: ${serverText(data, this.origin.secret)}`,
        data,
        undefined,
        this.origin.secret,
      );
      return;
    }
    const { error }: { error?: unknown } = parsed;
    if (error != null) return this.inStreamError(parsed);
    const failed = this.rules.failure?.(parsed as Record<string, unknown>);
    if (failed !== undefined) return this.inStreamError(failed);
    const value = this.rules.accept(parsed as Record<string, unknown>, oneLine ? data : undefined);
    // A value is data; an event the rules drop (`{}`, a chunk that carries nothing) is a keep-alive.
    if (value === undefined) return;
    this.accepted = true;
    this.call.data();
    this.queue[this.size++] = value;
    this.afterEvent();
  }

  private afterEvent(): void {
    const grace = this.rules.graceAfterComplete();
    if (grace === undefined) return;
    this.call.stopWatching();
    if (grace <= 0) return this.complete();
    this.graceTimer ??= setTimeout(() => this.complete(), grace);
  }

  /** An `event: error` frame's data, as the rules read it when they know its shape. */
  private failureOf(body: unknown): unknown {
    return (typeof body === "object" && body !== null && this.rules.failure?.(body as Record<string, unknown>)) || body;
  }

  private inStreamError(body: unknown): void {
    this.error = toHttpError({ status: 200, body, inStream: true, ...this.origin });
  }

  /** The answer is complete: what is queued is still delivered; the body is cancelled now. */
  private complete(): void {
    this.closed = true;
    this.cancelBody();
  }

  private cancelBody(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    clearTimeout(this.graceTimer);
    this.reader.cancel().catch(() => {});
    this.release();
  }
}
