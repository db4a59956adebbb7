import { AbortError, ConnectionError, InferenceError, TimeoutError } from "../errors";

export interface CallLimits {
  /** Whole call, ms; undefined: none. */
  timeout?: number;
  /** Until the first byte of the answer, ms. */
  firstChunkTimeout: number;
  /** Longest silence between bytes of an event-stream body, ms. */
  idleTimeout: number;
  signal?: AbortSignal;
}

type Timer = ReturnType<typeof setTimeout>;

/** Node's timers keep the process alive; watchdogs must not (the socket already does). */
function unref(t: Timer): Timer {
  (t as { unref?: () => void }).unref?.();
  return t;
}

const now = (): number => Date.now();

/**
 * One call's clock and kill switch: a deadline, a first-chunk limit and an idle watchdog, all
 * ending in `fail(error)`, which aborts every request of the call with the typed error the caller sees.
 */
export class Call {
  failure: InferenceError | undefined;
  readonly startedAt = now();
  private readonly limits: CallLimits;
  private deadlineTimer: Timer | undefined;
  private firstChunkTimer: Timer | undefined;
  private idleTimer: Timer | undefined;
  private lastActivity = 0;
  private waitingForBytes = false;
  /** Bumped whenever a watchdog is stopped, so a stale one never fires or reschedules. */
  private idleGeneration = 0;
  private firstByteSeen = false;
  private readonly cancelHooks = new Set<(reason: unknown) => void>();
  private readonly onCallerAbort = (): void => this.fail(callerAbort(this.limits.signal));

  constructor(limits: CallLimits) {
    this.limits = limits;
    const { timeout, firstChunkTimeout, signal } = limits;
    if (signal?.aborted) {
      this.fail(callerAbort(signal));
      return;
    }
    signal?.addEventListener("abort", this.onCallerAbort, { once: true });
    if (timeout !== undefined && Number.isFinite(timeout)) {
      this.deadlineTimer = unref(setTimeout(() => this.fail(new TimeoutError("deadline", timeout)), timeout));
    }
    if (Number.isFinite(firstChunkTimeout)) {
      this.firstChunkTimer = unref(
        setTimeout(() => this.fail(new TimeoutError("first-chunk", firstChunkTimeout)), firstChunkTimeout),
      );
    }
  }

  /** Ends the call with `error` (first failure wins): aborts the fetch and cancels any body. */
  fail(error: InferenceError): void {
    if (this.failure) return;
    this.failure = error;
    for (const hook of this.cancelHooks) hook(error);
    this.finish();
  }

  /** Throws the failure, if any. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /** Registers what must be cancelled if the call fails (a body reader). */
  onCancel(hook: (reason: unknown) => void): () => void {
    this.cancelHooks.add(hook);
    return () => this.cancelHooks.delete(hook);
  }

  /** The answer's first byte arrived: the first-chunk limit is met. */
  firstByte(): void {
    if (this.firstByteSeen) return;
    this.firstByteSeen = true;
    if (this.firstChunkTimer !== undefined) clearTimeout(this.firstChunkTimer);
    this.firstChunkTimer = undefined;
  }

  /** A body read starts: silence counts from now (a slow consumer is not an idle server). */
  reading(): void {
    this.waitingForBytes = true;
    this.lastActivity = now();
  }

  /** Bytes arrived: no clock read and no timer churn (the next `reading()` restarts the silence). */
  touch(): void {
    this.waitingForBytes = false;
  }

  /** A signal for one request: aborted when the call fails, or by its owner once its body is done with. */
  attempt(): AbortController {
    const controller = new AbortController();
    if (this.failure) controller.abort(this.failure);
    else {
      const off = this.onCancel((reason) => controller.abort(reason));
      controller.signal.addEventListener("abort", off, { once: true });
    }
    return controller;
  }

  /** Starts the idle watchdog for an event-stream body. */
  watchIdle(): void {
    this.stopIdle();
    const limit = this.limits.idleTimeout;
    if (!Number.isFinite(limit) || this.failure) return;
    this.lastActivity = now();
    const generation = this.idleGeneration;
    const check = (): void => {
      if (generation !== this.idleGeneration) return;
      const silent = this.waitingForBytes ? now() - this.lastActivity : 0;
      if (silent >= limit) this.fail(new TimeoutError("idle", limit));
      else this.idleTimer = unref(setTimeout(check, limit - silent));
    };
    this.idleTimer = unref(setTimeout(check, limit));
  }

  /** The body is done with, or the answer complete: silence is no longer an error. */
  stopIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.idleGeneration++;
    this.waitingForBytes = false;
  }

  get idleTimeout(): number {
    return this.limits.idleTimeout;
  }

  /** Milliseconds until the nearest limit (deadline or first-chunk), Infinity when none. */
  remaining(): number {
    const t = now();
    let left = Infinity;
    if (this.limits.timeout !== undefined) left = this.startedAt + this.limits.timeout - t;
    if (!this.firstByteSeen) left = Math.min(left, this.startedAt + this.limits.firstChunkTimeout - t);
    return left;
  }

  /** Waits `ms`, or rejects with the failure as soon as the call fails. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const off = this.onCancel((reason) => {
        clearTimeout(timer);
        reject(reason);
      });
      const timer = setTimeout(() => {
        off();
        resolve();
      }, ms);
    });
  }

  /** Waits for `promise`, or rejects with the failure as soon as the call fails. */
  until<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const off = this.onCancel(reject);
      promise.then(
        (v) => (off(), resolve(v)),
        (e: unknown) => (off(), reject(e)),
      );
    });
  }

  /** Turns what fetch or a body read threw into the error the caller must see. */
  translate(error: unknown): InferenceError {
    if (this.failure) return this.failure;
    if (error instanceof InferenceError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
    const detail = cause?.code ?? cause?.message;
    return new ConnectionError(`Connection failed: ${message}${detail ? ` (${detail})` : ""}`, { cause: error });
  }

  /** Clears every timer and listener. Idempotent. */
  finish(): void {
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.firstChunkTimer);
    this.stopIdle();
    this.deadlineTimer = this.firstChunkTimer = undefined;
    this.limits.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}

function callerAbort(signal: AbortSignal | undefined): AbortError {
  return new AbortError("The call was aborted by its signal", { cause: signal?.reason });
}
