import { createParser, type EventSourceMessage, type EventSourceParser } from "eventsource-parser";
import { IncompleteStreamError, type InferenceError, InferenceError as BaseError, MalformedEventError } from "../errors";
import { toHttpError } from "../errorTable";
import type { Call } from "./call";
import { parseMaybeJson } from "./request";

/** What a kind of stream (chat chunks, generate events) says about its own events. */
export interface StreamRules<T> {
  /** The value to yield for one parsed event, or undefined to yield nothing. */
  accept(event: Record<string, unknown>): T | undefined;
  /**
   * Undefined while the answer is incomplete; once complete, how long to keep reading for stragglers
   * (a usage chunk) before completing: 0 completes at once.
   */
  graceAfterComplete(idleTimeout: number): number | undefined;
}

/** Where the stream came from, for the errors it raises. */
export interface StreamOrigin {
  url: string;
  requestId?: string;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };
const DECODE_STREAM: TextDecodeOptions = { stream: true };

function isDoneMarker(data: string): boolean {
  return data.length < 16 && data.trim() === "[DONE]";
}

/**
 * Bytes of an event stream -> values, with the termination rules: complete on `[DONE]`, on the
 * body's end, or a short grace after the answer is complete; never wait for `[DONE]`.
 */
export class EventStream<T> {
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
  private lastCharWasCR = false;
  private primed = false;
  /** The promise of the last `next()` still unanswered; `calls` numbers them. */
  private tail: Promise<IteratorResult<T, undefined>> | undefined;
  private calls = 0;
  /** The call that the pending read will answer. */
  private readFor = 0;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  private readonly offCancel: () => void;

  constructor(
    body: ReadableStream<Uint8Array>,
    private readonly call: Call,
    private readonly rules: StreamRules<T>,
    private readonly origin: StreamOrigin,
    private readonly release: () => void = () => {},
  ) {
    if (typeof (body as { getReader?: unknown }).getReader !== "function") {
      throw new BaseError("The response body is not a web ReadableStream (node-fetch?): pass a WHATWG fetch as `fetch`");
    }
    this.reader = body.getReader();
    this.parser = createParser({ onEvent: (e) => this.onEvent(e) });
    this.offCancel = call.onCancel(() => this.cancelBody());
    call.watchIdle();
  }

  /** Reads until the first value is ready; throws if the stream fails before any (retry-safe). */
  async prime(): Promise<void> {
    while (this.head === this.size && !this.error && !this.closed) await this.pull();
    if (this.head === this.size && this.error) {
      this.settle(false);
      throw this.error;
    }
    this.primed = true;
  }

  /**
   * The next value. Hot path: a queued event is answered at once; otherwise one `reader.read()` and
   * one `then` per network chunk, whose callback answers with the chunk's first event. Overlapping
   * calls are served in order: each waits behind the last one still unanswered (`tail`).
   */
  next(): Promise<IteratorResult<T, undefined>> {
    if (this.tail === undefined && this.head < this.size) {
      return Promise.resolve({ done: false, value: this.take() });
    }
    const id = ++this.calls;
    let result: Promise<IteratorResult<T, undefined>>;
    if (this.tail !== undefined) {
      const answer = (): IteratorResult<T, undefined> | Promise<IteratorResult<T, undefined>> => this.answer(id);
      result = this.tail.then(answer, answer);
    } else {
      try {
        const r = this.answer(id);
        if (!(r instanceof Promise)) return Promise.resolve(r);
        result = r;
      } catch (error) {
        return Promise.reject(error);
      }
    }
    this.tail = result;
    return result;
  }

  /** Answers call `id`: at once when a value, the failure or the end is known, else after one more read. */
  private answer(id: number): IteratorResult<T, undefined> | Promise<IteratorResult<T, undefined>> {
    if (this.head < this.size) {
      this.answered(id);
      return { done: false, value: this.take() };
    }
    if (this.error || this.closed) {
      this.answered(id);
      const error = this.error;
      this.error = undefined;
      this.closed = true;
      this.settle(true);
      if (error) throw error;
      return DONE;
    }
    this.call.reading();
    this.readFor = id;
    return this.reader.read().then(this.onChunk, this.onChunkError);
  }

