import { AbortError } from "../errors";
import type { Call } from "../transport/call";

/** Something that yields values and can be stopped at once. */
export interface Source<T> {
  next(): Promise<IteratorResult<T, undefined>>;
  cancel(): void;
}

/** A stream's start: throws synchronously on bad input (raised from the first `next()`). */
export type Opener<T> = () => { call: Call; source: Promise<Source<T>> };

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The iterator a streaming task returns. Nothing runs until the first `next()`; `return()` (a
 * `break`) cancels the request or the body at once, even while a `next()` is pending, which a
 * plain async generator cannot do (it queues `return()` behind the pending `next()`).
 */
export class StreamIterator<T> implements AsyncGenerator<T, undefined, unknown> {
  private source: Source<T> | undefined;
  private opening: Promise<Source<T>> | undefined;
  private call: Call | undefined;
  private ended = false;
  private pending: Promise<IteratorResult<T, undefined>> | undefined;

  constructor(private readonly opener: Opener<T>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.ended) return Promise.resolve(DONE);
    // Hot path: an open source serves overlapping calls in order and ends its call itself.
    if (this.source && !this.pending) return this.source.next();
    // Calls are served in order, as an async generator would; a for-await loop never overlaps them.
    const result = this.pending ? this.pending.then(() => this.step(), () => this.step()) : this.step();
    this.pending = result;
    const clear = (): void => {
      if (this.pending === result) this.pending = undefined;
    };
    result.then(clear, clear);
    return result;
  }

  return(): Promise<IteratorResult<T, undefined>> {
    this.stop();
    return Promise.resolve(DONE);
  }

  throw(error: unknown): Promise<IteratorResult<T, undefined>> {
    this.stop();
    return Promise.reject(error);
  }

  private step(): Promise<IteratorResult<T, undefined>> {
    if (this.ended) return Promise.resolve(DONE);
    if (this.source) return this.read(this.source);
    this.opening ??= this.open();
    return this.opening.then(
      (source) => (this.ended ? DONE : this.read(source)),
      (error: unknown) => this.end(error),
    );
  }

  private open(): Promise<Source<T>> {
    try {
      const { call, source } = this.opener();
      this.call = call;
      return source.then((s) => {
        this.source = s;
        if (this.ended) s.cancel();
        return s;
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private read(source: Source<T>): Promise<IteratorResult<T, undefined>> {
    return source.next().then(
      (r) => {
        if (r.done) {
          this.ended = true;
          this.call?.finish();
        }
        return r;
      },
      (error: unknown) => this.end(error),
    );
  }

  private end(error: unknown): IteratorResult<T, undefined> {
    const stoppedByConsumer = this.ended;
    this.ended = true;
    this.call?.finish();
    if (stoppedByConsumer) return DONE;
    throw error;
  }

  private stop(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.source) {
      this.source.cancel();
      this.call?.finish();
    } else this.call?.fail(new AbortError("The stream was closed by its consumer"));
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

/** A source over values already in memory (a JSON answer yielded as a stream). */
export function arraySource<T>(values: T[]): Source<T> {
  let i = 0;
  return {
    next: () => Promise.resolve(i < values.length ? { done: false, value: values[i++] as T } : DONE),
    cancel: () => {
      i = values.length;
    },
  };
}
