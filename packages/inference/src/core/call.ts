import { AbortError, ConnectionError, InferenceError, TimeoutError } from "./errors";
import { redactError, redactText, redactUrl } from "./redact";

export interface CallLimits {
  /** Whole call, ms; undefined or Infinity: none. */
  timeout?: number;
  /** Until the first data of the answer, ms (Infinity: none). */
  firstChunkTimeout: number;
  /** Longest silence between bytes of a body, ms (Infinity: none). */
  idleTimeout: number;
  /** Longest time without data (keep-alives do not count), ms (Infinity: none). */
  stallTimeout: number;
  signal?: AbortSignal;
}

type Timer = ReturnType<typeof setTimeout>;

/** The longest delay a timer holds (2^31 - 1 ms, 24.8 days); a longer one fires at once in every runtime. */
export const MAX_TIMER_MS = 2_147_483_647;

/** `ms` as a timer can hold it: Infinity stays (no limit), anything longer than a timer holds is held as its maximum. */
export function holdable(ms: number): number {
  return ms === Infinity ? ms : Math.min(Math.max(ms, 0), MAX_TIMER_MS);
}

/** Node's timers keep the process alive; watchdogs must not (the socket already does). */
function unref(t: Timer): Timer {
  (t as { unref?: () => void }).unref?.();
  return t;
}

function startTimer(ms: number, fn: () => void): Timer {
  return unref(setTimeout(fn, holdable(ms)));
}

const now = (): number => Date.now();

/**
 * One call's clock and kill switch: a deadline, a first-chunk limit, and a body watchdog for silence
 * (idle) and for keep-alives without data (stall), all ending in `fail(error)`, which aborts every
 * request of the call with the typed error the caller sees. `secret` (the token) never leaves it.
 */
export class Call {
  failure: InferenceError | undefined;
  /** A loading wait happened: later requests ask the server to hold them until the model is loaded. */
  waitForModel = false;
  readonly startedAt = now();
  /** The access token, for redaction of what the servers and fetch say. */
  declare readonly secret: string | undefined;
  // Assigned first thing in the constructor: declared only, so that no bundle carries an empty field.
  declare private readonly limits: CallLimits;
  private deadlineTimer: Timer | undefined;
  private firstChunkTimer: Timer | undefined;
  private watchTimer: Timer | undefined;
  /** When the current wait for bytes began, and when the client last began waiting after data. */
  private lastActivity = 0;
  private lastData = 0;
  private waitingForBytes = false;
  /** Data arrived since the last `reading()`: that read restarts the stall clock (no clock read per event). */
  private dataSeen = false;
  /** Bumped whenever the watchdog is stopped, so a stale one never fires or reschedules. */
  private watchGeneration = 0;
  private firstDataSeen = false;
  private readonly cancelHooks = new Set<(reason: unknown) => void>();
  private readonly onCallerAbort = (): void => this.fail(callerAbort(this.limits.signal));

  constructor(limits: CallLimits, secret?: string) {
    this.secret = secret;
    this.limits = limits;
    const { timeout, firstChunkTimeout, signal } = limits;
    if (signal?.aborted) {
      this.fail(callerAbort(signal));
      return;
    }
    signal?.addEventListener("abort", this.onCallerAbort, { once: true });
    if (timeout !== undefined && timeout !== Infinity) {
      this.deadlineTimer = startTimer(timeout, () => this.fail(new TimeoutError("deadline", timeout)));
    }
    if (firstChunkTimeout !== Infinity) {
      this.firstChunkTimer = startTimer(firstChunkTimeout, () =>
        this.fail(new TimeoutError("first-chunk", firstChunkTimeout)),
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

  /** The answer's first data arrived (not a keep-alive): the first-chunk limit is met. */
  private firstData(): void {
    this.firstDataSeen = true;
    if (this.firstChunkTimer !== undefined) clearTimeout(this.firstChunkTimer);
    this.firstChunkTimer = undefined;
  }

  /** Data arrived (an event, or an answer's first non-blank bytes): meets the first-chunk limit and resets the stall clock. */
  data(): void {
    this.dataSeen = true;
    if (!this.firstDataSeen) this.firstData();
  }

  /** A body read starts: silence counts from now (a slow consumer is neither an idle nor a stalled server). */
  reading(): void {
    this.waitingForBytes = true;
    const t = now();
    this.lastActivity = t;
    if (this.dataSeen) {
      this.lastData = t;
      this.dataSeen = false;
    }
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

  /** Starts the body watchdog: idle (no byte) and stall (no data) while waiting for the server. */
  watchBody(): void {
    this.stopWatching();
    const { idleTimeout: idle, stallTimeout: stall } = this.limits;
    if ((idle === Infinity && stall === Infinity) || this.failure) return;
    this.lastActivity = this.lastData = now();
    const generation = this.watchGeneration;
    const check = (): void => {
      if (generation !== this.watchGeneration) return;
      const t = now();
      const silent = this.waitingForBytes ? t - this.lastActivity : 0;
      const dataless = this.waitingForBytes && !this.dataSeen ? t - this.lastData : 0;
      if (silent >= idle) return this.fail(new TimeoutError("idle", idle));
      if (dataless >= stall) return this.fail(new TimeoutError("stall", stall));
      this.watchTimer = startTimer(Math.min(idle - silent, stall - dataless), check);
    };
    this.watchTimer = startTimer(Math.min(idle, stall), check);
  }

  /** A request is sent after the answer's first data (a poll): its wait for a head is watched as a body's silence is. */
  awaitHead(): void {
    if (!this.firstDataSeen) return;
    this.watchBody();
    this.reading();
  }

  /** The body is done with, or the answer complete: silence is no longer an error. */
  stopWatching(): void {
    clearTimeout(this.watchTimer);
    this.watchTimer = undefined;
    this.watchGeneration++;
    this.waitingForBytes = false;
  }

  /** Milliseconds until the nearest limit (deadline or first-chunk), Infinity when none. */
  remaining(): number {
    const { timeout, firstChunkTimeout } = this.limits;
    const elapsed = now() - this.startedAt;
    // An Infinity limit less the time elapsed is still Infinity: no limit.
    const left = timeout === undefined ? Infinity : timeout - elapsed;
    return this.firstDataSeen ? left : Math.min(left, firstChunkTimeout - elapsed);
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
      }, holdable(ms));
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

  /** Turns what fetch or a body read threw into the error the caller must see (redacted: fetch errors quote URLs). */
  translate(error: unknown, url?: string): InferenceError {
    if (this.failure) return this.failure;
    if (error instanceof InferenceError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
    const detail = cause?.code ?? cause?.message;
    const safeUrl = url === undefined ? undefined : redactUrl(url);
    const to = safeUrl === undefined ? "" : ` to ${hostOf(safeUrl)}`;
    const text = redactText(`Connection${to} failed: ${message}${detail ? ` (${detail})` : ""}`, this.secret);
    return new ConnectionError(text, { cause: redactError(error, this.secret), url: safeUrl });
  }

  /** Clears every timer and listener. Idempotent. */
  finish(): void {
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.firstChunkTimer);
    this.stopWatching();
    this.deadlineTimer = this.firstChunkTimer = undefined;
    this.limits.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/** `host:port` of a URL, for messages; the URL itself when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function callerAbort(signal: AbortSignal | undefined): AbortError {
  return new AbortError("The call was aborted by its signal", { cause: signal?.reason });
}
