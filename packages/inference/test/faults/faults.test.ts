/**
 * Fault injection through real loopback HTTP against @hfkit/mock-hub: one table, one row per fault.
 * Every row asserts the outcome (answer, or error class and fields), the requests the server saw,
 * the tokens delivered, that each announced wait was a timer of that delay which fired before the
 * next request, which limits fired (by the timeline of the SDK's and the hub's timers, never by a
 * clock: a loaded machine is slow, not wrong), and that no server stream is left open afterwards.
 */
import { startMockHub, type Fault, type FaultRule, type MockHub, type ModelConfig } from "@hfkit/mock-hub";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  AuthenticationError,
  type ChatCompletionArgs,
  type ChatCompletionStreamOutput,
  ConnectionError,
  type FetchLike,
  HttpError,
  IncompleteStreamError,
  InferenceClient,
  MalformedEventError,
  ModelLoadingError,
  NotFoundError,
  type Options,
  PermissionError,
  RateLimitError,
  type RetryEvent,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../../src/index";
import { COMPLETION_GRACE_MS } from "../../src/tasks/chatCompletionStream";
import {
  ANSWER,
  QUESTION,
  type Run,
  TOKENS,
  Timeline,
  closedPort,
  consume,
  expectWaitsKept,
  openStreamsAfter,
  recordTimers,
  recorder,
  requestsTo,
  turn,
  unresolvableHostFetch,
  until,
  withEventAfterFirst,
  within,
} from "./support";

type Stream = AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown>;
type ErrorClass = abstract new (...args: never[]) => Error;

interface Ctx {
  hub: MockHub;
  model: string;
  warnings: string[];
  retries: RetryEvent[];
  /** URLs the SDK's fetch was called with (tries, including those that never reached a server). */
  attempts: string[];
  controller: AbortController;
  /** The reason every caller abort uses; an AbortError must carry it as its cause. */
  reason: Error;
  /** The SDK's and the hub's timers, the SDK's fetch calls (`fetch`), `abort`, `return` and `settled`. */
  timeline: Timeline;
  /** The rules the row's faults were injected as. */
  rules: FaultRule[];
}

interface Expected {
  /** A completed answer with this text (its last chunk has a finish_reason). */
  text?: string;
  /** Else: the iteration throws this class... */
  error?: ErrorClass;
  /** ...with these fields. */
  fields?: Record<string, unknown>;
  message?: RegExp;
  /** Non-empty `delta.content` delivered before the end or the error. */
  tokens: string[];
  /** Chat requests the mock hub saw. */
  requests: number;
  /** Calls of fetch (default: `requests`). */
  attempts?: number;
}

interface Scenario {
  name: string;
  /** A fixed model id; default: a fresh id (the loading warning is once per model per process). */
  model?: string;
  config?: ModelConfig;
  faults?: Fault[] | ((model: string) => Fault[]);
  options?: Options;
  args?: Partial<ChatCompletionArgs>;
  baseUrl?: () => string | Promise<string>;
  /** Wraps the fetch the SDK gets (the global fetch, looked up at call time). */
  fetch?: (inner: FetchLike) => FetchLike;
  /** Pass `ctx.controller.signal` as the call's `signal`. */
  signal?: boolean;
  onRetry?: (event: RetryEvent, ctx: Ctx) => void;
  drive?: (stream: Stream, ctx: Ctx) => Promise<Run>;
  expect: Expected;
  check?: (run: Run, ctx: Ctx) => void;
}

// ---- drivers: how a row consumes its stream ------------------------------------------------------

const abort = (ctx: Ctx): void => {
  ctx.timeline.mark("abort");
  ctx.controller.abort(ctx.reason);
};

/** Aborts one turn after the timeline shows `pattern` (a timer the call is then waiting on). */
const abortWhen =
  (pattern: RegExp) =>
  (stream: Stream, ctx: Ctx): Promise<Run> => {
    void ctx.timeline
      .when(pattern)
      .then(turn)
      .then(() => abort(ctx));
    return consume(stream);
  };

/** Aborts after the first chunk, once the next `next()` is pending. */
const abortWhileReading = async (stream: Stream, ctx: Ctx): Promise<Run> => {
  const rec = recorder();
  try {
    for await (const chunk of stream) {
      rec.push(chunk);
      if (rec.chunks.length === 1) void turn().then(() => abort(ctx));
    }
  } catch (error) {
    return rec.settle(error);
  }
  return rec.settle(undefined);
};

