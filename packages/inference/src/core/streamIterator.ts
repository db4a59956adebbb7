import { AbortError } from "./errors";
import type { Call } from "./call";
import type { Source } from "./source";
import { sealError } from "./redact";

/** A stream's start: throws synchronously on bad input (raised from the first `next()`). */
export type Opener<T> = () => { call: Call; source: Promise<Source<T>> };

type Result<T> = IteratorResult<T, undefined>;
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The one owner of a stream's life: the iterator a streaming task returns. Nothing runs until the
 * first `next()`; overlapping `next()` calls are answered in order, each behind the last one still
 * unanswered; the end, an error, `return()` (a `break`) or `throw()` close the source and end the
 * call here and nowhere else. `return()` cancels the request or the body at once, even while a
 * `next()` is pending, which a plain async generator cannot do.
 */
export class StreamIterator<T> implements AsyncGenerator<T, undefined, unknown> {
  private source: Source<T> | undefined;
  private opening: Promise<unknown> | undefined;
  private call: Call | undefined;
  private ended = false;
  /** The promise of the last `next()` still unanswered; `calls` numbers them, `readFor` is the one a pending read answers. */
  private tail: Promise<Result<T>> | undefined;
  private calls = 0;
  private readFor = 0;

  declare private readonly opener: Opener<T>;

  constructor(opener: Opener<T>) {
    this.opener = opener;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Hot path: a value already read is answered at once; else one read, whose callback answers. */
  next(): Promise<Result<T>> {
    if (this.tail === undefined && this.source !== undefined) {
      const value = this.source.poll();
      if (value !== undefined) return Promise.resolve({ done: false, value });
    }
    const id = ++this.calls;
    let result: Promise<Result<T>>;
    if (this.tail !== undefined) {
      const answer = (): Result<T> | Promise<Result<T>> => this.answer(id);
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

  return(): Promise<Result<T>> {
    this.stop();
    return Promise.resolve(DONE);
  }

  throw(error: unknown): Promise<Result<T>> {
    this.stop();
    return Promise.reject(error);
  }

  /** Answers call `id`: at once when a value, the failure or the end is known, else after one more read. */
  private answer(id: number): Result<T> | Promise<Result<T>> {
    const source = this.source;
    if (this.ended) return this.answered(id, DONE);
    if (source === undefined) {
      this.opening ??= this.open();
      return this.opening.then(() => this.answer(id));
    }
    const value = source.poll();
    if (value !== undefined) return this.answered(id, { done: false, value });
    if (source.ended) {
      const error = source.failure();
      this.end();
      this.answered(id, DONE);
      if (error) throw sealError(error, this.call?.secret);
      return DONE;
    }
    this.readFor = id;
    return source.pull(this.afterRead);
  }

  /** The read's callback, made once: calls are answered one at a time, so one read is pending at most. */
  private readonly afterRead = (): Result<T> | Promise<Result<T>> => this.answer(this.readFor);

  /** Call `id` is answered; when it was the last one waiting, the next call may take the hot path. */
  private answered(id: number, result: Result<T>): Result<T> {
    if (id === this.calls) this.tail = undefined;
    return result;
  }

  private open(): Promise<unknown> {
    try {
      const { call, source } = this.opener();
      this.call = call;
      return source.then(
        (s) => {
          this.source = s;
          if (this.ended) s.close();
        },
        (error: unknown) => {
          const stoppedByConsumer = this.ended;
          this.end();
          if (!stoppedByConsumer) throw error;
        },
      );
    } catch (error) {
      this.ended = true;
      return Promise.reject(error);
    }
  }

  /** The stream is over: the source closed, the call ended (every timer and listener cleared). */
  private end(): void {
    this.ended = true;
    this.source?.close();
    this.call?.finish();
  }

  private stop(): void {
    if (this.ended) return;
    if (this.source === undefined) this.call?.fail(new AbortError("The stream was closed by its consumer"));
    this.end();
  }
}

const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
if (asyncDispose) {
  Object.defineProperty(StreamIterator.prototype, asyncDispose, {
    value(this: StreamIterator<unknown>) {
      return this.return().then(() => undefined);
    },
  });
}
