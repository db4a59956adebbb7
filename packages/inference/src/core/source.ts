import type { InferenceError } from "./errors";

export const noop = (): void => {};

/** What a kind of stream (chat chunks, generate events) says about its own events. */
export interface StreamRules<T> {
  /**
   * The value to yield for one parsed event, or undefined to yield nothing (a keep-alive such as `{}`: no data).
   * `text` is the event's data as sent when it came on one line (what `event` was parsed from).
   */
  accept(event: Record<string, unknown>, text?: string): T | undefined;
  /**
   * Undefined while the answer is incomplete; once complete, how long to keep reading for stragglers
   * (a usage chunk) before completing: 0 completes at once.
   */
  graceAfterComplete(): number | undefined;
  /** The values of a whole answer sent as a bare JSON body under an event-stream type (throws for an error body). */
  whole(body: unknown, text: string): T[];
  /** The error body an event stands for, when an event of this kind of stream is an error without an `error` field (a Responses `response.failed`). */
  failure?(event: Record<string, unknown>): unknown;
}

/**
 * Values read and not yet taken, and the one way to read more: what the stream iterator pulls from
 * (an event stream, or an answer already in memory). It keeps no order of callers: the iterator does.
 */
export interface Source<T> {
  /** A value already read, or undefined. */
  poll(): T | undefined;
  /** True once nothing more will come: then `failure()` says whether it ended in an error. */
  readonly ended: boolean;
  /** The error that ended the stream, if any. */
  failure(): InferenceError | undefined;
  /** Reads once more, then answers `then()`; only called when `poll()` is empty and not `ended`. */
  pull<R>(then: () => R | Promise<R>): Promise<R>;
  /** Stops: cancels the body and ends its request; idempotent. */
  close(): void;
}

/** A source over values already in memory (a whole answer yielded as a stream). */
export function arraySource<T>(values: T[]): Source<T> {
  let i = 0;
  return {
    poll: () => (i < values.length ? values[i++] : undefined),
    get ended() {
      return i >= values.length;
    },
    failure: () => undefined,
    pull: (then) => Promise.resolve().then(then),
    close: () => void (i = values.length),
  };
}