const breakAfter =
  (n: number) =>
  async (stream: Stream): Promise<Run> => {
    const rec = recorder();
    for await (const chunk of stream) {
      rec.push(chunk);
      if (rec.chunks.length >= n) break;
    }
    return rec.settle(undefined);
  };

class ConsumerGaveUp extends Error {
  override name = "ConsumerGaveUp";
}

const throwAfter =
  (n: number) =>
  async (stream: Stream): Promise<Run> => {
    const rec = recorder();
    try {
      for await (const chunk of stream) {
        rec.push(chunk);
        if (rec.chunks.length >= n) throw new ConsumerGaveUp("the consumer gave up");
      }
    } catch (error) {
      return rec.settle(error);
    }
    return rec.settle(undefined);
  };

/**
 * Reads `n` chunks, starts one more `next()`, and once it is pending (held by `heldBy` on the timeline, or a
 * turn later) calls `return()`: both must settle, the pending `next()` with `{done: true}`.
 */
const returnWhileNextPending =
  (n: number, heldBy?: RegExp) =>
  async (stream: Stream, ctx: Ctx): Promise<Run> => {
    const rec = recorder();
    for (let i = 0; i < n; i++) {
      const r = await stream.next();
      if (r.done) break;
      rec.push(r.value);
    }
    const pending = stream.next();
    await (heldBy ? ctx.timeline.when(heldBy).then(turn) : turn());
    ctx.timeline.mark("return");
    const [next, returned] = await within(
      Promise.all([pending, stream.return(undefined)]),
      undefined,
      "next() and return()",
    );
    expect(next).toEqual({ done: true, value: undefined });
    expect(returned).toEqual({ done: true, value: undefined });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    return rec.settle(undefined);
  };

/** Ends the loading fault once the hub holds the retry (x-wait-for-model): the answer must follow. */
const loadWhenRetryHeld = async (stream: Stream, ctx: Ctx): Promise<Run> => {
  const run = consume(stream);
  await until(() => requestsTo(ctx.hub, ctx.model).length === 2, "the retry");
  await turn();
  ctx.timeline.mark("loaded");
  for (const rule of ctx.rules) rule.remove();
  return run;
};

// ---- checks shared by rows ---------------------------------------------------------------------

/** `n` loading waits: x-wait-for-model on every retry, one warning, one onRetry event per wait of at least `minDelayMs`. */
const loadingChecks =
  (n: number, estimatedTime: number, minDelayMs = estimatedTime * 1000) =>
  (_run: Run, ctx: Ctx): void => {
    const seen = requestsTo(ctx.hub, ctx.model);
    expect(seen[0]?.headers["x-wait-for-model"]).toBeUndefined();
    for (const r of seen.slice(1)) expect(r.headers["x-wait-for-model"]).toBe("true");
    expect(ctx.warnings).toHaveLength(1);
    expect(ctx.warnings[0]).toMatch(/loading/);
    expect(ctx.warnings[0]).toContain(ctx.model);
    expect(ctx.retries).toHaveLength(n);
    ctx.retries.forEach((event, i) => {
      expect(event).toMatchObject({ attempt: i + 2, status: 503, reason: "loading", estimatedTime });
      expect(event.delayMs).toBeGreaterThanOrEqual(minDelayMs);
    });
  };

/** The retries made; a server's wait is a minimum (`minDelays`); a backoff is full-jitter, at most its window (`maxDelays`). */
const retryChecks =
  (events: Array<Partial<RetryEvent>>, minDelays: number[] = [], maxDelays: number[] = []) =>
  (_run: Run, ctx: Ctx): void => {
    expect(ctx.retries).toHaveLength(events.length);
    events.forEach((event, i) => expect(ctx.retries[i]).toMatchObject(event));
    minDelays.forEach((min, i) => expect(ctx.retries[i]?.delayMs).toBeGreaterThanOrEqual(min));
    maxDelays.forEach((max, i) => expect(ctx.retries[i]?.delayMs).toBeLessThanOrEqual(max));
    expect(ctx.warnings).toEqual([]);
  };

