/**
 * Fault injection through real loopback HTTP against @hfkit/mock-hub: one table, one row per fault.
 * Every row asserts the outcome (answer, or error class and fields), the requests the server saw,
 * the tokens delivered, the elapsed time within generous bounds (hangs and missing waits, never
 * speed), and that no server stream is left open afterwards.
 */
import { startMockHub, type Fault, type MockHub, type ModelConfig } from "@hfkit/mock-hub";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
import {
  ANSWER,
  QUESTION,
  type Run,
  TOKENS,
  closedPort,
  consume,
  openStreamsAfter,
  recorder,
  requestsTo,
  sleep,
  unresolvableHostFetch,
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
  startedAt: number;
  /** When a driver aborted or returned, to check that the iteration settled promptly after it. */
  actedAt?: number;
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
  /** Minimum ms between consecutive requests the hub saw (the waits). */
  gaps?: number[];
  /** Elapsed ms from the call to the settlement: [at least, at most]. */
  ms: [number, number];
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

const abortAfter =
  (ms: number) =>
  async (stream: Stream, ctx: Ctx): Promise<Run> => {
    const timer = setTimeout(() => {
      ctx.actedAt = Date.now();
      ctx.controller.abort(ctx.reason);
    }, ms);
    try {
      return await consume(stream, ctx.startedAt);
    } finally {
      clearTimeout(timer);
    }
  };

/** Aborts `ms` after the first chunk, while the next `next()` is pending. */
const abortWhileReading =
  (ms: number) =>
  async (stream: Stream, ctx: Ctx): Promise<Run> => {
    const rec = recorder(ctx.startedAt);
    try {
      for await (const chunk of stream) {
        rec.push(chunk);
        if (rec.chunks.length === 1) {
          setTimeout(() => {
            ctx.actedAt = Date.now();
            ctx.controller.abort(ctx.reason);
          }, ms);
        }
      }
    } catch (error) {
      return rec.settle(error);
    }
    return rec.settle(undefined);
  };

const breakAfter =
  (n: number) =>
  async (stream: Stream, ctx: Ctx): Promise<Run> => {
    const rec = recorder(ctx.startedAt);
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
  async (stream: Stream, ctx: Ctx): Promise<Run> => {
    const rec = recorder(ctx.startedAt);
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
 * Reads `n` chunks, starts one more `next()`, and `waitMs` later calls `return()` while it is pending:
 * both must settle at once, the pending `next()` with `{done: true}`.
 */
const returnWhileNextPending =
  (n: number, waitMs: number) =>
  async (stream: Stream, ctx: Ctx): Promise<Run> => {
    const rec = recorder(ctx.startedAt);
    for (let i = 0; i < n; i++) {
      const r = await stream.next();
      if (r.done) break;
      rec.push(r.value);
    }
    const pending = stream.next();
    await sleep(waitMs);
    ctx.actedAt = Date.now();
    const [next, returned] = await within(Promise.all([pending, stream.return(undefined)]), 1500, "next() and return()");
    expect(next).toEqual({ done: true, value: undefined });
    expect(returned).toEqual({ done: true, value: undefined });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    return rec.settle(undefined);
  };

/** A consumer that spends `ms` on each chunk (rendering, a tool call) before asking for the next. */
const consumeSlowly =
  (ms: number) =>
  async (stream: Stream, ctx: Ctx): Promise<Run> => {
    const rec = recorder(ctx.startedAt);
    try {
      for await (const chunk of stream) {
        rec.push(chunk);
        await sleep(ms);
      }
    } catch (error) {
      return rec.settle(error);
    }
    return rec.settle(undefined);
  };

// ---- checks shared by rows ---------------------------------------------------------------------

/** `n` loading waits: x-wait-for-model on every retry, one warning, one onRetry event per wait. */
const loadingChecks =
  (n: number, estimatedTime: number) =>
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
      expect(event.delayMs).toBeGreaterThanOrEqual(estimatedTime * 1000);
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

const abortChecks =
  (promptMs: number) =>
  (run: Run, ctx: Ctx): void => {
    expect((run.error as AbortError).cause).toBe(ctx.reason);
    expect(ctx.actedAt).toBeDefined();
    expect(ctx.startedAt + run.elapsedMs - (ctx.actedAt ?? 0)).toBeLessThanOrEqual(promptMs);
  };

const settledPromptly =
  (promptMs: number) =>
  (run: Run, ctx: Ctx): void => {
    expect(ctx.actedAt).toBeDefined();
    expect(ctx.startedAt + run.elapsedMs - (ctx.actedAt ?? 0)).toBeLessThanOrEqual(promptMs);
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
  // 503 model loading
  {
    name: "503 loading (estimated_time 0.2 s) once → waits, retries with x-wait-for-model, answers",
    faults: [{ type: "loading", estimatedTime: 0.2, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, gaps: [200], ms: [200, 3000] },
    check: loadingChecks(1, 0.2),
  },
  {
    name: "503 loading, then the retry is held by x-wait-for-model until the model is up (0.6 s)",
    faults: [{ type: "loading", estimatedTime: 0.2, durationMs: 600 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, gaps: [200], ms: [600, 3000] },
    check: loadingChecks(1, 0.2),
  },
  {
    name: "503 loading 3 times (more than maxRetries), estimate 0.1 s → waits each time at the 1 s floor, warns once, answers",
    faults: (model) => [
      { type: "serverError", status: 503, body: loadingBody(model, 0.1), contentType: "application/json", times: 3 },
    ],
    expect: { text: ANSWER, tokens: TOKENS, requests: 4, gaps: [1000, 1000, 1000], ms: [3000, 7000] },
    check: loadingChecks(3, 0.1),
  },
  {
    name: "503 loading whose estimate passes `timeout` → ModelLoadingError at once",
    faults: [{ type: "loading", estimatedTime: 30, times: 1 }],
    options: { timeout: 3000 },
    expect: { error: ModelLoadingError, fields: { status: 503, estimatedTime: 30 }, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },
  {
    name: "503 loading whose estimate passes `firstChunkTimeout` → ModelLoadingError at once",
    faults: [{ type: "loading", estimatedTime: 30, times: 1 }],
    options: { firstChunkTimeout: 3000 },
    expect: { error: ModelLoadingError, fields: { status: 503, estimatedTime: 30 }, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },
  {
    name: "503 loading with retry_on_error: false → the 503 at once",
    faults: [{ type: "loading", estimatedTime: 0.2, times: 1 }],
    options: { retry_on_error: false },
    expect: { error: ModelLoadingError, fields: { status: 503, estimatedTime: 0.2 }, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },

  // 429
  {
    name: "429 with retry-after: 1 → waits at least 1 s, then answers",
    faults: [{ type: "rateLimit", retryAfter: 1, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, gaps: [1000], ms: [1000, 4000] },
    check: retryChecks([{ attempt: 2, status: 429, reason: "rate-limit" }], [1000]),
  },
  {
    name: "429 with retry-after-ms: 700 → waits at least 700 ms, then answers",
    faults: [{ type: "rateLimit", retryAfterMs: 700, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, gaps: [700], ms: [700, 3500] },
    check: retryChecks([{ attempt: 2, status: 429, reason: "rate-limit" }], [700]),
  },
  {
    name: "429 with a retry-after past `timeout` → RateLimitError at once",
    faults: [{ type: "rateLimit", retryAfter: 30, times: 1 }],
    options: { timeout: 3000 },
    expect: { error: RateLimitError, fields: { status: 429 }, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },
  {
    name: "429 with a retry-after-ms past `firstChunkTimeout` → RateLimitError at once",
    faults: [{ type: "rateLimit", retryAfterMs: 20_000, times: 1 }],
    options: { firstChunkTimeout: 3000 },
    expect: { error: RateLimitError, fields: { status: 429 }, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },

  // 5xx
  {
    name: "502 once → backoff (full jitter, ≤ 0.5 s), then answers",
    faults: [{ type: "serverError", status: 502, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, ms: [0, 3000] },
    check: retryChecks([{ attempt: 2, status: 502, reason: "server-error" }], [], [500]),
  },
  {
    name: "503 without estimated_time on every try (a 5xx) → ServerError after maxRetries+1 requests",
    faults: [{ type: "serverError", status: 503 }],
    expect: { error: ServerError, fields: { status: 503 }, tokens: [], requests: 3, ms: [0, 5000] },
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
    expect: { error: ServerError, fields: { status: 500 }, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },

  // final answers: never retried
  {
    name: "401 → AuthenticationError, one request",
    faults: [{ type: "unauthorized" }],
    expect: { error: AuthenticationError, fields: { status: 401 }, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
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
      ms: [0, 1000],
    },
    check: noRetry,
  },
  {
    name: "404 model does not exist → NotFoundError, one request",
    model: "faults/does-not-exist-404",
    expect: { error: NotFoundError, fields: { status: 404 }, message: /does not exist/, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },
  {
    name: "422 template error → ValidationError, one request",
    config: { chatTemplate: false },
    expect: { error: ValidationError, fields: { status: 422 }, message: /Template error/, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },
  {
    name: "in-stream validation error before any chunk (TGI 2.1: no [DONE]) → ValidationError, one request",
    config: { tgiVersion: "2.1.1" },
    args: { max_tokens: 5000 },
    expect: { error: ValidationError, fields: { status: 422 }, message: /Input validation error/, tokens: [], requests: 1, ms: [0, 1000] },
    check: noRetry,
  },

  // errors inside a 200 stream
  {
    name: "in-stream 'Model is overloaded' before any chunk → retried, then answers",
    faults: [{ type: "overloadedInStream", times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, ms: [0, 3000] },
    check: retryChecks([{ attempt: 2, status: 429 }], [], [500]),
  },
  {
    name: "connection dropped before any chunk → retried, then answers",
    faults: [{ type: "drop", afterChunks: 0, times: 1 }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, ms: [0, 3000] },
    check: retryChecks([{ attempt: 2, reason: "connection" }], [], [500]),
  },
  {
    name: "429 with retry-after-ms 600, idleTimeout 300 ms < the wait → retried, then answers (no idle clock while waiting)",
    faults: [{ type: "rateLimit", retryAfterMs: 600, times: 1 }],
    options: { idleTimeout: 300 },
    expect: { text: ANSWER, tokens: TOKENS, requests: 2, gaps: [600], ms: [600, 3000] },
    check: retryChecks([{ attempt: 2, status: 429, reason: "rate-limit" }], [600]),
  },
  {
    name: "in-stream 'Model is overloaded' after a chunk → RateLimitError, not retried, the chunk kept",
    fetch: (inner) => withEventAfterFirst(inner, OVERLOADED_EVENT),
    expect: { error: RateLimitError, fields: { status: 429 }, message: /overloaded/, tokens: ["The"], requests: 1, ms: [0, 1500] },
    check: noRetry,
  },
  {
    name: "malformed event after 2 chunks → MalformedEventError, not retried, the chunks kept",
    faults: [{ type: "malformed", afterChunks: 2 }],
    expect: { error: MalformedEventError, tokens: ["The", " capital"], requests: 1, ms: [0, 1500] },
    check: noRetry,
  },
  {
    name: "abort during the backoff that follows an in-stream overload → AbortError at once, no retry",
    faults: [{ type: "overloadedInStream", times: 1 }],
    signal: true,
    // Aborted as soon as the wait has begun: a full-jitter wait may be as short as a few ms.
    onRetry: (_event, ctx) =>
      queueMicrotask(() => {
        ctx.actedAt = Date.now();
        ctx.controller.abort(ctx.reason);
      }),
    expect: { error: AbortError, tokens: [], requests: 1, ms: [0, 1500] },
    check: abortChecks(300),
  },
  {
    name: "`timeout` while the retry after an in-stream overload waits for headers → TimeoutError deadline",
    faults: [{ type: "overloadedInStream", times: 1 }],
    options: { timeout: 1500 },
    // The retry (second request) is held 5 s before its headers.
    onRetry: (_event, ctx) => void ctx.hub.inject({ type: "headersDelay", delayMs: 5000 }, { model: ctx.model, times: 1 }),
    expect: { error: TimeoutError, fields: { kind: "deadline", timeoutMs: 1500 }, tokens: [], requests: 2, ms: [1500, 3500] },
  },

  // time limits
  {
    name: "stall after 2 chunks → TimeoutError idle, the chunks kept",
    faults: [{ type: "stall", afterChunks: 2 }],
    options: { idleTimeout: 300 },
    expect: { error: TimeoutError, fields: { kind: "idle", timeoutMs: 300 }, tokens: ["The", " capital"], requests: 1, ms: [300, 2500] },
    check: noRetry,
  },
  {
    name: "headers delayed 5 s, firstChunkTimeout 300 ms → TimeoutError first-chunk",
    faults: [{ type: "headersDelay", delayMs: 5000 }],
    options: { firstChunkTimeout: 300 },
    expect: { error: TimeoutError, fields: { kind: "first-chunk", timeoutMs: 300 }, tokens: [], requests: 1, ms: [300, 2000] },
    check: noRetry,
  },
  {
    name: "headers delayed 600 ms, idleTimeout 200 ms → answers (idle does not run before the body)",
    faults: [{ type: "headersDelay", delayMs: 600 }],
    options: { idleTimeout: 200 },
    expect: { text: ANSWER, tokens: TOKENS, requests: 1, ms: [600, 3000] },
    check: noRetry,
  },
  {
    name: "keep-alive comments every 50 ms during a slow stream (500 ms/event) outlive idleTimeout 250 ms",
    faults: [{ type: "slow", delayMs: 500 }, { type: "keepAlive", intervalMs: 50 }],
    args: { max_tokens: 3 },
    options: { idleTimeout: 250 },
    expect: { text: "The capital of", tokens: ["The", " capital", " of"], requests: 1, ms: [1000, 4000] },
    check: noRetry,
  },
  {
    name: "the same slow stream without keep-alives → TimeoutError idle (control)",
    faults: [{ type: "slow", delayMs: 500 }],
    args: { max_tokens: 3 },
    options: { idleTimeout: 250 },
    expect: { error: TimeoutError, fields: { kind: "idle", timeoutMs: 250 }, tokens: ["The"], requests: 1, ms: [250, 2000] },
    check: noRetry,
  },
  {
    name: "`timeout` 750 ms during a slow stream (500 ms/event) → TimeoutError deadline, the chunks kept",
    faults: [{ type: "slow", delayMs: 500 }],
    options: { timeout: 750 },
    expect: { error: TimeoutError, fields: { kind: "deadline", timeoutMs: 750 }, tokens: ["The", " capital"], requests: 1, ms: [750, 2500] },
    check: noRetry,
  },

  {
    name: "a slow consumer (400 ms per chunk) of a brisk stream (50 ms/event), idleTimeout 300 ms → answers",
    faults: [{ type: "slow", delayMs: 50 }],
    options: { idleTimeout: 300 },
    drive: consumeSlowly(400),
    expect: { text: ANSWER, tokens: TOKENS, requests: 1, ms: [2400, 6000] },
    check: noRetry,
  },

  // how the body ends
  {
    // Slow, so the chunks are read before the reset (a reset errors undici's body and drops what it queued).
    name: "drop after 2 chunks → ConnectionError, not retried, the chunks kept",
    faults: [{ type: "slow", delayMs: 100 }, { type: "drop", afterChunks: 2 }],
    expect: { error: ConnectionError, tokens: ["The", " capital"], requests: 1, ms: [0, 1500] },
    check: noRetry,
  },
  {
    name: "truncate after 3 chunks → IncompleteStreamError, the chunks kept",
    faults: [{ type: "truncate", afterChunks: 3 }],
    expect: { error: IncompleteStreamError, tokens: ["The", " capital", " of"], requests: 1, ms: [0, 1500] },
    check: noRetry,
  },
  {
    name: "linger after [DONE] (TGI 3.2) → completes promptly, the socket released",
    faults: [{ type: "linger" }],
    expect: { text: ANSWER, tokens: TOKENS, requests: 1, ms: [0, 1500] },
  },
  {
    name: "linger without [DONE] (TGI 2.0) → completes after a short grace, the socket released",
    config: { tgiVersion: "2.0.2" },
    faults: [{ type: "linger" }],
    args: { max_tokens: 6 },
    expect: { text: ANSWER, tokens: TOKENS, requests: 1, ms: [0, 2000] },
  },

  // no server at all
  {
    name: "connection refused → ConnectionError after maxRetries+1 tries",
    baseUrl: async () => `http://127.0.0.1:${await closedPort()}`,
    expect: { error: ConnectionError, message: /127\.0\.0\.1:\d+.*ECONNREFUSED/, tokens: [], requests: 0, attempts: 3, ms: [0, 5000] },
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
    expect: { error: ConnectionError, message: /hfkit-hub\.invalid.*ENOTFOUND/, tokens: [], requests: 0, attempts: 2, ms: [0, 3000] },
    check: all(retryChecks([{ attempt: 2, reason: "connection" }], [], [500]), (_run, ctx) => {
      for (const url of ctx.attempts) expect(url.startsWith("http://hfkit-hub.invalid/")).toBe(true);
    }),
  },

  // the caller leaves
  {
    // a 429 announcing 2 s: with full jitter a 500's wait may be under 150 ms, so the wait is the server's
    name: "abort during a backoff wait (429, retry-after-ms 2000) → AbortError at once, cause = the signal's reason",
    faults: [{ type: "rateLimit", retryAfterMs: 2000, times: 1 }],
    signal: true,
    drive: abortAfter(150),
    expect: { error: AbortError, tokens: [], requests: 1, ms: [150, 1500] },
    check: all(abortChecks(300), (_run, ctx) => expect(ctx.retries).toHaveLength(1)),
  },
  {
    name: "abort while waiting for headers (delayed 5 s) → AbortError at once",
    faults: [{ type: "headersDelay", delayMs: 5000 }],
    signal: true,
    drive: abortAfter(150),
    expect: { error: AbortError, tokens: [], requests: 1, ms: [150, 1500] },
    check: all(abortChecks(300), noRetry),
  },
  {
    name: "abort mid-body while a next() is pending (1 s between events) → AbortError at once, the chunk kept",
    faults: [{ type: "slow", delayMs: 1000 }],
    signal: true,
    drive: abortWhileReading(100),
    expect: { error: AbortError, tokens: ["The"], requests: 1, ms: [100, 1500] },
    check: all(abortChecks(300), noRetry),
  },
  {
    name: "break out of for-await mid-stream (server stalls after 3) → the server sees the connection close",
    faults: [{ type: "stall", afterChunks: 3 }],
    drive: breakAfter(2),
    expect: { tokens: ["The", " capital"], requests: 1, ms: [0, 1500] },
  },
  {
    name: "a throw in the for-await body (server stalls after 3) → that error, the body cancelled",
    faults: [{ type: "stall", afterChunks: 3 }],
    drive: throwAfter(1),
    expect: { error: ConsumerGaveUp, tokens: ["The"], requests: 1, ms: [0, 1500] },
  },
  {
    name: "return() while a next() is pending on a stalled stream → both settle at once, the socket released",
    faults: [{ type: "stall", afterChunks: 1 }],
    drive: returnWhileNextPending(1, 150),
    expect: { tokens: ["The"], requests: 1, ms: [150, 2000] },
    check: settledPromptly(300),
  },
  {
    name: "return() while the request waits for headers (delayed 5 s) → both settle at once",
    faults: [{ type: "headersDelay", delayMs: 5000 }],
    drive: returnWhileNextPending(0, 150),
    expect: { tokens: [], requests: 1, ms: [150, 2000] },
    check: settledPromptly(300),
  },
];

// ---- the runner ----------------------------------------------------------------------------------

describe("fault injection through loopback HTTP (@hfkit/mock-hub)", () => {
  let hub: MockHub;
  let fresh = 0;

  beforeEach(async () => {
    hub = await startMockHub();
  });
  afterEach(async () => {
    await hub.close();
  });

  it.each(scenarios)("$name", async (s) => {
    const model = s.model ?? `faults/model-${++fresh}-${process.pid}`;
    if (s.config) hub.setModel(model, s.config);
    const faults = typeof s.faults === "function" ? s.faults(model) : (s.faults ?? []);
    for (const fault of faults) hub.inject(fault, { model });

    const ctx: Ctx = {
      hub,
      model,
      warnings: [],
      retries: [],
      attempts: [],
      controller: new AbortController(),
      reason: new Error("the user pressed stop"),
      startedAt: 0,
    };
    const globalFetch: FetchLike = (input, init) => fetch(input, init);
    const inner = s.fetch ? s.fetch(globalFetch) : globalFetch;
    const client = new InferenceClient("hf_fault_suite", {
      baseUrl: s.baseUrl ? await s.baseUrl() : hub.url,
      fetch: (input, init) => {
        ctx.attempts.push(input);
        return inner(input, init);
      },
      logger: { warn: (message) => void ctx.warnings.push(message) },
      onRetry: (event) => {
        ctx.retries.push(event);
        s.onRetry?.(event, ctx);
      },
    });

    ctx.startedAt = Date.now();
    const stream = client.chatCompletionStream(
      { model, messages: QUESTION, ...s.args },
      { ...s.options, ...(s.signal ? { signal: ctx.controller.signal } : {}) },
    );
    const drive = s.drive ?? ((st: Stream, c: Ctx) => consume(st, c.startedAt));
    const run = await within(drive(stream, ctx), s.expect.ms[1] + 3000, s.name);
    const openStreams = await openStreamsAfter(hub, 1000);
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
    (s.expect.gaps ?? []).forEach((min, i) => {
      const gap = (seen[i + 1]?.time ?? Number.NaN) - (seen[i]?.time ?? Number.NaN);
      expect(gap, `wait before request ${i + 2}`).toBeGreaterThanOrEqual(min);
    });
    // every wait the client announced (onRetry) was waited, before the request it preceded
    ctx.retries.forEach((event, i) => {
      const next = seen[i + 1];
      if (next && seen[i]) expect(next.time - seen[i].time, `announced wait ${i + 1}`).toBeGreaterThanOrEqual(event.delayMs - 20);
    });
    // the time, within generous bounds (a hang or a missing wait, not a speed)
    expect(run.elapsedMs).toBeGreaterThanOrEqual(s.expect.ms[0]);
    expect(run.elapsedMs).toBeLessThanOrEqual(s.expect.ms[1]);
    // no server stream left open
    expect(openStreams).toBe(0);
    s.check?.(run, ctx);
  }, 15_000);
});