  /** The read's callbacks, made once: calls are answered one at a time, so one read is pending at most. */
  private readonly onChunk = (r: ReadableStreamReadResult<Uint8Array>) => {
    this.onRead(r);
    return this.answer(this.readFor);
  };
  private readonly onChunkError = (e: unknown) => {
    this.onReadError(e);
    return this.answer(this.readFor);
  };

  /** Call `id` is answered; when it was the last one waiting, the next call may take the hot path. */
  private answered(id: number): void {
    if (id === this.calls) this.tail = undefined;
  }

  /** Stops at once: cancels the body even while a read is pending. */
  cancel(): void {
    this.closed = true;
    this.head = this.size = this.queue.length = 0;
    this.error = undefined;
    this.settle(true);
  }

  private take(): T {
    const value = this.queue[this.head] as T;
    this.queue[this.head++] = undefined;
    if (this.head === this.size) this.head = this.size = 0;
    return value;
  }

  private pull(): Promise<void> {
    this.call.reading();
    return this.reader.read().then(
      (r) => this.onRead(r),
      (e: unknown) => this.onReadError(e),
    );
  }

  private onReadError(e: unknown): void {
    if (!this.closed) this.error ??= this.call.translate(e);
  }

  private onRead(r: ReadableStreamReadResult<Uint8Array>): void {
    if (this.call.failure) {
      this.error ??= this.call.failure;
      return;
    }
    if (this.closed) return;
    if (r.done) return this.onBodyEnd();
    this.call.firstByte();
    this.call.touch();
    const text = this.decoder.decode(r.value, DECODE_STREAM);
    if (text.length > 0) this.lastCharWasCR = text.charCodeAt(text.length - 1) === 13;
    this.parser.feed(text);
  }

  private onBodyEnd(): void {
    const rest = this.decoder.decode();
    // A final CR may still be waiting for an LF; at the end of the body it ends its line.
    this.parser.feed(this.lastCharWasCR || rest.endsWith("\r") ? `${rest}\n` : rest);
    if (this.closed || this.error) return;
    if (this.rules.graceAfterComplete(0) === undefined) {
      this.error = new IncompleteStreamError(
        this.accepted ? "The stream ended before the answer was complete" : "The stream ended before any chunk arrived",
      );
    }
    this.complete();
  }

  private onEvent(event: EventSourceMessage): void {
    if (this.closed || this.error) return;
    const data = event.data;
    if (event.event === "error") return this.inStreamError(parseMaybeJson(data));
    if (isDoneMarker(data)) {
      if (!this.accepted) this.error = new IncompleteStreamError("The stream sent [DONE] before any chunk");
      return this.complete();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch (e) {
      this.error = new MalformedEventError(`Malformed event in the stream: ${data.slice(0, 200)}`, data, e);
      return;
    }
    if (typeof parsed !== "object" || parsed === null) {
      this.error = new MalformedEventError(`Unexpected event in the stream: ${data.slice(0, 200)}`, data);
      return;
    }
    if ((parsed as { error?: unknown }).error != null) return this.inStreamError(parsed);
    const value = this.rules.accept(parsed as Record<string, unknown>);
    this.accepted = true;
    if (value !== undefined) this.queue[this.size++] = value;
    this.afterEvent();
  }

  private afterEvent(): void {
    const grace = this.rules.graceAfterComplete(this.call.idleTimeout);
    if (grace === undefined) return;
    this.call.stopIdle();
    if (grace <= 0) return this.complete();
    this.graceTimer ??= setTimeout(() => this.complete(), grace);
  }

  private inStreamError(body: unknown): void {
    this.error = toHttpError({ status: 200, body, inStream: true, url: this.origin.url, requestId: this.origin.requestId });
  }

  /** The answer is complete: what is queued is still delivered; the body is cancelled now. */
  private complete(): void {
    this.closed = true;
    this.cancelBody();
  }

  private cancelBody(): void {
    clearTimeout(this.graceTimer);
    this.reader.cancel().catch(() => {});
    this.release();
  }

  /**
   * Done with this body. Once the stream was handed to the caller (`final`), the call ends with it;
   * a stream that failed before its first value leaves the call to its retry policy.
   */
  private settle(final: boolean): void {
    this.cancelBody();
    this.offCancel();
    this.call.stopIdle();
    if (final && this.primed) this.call.finish();
  }
}