const noRetry = (_run: Run, ctx: Ctx): void => {
  expect(ctx.retries).toEqual([]);
};

/** The SDK's timers that fired, other than its announced waits. */
const limitsFired = (ctx: Ctx): number[] => {
  const waits = new Set(ctx.retries.map((event) => event.delayMs));
  return ctx.timeline.firedBySdk().filter((ms) => !waits.has(ms));
};

/** Settled without waiting on anything: no limit or grace of the SDK fired. */
const atOnce = (_run: Run, ctx: Ctx): void => {
  expect(limitsFired(ctx), "SDK timers that fired").toEqual([]);
};

/** The call ended by its timer of `ms` (a limit or a grace): the first of the SDK's to fire, none longer. */
const endedByTimer =
  (ms: number) =>
  (_run: Run, ctx: Ctx): void => {
    const fired = limitsFired(ctx);
    expect(fired[0], "the first SDK timer to fire").toBe(ms);
    for (const other of fired) expect(other).toBeLessThanOrEqual(ms);
  };

/** Nothing the SDK or the hub had scheduled fired between `mark` and the settlement. */
const settledAtOnceAfter =
  (mark: string) =>
  (_run: Run, ctx: Ctx): void => {
    expect(ctx.timeline.entries).toContain(mark);
    expect(
      ctx.timeline.between(mark, "settled").filter((e) => e.includes(" fired ")),
      `timers fired after ${mark}`,
    ).toEqual([]);
  };

/** Aborted with the signal's reason, at once. */
const abortChecks = (run: Run, ctx: Ctx): void => {
  expect((run.error as AbortError).cause).toBe(ctx.reason);
  settledAtOnceAfter("abort")(run, ctx);
};

/** Aborted while the one announced wait was pending: its timer was set before the abort and never fired. */
const abortedDuringWait = (run: Run, ctx: Ctx): void => {
  abortChecks(run, ctx);
  expect(ctx.retries).toHaveLength(1);
  const { entries } = ctx.timeline;
  const delay = ctx.retries[0]?.delayMs;
  expect(entries.indexOf(`sdk set ${delay}`), "the wait began before the abort").toBeGreaterThanOrEqual(0);
  expect(entries.indexOf(`sdk set ${delay}`)).toBeLessThan(entries.indexOf("abort"));
  expect(entries).not.toContain(`sdk fired ${delay}`);
};

const all =
  (...checks: Array<(run: Run, ctx: Ctx) => void>) =>
  (run: Run, ctx: Ctx): void => {
    for (const check of checks) check(run, ctx);
  };

const loadingBody = (model: string, estimatedTime: number): string =>
  JSON.stringify({ error: `Model ${model} is currently loading`, estimated_time: estimatedTime });

const OVERLOADED_EVENT = `data: ${JSON.stringify({ error: { message: "Model is overloaded", http_status_code: 429 } })}\n\n`;

// ---- the table -----------------------------------------------------------------------------------

const scenarios: Scenario[] = [
  // 503 model loading (durationMs Infinity: loading lasts until its 503s are sent, however late the client comes)
  {
    name: "503 loading (estimated_time 0.2 s) once → waits (at the 1 s floor), retries with x-wait-for-model, answers",
    faults: [{ type: "loading", estimatedTime: 0.2, durationMs: Infinity, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2 },
    check: loadingChecks(1, 0.2, 1000),
  },
  {
    name: "503 loading, then the retry is held by x-wait-for-model until the model is up",
    faults: [{ type: "loading", estimatedTime: 0.2, durationMs: Infinity }],
    drive: loadWhenRetryHeld,
    expect: { text: ANSWER, tokens: TOKENS, requests: 2 },
    check: loadingChecks(1, 0.2),
  },
  {
    name: "503 loading 3 times (more than maxRetries), estimate 0.1 s → waits each time at the 1 s floor, warns once, answers",
    faults: (model) => [
      { type: "serverError", status: 503, body: loadingBody(model, 0.1), contentType: "application/json", times: 3 },
    ],
    expect: { text: ANSWER, tokens: TOKENS, requests: 4 },
    check: loadingChecks(3, 0.1, 1000),
  },
  {
    name: "503 loading whose estimate passes `timeout` → ModelLoadingError at once",
    faults: [{ type: "loading", estimatedTime: 30, durationMs: Infinity, times: 1 }],
    options: { timeout: 3000 },
    expect: { error: ModelLoadingError, fields: { status: 503, estimatedTime: 30 }, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "503 loading whose estimate passes `firstChunkTimeout` → ModelLoadingError at once",
    faults: [{ type: "loading", estimatedTime: 30, durationMs: Infinity, times: 1 }],
    options: { firstChunkTimeout: 3000 },
    expect: { error: ModelLoadingError, fields: { status: 503, estimatedTime: 30 }, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "503 loading with retry_on_error: false → the 503 at once",
    faults: [{ type: "loading", estimatedTime: 0.2, durationMs: Infinity, times: 1 }],
    options: { retry_on_error: false },
    expect: { error: ModelLoadingError, fields: { status: 503, estimatedTime: 0.2 }, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },

  // 429
  {
    name: "429 with retry-after: 1 → waits at least 1 s, then answers",
    faults: [{ type: "rateLimit", retryAfter: 1, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2 },
    check: retryChecks([{ attempt: 2, status: 429, reason: "rate-limit" }], [1000]),
  },
  {
    name: "429 with retry-after-ms: 700 → waits at least 700 ms, then answers",
    faults: [{ type: "rateLimit", retryAfterMs: 700, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2 },
    check: retryChecks([{ attempt: 2, status: 429, reason: "rate-limit" }], [700]),
  },
  {
    name: "429 with a retry-after past `timeout` → RateLimitError at once",
    faults: [{ type: "rateLimit", retryAfter: 30, times: 1 }],
    options: { timeout: 3000 },
    expect: { error: RateLimitError, fields: { status: 429 }, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "429 with a retry-after-ms past `firstChunkTimeout` → RateLimitError at once",
    faults: [{ type: "rateLimit", retryAfterMs: 20_000, times: 1 }],
    options: { firstChunkTimeout: 3000 },
    expect: { error: RateLimitError, fields: { status: 429 }, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },

  // 5xx
  {
    name: "502 once → backoff (full jitter, ≤ 0.5 s), then answers",
    faults: [{ type: "serverError", status: 502, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2 },
    check: retryChecks([{ attempt: 2, status: 502, reason: "server-error" }], [], [500]),
  },
  {
    name: "503 without estimated_time on every try (a 5xx) → ServerError after maxRetries+1 requests",
    faults: [{ type: "serverError", status: 503 }],
    expect: { error: ServerError, fields: { status: 503 }, tokens: [], requests: 3 },
    check: retryChecks(
      [
        { attempt: 2, status: 503, reason: "server-error" },
        { attempt: 3, status: 503, reason: "server-error" },
      ],
      [],
      [500, 1000],
    ),
  },
  {
    name: "500 with maxRetries: 0 → ServerError at once, one request",
    faults: [{ type: "serverError", status: 500 }],
    options: { maxRetries: 0 },
    expect: { error: ServerError, fields: { status: 500 }, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },

  // final answers: never retried
  {
    name: "401 → AuthenticationError, one request",
    faults: [{ type: "unauthorized" }],
    expect: { error: AuthenticationError, fields: { status: 401 }, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "403 too large → PermissionError that says so, one request",
    faults: [{ type: "tooLarge" }],
    expect: {
      error: PermissionError,
      fields: { status: 403 },
      message: /too large[\s\S]*Inference Endpoint/,
      tokens: [],
      requests: 1,
    },
    check: all(noRetry, atOnce),
  },
  {
    name: "404 model does not exist → NotFoundError, one request",
    model: "faults/does-not-exist-404",
    expect: { error: NotFoundError, fields: { status: 404 }, message: /does not exist/, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "422 template error → ValidationError, one request",
    config: { chatTemplate: false },
    expect: { error: ValidationError, fields: { status: 422 }, message: /Template error/, tokens: [], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "in-stream validation error before any chunk (TGI 2.1: no [DONE]) → ValidationError, one request",
    config: { tgiVersion: "2.1.1" },
    args: { max_tokens: 5000 },
    expect: {
      error: ValidationError,
      fields: { status: 422 },
      message: /Input validation error/,
      tokens: [],
      requests: 1,
    },
    check: all(noRetry, atOnce),
  },

  // errors inside a 200 stream
  {
    name: "in-stream 'Model is overloaded' before any chunk → retried, then answers",
    faults: [{ type: "overloadedInStream", times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2 },
    check: retryChecks([{ attempt: 2, status: 429 }], [], [500]),
  },
  {
    name: "connection dropped before any chunk → retried, then answers",
    faults: [{ type: "drop", afterChunks: 0, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2 },
    check: retryChecks([{ attempt: 2, reason: "connection" }], [], [500]),
  },
  {
    name: "in-stream 'Model is overloaded' after a chunk → RateLimitError, not retried, the chunk kept",
    fetch: (inner) => withEventAfterFirst(inner, OVERLOADED_EVENT),
    expect: { error: RateLimitError, fields: { status: 429 }, message: /overloaded/, tokens: ["The"], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "malformed event after 2 chunks → MalformedEventError, not retried, the chunks kept",
    faults: [{ type: "malformed", afterChunks: 2 }],
    expect: { error: MalformedEventError, tokens: ["The", " capital"], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "abort during the backoff that follows an in-stream overload → AbortError at once, no retry",
    faults: [{ type: "overloadedInStream", times: 1 }],
    signal: true,
    // Aborted as soon as the wait has begun (onRetry comes just before it): a full-jitter wait may be a few ms.
    onRetry: (_event, ctx) => queueMicrotask(() => abort(ctx)),
    expect: { error: AbortError, tokens: [], requests: 1 },
    check: abortedDuringWait,
  },
  {
    name: "`timeout` while the retry after an in-stream overload waits for headers → TimeoutError deadline",
    faults: [{ type: "overloadedInStream", times: 1 }],
    options: { timeout: 1500 },
    // The retry (second request) is held 5 s before its headers.
    onRetry: (_event, ctx) =>
      void ctx.hub.inject({ type: "headersDelay", delayMs: 5000 }, { model: ctx.model, times: 1 }),
    expect: { error: TimeoutError, fields: { kind: "deadline", timeoutMs: 1500 }, tokens: [], requests: 2 },
    check: endedByTimer(1500),
  },

  // time limits
  {
    name: "stall after 2 chunks → TimeoutError idle, the chunks kept",
    faults: [{ type: "stall", afterChunks: 2 }],
    options: { idleTimeout: 300 },
    expect: { error: TimeoutError, fields: { kind: "idle", timeoutMs: 300 }, tokens: ["The", " capital"], requests: 1 },
    check: all(noRetry, endedByTimer(300)),
  },
  {
    name: "headers delayed 5 s, firstChunkTimeout 300 ms → TimeoutError first-chunk",
    faults: [{ type: "headersDelay", delayMs: 5000 }],
    options: { firstChunkTimeout: 300 },
    expect: { error: TimeoutError, fields: { kind: "first-chunk", timeoutMs: 300 }, tokens: [], requests: 1 },
    check: all(noRetry, endedByTimer(300), settledAtOnceAfter("sdk fired 300")),
  },
  // (keep-alives against idleTimeout, waits longer than it, slow consumers: limits.test.ts, on a fake clock)
  {
    name: "keep-alive comments every 50 ms during a slow stream (500 ms/event) → skipped, the answer completes",
    faults: [
      { type: "slow", delayMs: 500 },
      { type: "keepAlive", intervalMs: 50 },
    ],
    args: { max_tokens: 3 },
    expect: { text: "The capital of", tokens: ["The", " capital", " of"], requests: 1 },
    check: noRetry,
  },
  {
    name: "a slow stream (500 ms/event) with idleTimeout 250 ms → TimeoutError idle, the first chunk kept",
    faults: [{ type: "slow", delayMs: 500 }],
    args: { max_tokens: 3 },
    options: { idleTimeout: 250 },
    expect: { error: TimeoutError, fields: { kind: "idle", timeoutMs: 250 }, tokens: ["The"], requests: 1 },
    check: all(noRetry, endedByTimer(250)),
  },
  {
    name: "`timeout` 750 ms during a slow stream (500 ms/event) → TimeoutError deadline, the chunks kept",
    faults: [{ type: "slow", delayMs: 500 }],
    options: { timeout: 750 },
    expect: {
      error: TimeoutError,
      fields: { kind: "deadline", timeoutMs: 750 },
      tokens: ["The", " capital"],
      requests: 1,
    },
    check: all(noRetry, endedByTimer(750)),
  },

  // how the body ends
  {
    // Slow, so the chunks are read before the reset (a reset errors undici's body and drops what it queued).
    name: "drop after 2 chunks → ConnectionError, not retried, the chunks kept",
    faults: [
      { type: "slow", delayMs: 100 },
      { type: "drop", afterChunks: 2 },
    ],
    expect: { error: ConnectionError, tokens: ["The", " capital"], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "truncate after 3 chunks → IncompleteStreamError, the chunks kept",
    faults: [{ type: "truncate", afterChunks: 3 }],
    expect: { error: IncompleteStreamError, tokens: ["The", " capital", " of"], requests: 1 },
    check: all(noRetry, atOnce),
  },
  {
    name: "linger after [DONE] (TGI 3.2) → completes at [DONE], the socket released",
    faults: [{ type: "linger" }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 1 },
    check: atOnce,
  },
  {
    name: "linger without [DONE] (TGI 2.0) → completes after a short grace, the socket released",
    config: { tgiVersion: "2.0.2" },
    faults: [{ type: "linger" }],
    args: { max_tokens: 6 },
    expect: { text: ANSWER, tokens: TOKENS, requests: 1 },
    check: endedByTimer(COMPLETION_GRACE_MS),
  },

  // no server at all
  {
    name: "connection refused → ConnectionError after maxRetries+1 tries",
    baseUrl: async () => `http://127.0.0.1:${await closedPort()}`,
    expect: { error: ConnectionError, message: /127\.0\.0\.1:\d+.*ECONNREFUSED/, tokens: [], requests: 0, attempts: 3 },
    check: all(
      retryChecks(
        [
          { attempt: 2, reason: "connection", status: undefined },
          { attempt: 3, reason: "connection", status: undefined },
        ],
        [],
        [500, 1000],
      ),
      (run) => expect((run.error as ConnectionError).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/models\//),
    ),
  },
  {
    name: "DNS failure (ENOTFOUND, a .invalid host; nothing leaves the process) → ConnectionError after maxRetries+1 tries",
    baseUrl: () => "http://hfkit-hub.invalid",
    fetch: () => unresolvableHostFetch,
    options: { maxRetries: 1 },
    expect: { error: ConnectionError, message: /hfkit-hub\.invalid.*ENOTFOUND/, tokens: [], requests: 0, attempts: 2 },
    check: all(retryChecks([{ attempt: 2, reason: "connection" }], [], [500]), (_run, ctx) => {
      for (const url of ctx.attempts) expect(url.startsWith("http://hfkit-hub.invalid/")).toBe(true);
    }),
  },

  // the caller leaves
  {
    // A 429 announcing 2 s, aborted a turn after the wait began: the wait's timer must never fire.
    name: "abort during a backoff wait (429, retry-after-ms 2000) → AbortError at once, cause = the signal's reason",
    faults: [{ type: "rateLimit", retryAfterMs: 2000, times: 1 }],
    signal: true,
    onRetry: (_event, ctx) => void turn().then(() => abort(ctx)),
    expect: { error: AbortError, tokens: [], requests: 1 },
    check: abortedDuringWait,
  },
  {
    name: "abort while waiting for headers (delayed 5 s) → AbortError at once",
    faults: [{ type: "headersDelay", delayMs: 5000 }],
    signal: true,
    drive: abortWhen(/^hub set 5000$/),
    expect: { error: AbortError, tokens: [], requests: 1 },
    check: all(abortChecks, noRetry),
  },
  {
    name: "abort mid-body while a next() is pending (1 s between events) → AbortError at once, the chunk kept",
    faults: [{ type: "slow", delayMs: 1000 }],
    signal: true,
    drive: abortWhileReading,
    expect: { error: AbortError, tokens: ["The"], requests: 1 },
    check: all(abortChecks, noRetry),
  },
  {
    name: "break out of for-await mid-stream (server stalls after 3) → the server sees the connection close",
    faults: [{ type: "stall", afterChunks: 3 }],
    drive: breakAfter(2),
    expect: { tokens: ["The", " capital"], requests: 1 },
  },
  {
    name: "a throw in the for-await body (server stalls after 3) → that error, the body cancelled",
    faults: [{ type: "stall", afterChunks: 3 }],
    drive: throwAfter(1),
    expect: { error: ConsumerGaveUp, tokens: ["The"], requests: 1 },
  },
  {
    name: "return() while a next() is pending on a stalled stream → both settle at once, the socket released",
    faults: [{ type: "stall", afterChunks: 1 }],
    drive: returnWhileNextPending(1),
    expect: { tokens: ["The"], requests: 1 },
    check: settledAtOnceAfter("return"),
  },
  {
    name: "return() while the request waits for headers (delayed 5 s) → both settle at once",
    faults: [{ type: "headersDelay", delayMs: 5000 }],
    drive: returnWhileNextPending(0, /^hub set 5000$/),
    expect: { tokens: [], requests: 1 },
    check: settledAtOnceAfter("return"),
  },
];

// ---- the runner ----------------------------------------------------------------------------------

describe("fault injection through loopback HTTP (@hfkit/mock-hub)", () => {
  let hub: MockHub;
  let fresh = 0;
  let timeline: Timeline;

  beforeEach(async () => {
    hub = await startMockHub();
    timeline = new Timeline();
    recordTimers(timeline);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await hub.close();
  });

  it.each(scenarios)(
    "$name",
    async (s) => {
      const model = s.model ?? `faults/model-${++fresh}-${process.pid}`;
      if (s.config) hub.setModel(model, s.config);
      const faults = typeof s.faults === "function" ? s.faults(model) : (s.faults ?? []);
      const rules = faults.map((fault) => hub.inject(fault, { model }));

      const ctx: Ctx = {
        hub,
        model,
        warnings: [],
        retries: [],
        attempts: [],
        controller: new AbortController(),
        reason: new Error("the user pressed stop"),
        timeline,
        rules,
      };
      const globalFetch: FetchLike = (input, init) => fetch(input, init);
      const inner = s.fetch ? s.fetch(globalFetch) : globalFetch;
      const client = new InferenceClient("hf_fault_suite", {
        baseUrl: s.baseUrl ? await s.baseUrl() : hub.url,
        fetch: (input, init) => {
          ctx.attempts.push(input);
          timeline.mark("fetch");
          return inner(input, init);
        },
        logger: { warn: (message) => void ctx.warnings.push(message) },
        onRetry: (event) => {
          ctx.retries.push(event);
          s.onRetry?.(event, ctx);
        },
      });

      const stream = client.chatCompletionStream(
        { model, messages: QUESTION, ...s.args },
        { ...s.options, ...(s.signal ? { signal: ctx.controller.signal } : {}) },
      );
      const drive = s.drive ?? ((st: Stream) => consume(st));
      const run = await within(drive(stream, ctx), undefined, s.name);
      timeline.mark("settled");
      const openStreams = await openStreamsAfter(hub);
      const seen = requestsTo(hub, model);

      // the outcome
      if (s.expect.error) {
        expect(run.error).toBeInstanceOf(s.expect.error);
        if (s.expect.fields) expect(run.error).toMatchObject(s.expect.fields);
        if (s.expect.message) expect((run.error as Error).message).toMatch(s.expect.message);
        if (run.error instanceof HttpError) {
          expect(run.error.requestId).toBe(seen.at(-1)?.requestId);
          expect(run.error.httpResponse.requestId).toBe(seen.at(-1)?.requestId);
        }
      } else {
        expect(run.error).toBeUndefined();
        if (s.expect.text !== undefined) {
          expect(run.tokens.join("")).toBe(s.expect.text);
          expect(run.chunks.at(-1)?.choices[0]?.finish_reason).toBeTruthy();
        }
      }
      // the tokens delivered (before any error), never twice
      expect(run.tokens).toEqual(s.expect.tokens);
      // the requests the server saw, and the tries
      expect(seen).toHaveLength(s.expect.requests);
      expect(ctx.attempts).toHaveLength(s.expect.attempts ?? s.expect.requests);
      // every wait the client announced (onRetry) was a timer of that delay, which fired before the next try
      expectWaitsKept(
        timeline,
        ctx.retries.map((event) => event.delayMs),
      );
      // no server stream left open
      expect(openStreams).toBe(0);
      s.check?.(run, ctx);
    },
    30_000,
  );
});
