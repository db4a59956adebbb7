/**
 * The retry rules, read off `planRetry` and `withRetries` with a `random` the test chooses: which errors are
 * retried and why, how long each wait is (backoff growth and cap, the server's minimum, the loading clamp),
 * how many tries a call gets, when a wait is refused because it would pass the call's time, and what
 * `onRetry`, the logger and the debug log are told. Waits run on a fake clock.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  IncompleteStreamError,
  InferenceError,
  InputError,
  MalformedEventError,
  ModelLoadingError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  type RetryEvent,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../../src/index";
import { Call, type CallLimits } from "../../src/core/call";
import {
  MAX_LOADING_WAIT,
  MAX_LOADING_WAITS,
  MAX_RETRY_AFTER,
  MIN_LOADING_WAIT,
  planRetry,
  type RetryPolicy,
  withRetries,
} from "../../src/core/retry";

const URL_ = "http://127.0.0.1:9/v1/chat/completions";
const SECRET = "hf_RetryPolicySecret1234567890abcd";

const http = <C extends typeof HttpError>(
  Cls: C,
  status: number,
  more: { retryAfterMs?: number; estimatedTime?: number } = {},
): InstanceType<C> => new Cls(`HTTP ${status}`, { status, body: {}, url: URL_, ...more }) as InstanceType<C>;
const loading = (estimatedTime?: number): ModelLoadingError => http(ModelLoadingError, 503, { estimatedTime });
const connection = (): ConnectionError =>
  new ConnectionError("Connection to 127.0.0.1:9 failed: fetch failed (ECONNREFUSED)");

/** A policy with retries on, no retryable filter and `random` fixed. */
function policy(random: number, more: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    enabled: true,
    maxRetries: 2,
    logger: { warn: () => {} },
    model: "org/model",
    random: () => random,
    ...more,
  };
}

const NO_LIMITS: CallLimits = { firstChunkTimeout: Infinity, idleTimeout: Infinity, stallTimeout: Infinity };

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("planRetry: what is retried, and why", () => {
  it.each<[string, InferenceError, RetryEvent["reason"]]>([
    ["a 429", http(RateLimitError, 429), "rate-limit"],
    ["TGI's overloaded labelled 422", http(RateLimitError, 422), "overloaded"],
    ["an overloaded error inside a stream (status 500)", http(RateLimitError, 500), "overloaded"],
    ["a 500", http(ServerError, 500), "server-error"],
    ["a 503 that is not loading", http(ServerError, 503), "server-error"],
    ["a 424 (TGI's generation error)", http(ServerError, 424), "server-error"],
    ["a failed connection", connection(), "connection"],
    ["a loading model", loading(1), "loading"],
  ])("%s → reason %s", (_name, error, reason) => {
    expect(planRetry(error, 0, policy(0))?.reason).toBe(reason);
  });

  it.each<[string, InferenceError]>([
    ["400", http(ValidationError, 400)],
    ["422", http(ValidationError, 422)],
    ["401", http(AuthenticationError, 401)],
    ["403", http(PermissionError, 403)],
    ["404", http(NotFoundError, 404)],
    ["another HTTP error (418)", http(HttpError, 418)],
    ["a timeout", new TimeoutError("deadline", 1000)],
    ["an abort", new AbortError("aborted")],
    ["bad input", new InputError("bad", "top_p")],
    ["an incomplete stream", new IncompleteStreamError("cut")],
    ["a malformed event", new MalformedEventError("bad", "x")],
    ["a plain InferenceError", new InferenceError("x")],
  ])("%s → never retried", (_name, error) => {
    expect(planRetry(error, 0, policy(0, { maxRetries: 100 }))).toBeUndefined();
  });

  it("retry_on_error false (enabled: false) → nothing is retried, loading included", () => {
    for (const error of [http(RateLimitError, 429), http(ServerError, 500), connection(), loading(1)]) {
      expect(planRetry(error, 0, policy(0, { enabled: false }))).toBeUndefined();
    }
  });

  it("a retryable filter: what it refuses is not retried, what it accepts is", () => {
    const onlyRateLimits = policy(0, { retryable: (e) => e instanceof RateLimitError });
    expect(planRetry(http(ServerError, 500), 0, onlyRateLimits)).toBeUndefined();
    expect(planRetry(connection(), 0, onlyRateLimits)).toBeUndefined();
    expect(planRetry(http(RateLimitError, 429), 0, onlyRateLimits)?.reason).toBe("rate-limit");
    expect(planRetry(loading(1), 0, policy(0, { retryable: () => true }))?.reason).toBe("loading");
  });
});

describe("planRetry: how many", () => {
  it("maxRetries: the last retry is allowed, the next is not", () => {
    for (const error of [http(RateLimitError, 429), http(ServerError, 502), connection()]) {
      expect(planRetry(error, 1, policy(0, { maxRetries: 2 }))).toBeDefined();
      expect(planRetry(error, 2, policy(0, { maxRetries: 2 }))).toBeUndefined();
      expect(planRetry(error, 0, policy(0, { maxRetries: 0 }))).toBeUndefined();
    }
  });

  it(`loading waits are not counted in maxRetries, and end after ${MAX_LOADING_WAITS}`, () => {
    expect(MAX_LOADING_WAITS).toBe(30);
    const none = policy(0, { maxRetries: 0 });
    expect(planRetry(loading(1), 5, none)).toBeDefined();
    expect(planRetry(loading(1), 0, none)).toBeDefined(); // the count of waits so far defaults to none
    expect(planRetry(loading(1), 0, none, 29)).toBeDefined();
    expect(planRetry(loading(1), 0, none, 30)).toBeUndefined();
    expect(planRetry(loading(), 0, none, 31)).toBeUndefined();
  });
});

describe("planRetry: how long", () => {
  it("backoff with random 1: 500, 1000, 2000, 4000, 8000, then 8000 (the cap)", () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 10].map(
      (n) => planRetry(http(ServerError, 500), n, policy(1, { maxRetries: 100 }))?.delayMs,
    );
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000, 8000]);
  });

  it("backoff is full jitter: random r gives r × the window, 0 included (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 0, max: 40 }),
        (r, n) => {
          const plan = planRetry(connection(), n, policy(r, { maxRetries: 100 }));
          expect(plan?.delayMs).toBe(r * Math.min(8000, 500 * 2 ** n));
        },
      ),
    );
  });

  it("Math.random is the default jitter", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.25);
    expect(planRetry(http(ServerError, 500), 1, { ...policy(0), random: undefined })?.delayMs).toBe(250);
  });

  it(`retry-after is a minimum the jitter only adds to, honoured up to ${MAX_RETRY_AFTER} ms`, () => {
    expect(MAX_RETRY_AFTER).toBe(60_000);
    const rateLimited = (ms: number): RateLimitError => http(RateLimitError, 429, { retryAfterMs: ms });
    expect(planRetry(rateLimited(1500), 0, policy(0))?.delayMs).toBe(1500);
    expect(planRetry(rateLimited(1500), 1, policy(1))?.delayMs).toBe(2500);
    expect(planRetry(rateLimited(60_000), 0, policy(0))?.delayMs).toBe(60_000);
    expect(planRetry(rateLimited(60_000), 0, policy(1))?.delayMs).toBe(60_500);
    expect(planRetry(rateLimited(60_001), 0, policy(0))).toBeUndefined();
    expect(planRetry(rateLimited(0), 0, policy(0.5))?.delayMs).toBe(250);
    // a 5xx's retry-after counts the same way; a connection failure has none
    expect(planRetry(http(ServerError, 503, { retryAfterMs: 3000 }), 0, policy(0))?.delayMs).toBe(3000);
    expect(planRetry(http(ServerError, 503, { retryAfterMs: 60_001 }), 0, policy(0))).toBeUndefined();
  });

  it.each<[string, number | undefined, number]>([
    ["no estimate", undefined, 10_000],
    ["0 s (no tight loop)", 0, 1000],
    ["0.5 s", 0.5, 1000],
    ["1 s", 1, 1000],
    ["1.5 s", 1.5, 1500],
    ["40 s", 40, 40_000],
    ["60 s", 60, 60_000],
    ["61 s", 61, 60_000],
    ["1e9 s (no wait of a day)", 1e9, 60_000],
  ])("a loading wait, estimate %s → %d ms, plus at most 250 ms of jitter", (_name, estimate, ms) => {
    expect([MIN_LOADING_WAIT, MAX_LOADING_WAIT]).toEqual([1000, 60_000]);
    expect(planRetry(loading(estimate), 0, policy(0))).toEqual({
      delayMs: ms,
      reason: "loading",
      estimatedTime: estimate,
    });
    expect(planRetry(loading(estimate), 0, policy(1))?.delayMs).toBe(ms + 250);
  });

  it("a loading wait is the clamped estimate plus r × 250 ms, for any estimate and r (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e12, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (est, r) => {
          const base = Math.min(60_000, Math.max(1000, est * 1000));
          expect(planRetry(loading(est), 0, policy(r))?.delayMs).toBe(base + r * 250);
        },
      ),
    );
  });
});

/** A script of what each try throws (an Error) or answers; the try after the script ends fails the test. */
function tries(script: Array<InferenceError | string>) {
  const seen: Array<{ waitForModel: boolean; at: number }> = [];
  const attempt = async ({ call }: { call: Call }): Promise<string> => {
    seen.push({ waitForModel: call.waitForModel, at: Date.now() });
    const step = script[seen.length - 1];
    if (step === undefined) throw new Error(`try ${seen.length} was not expected`);
    if (typeof step === "string") return step;
    throw step;
  };
  return { attempt, seen };
}

/** Runs withRetries on a fake clock until it settles; what it answered or threw, and what onRetry was told. */
async function run(
  script: Array<InferenceError | string>,
  more: Partial<RetryPolicy> = {},
  limits: Partial<CallLimits> = {},
) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  const events: RetryEvent[] = [];
  const call = new Call({ ...NO_LIMITS, ...limits }, SECRET);
  const { attempt, seen } = tries(script);
  const settled = withRetries(
    { call, policy: policy(0, { onRetry: (e) => void events.push(e), ...more }) },
    attempt,
  ).then(
    (value) => ({ value, error: undefined as unknown }),
    (error: unknown) => ({ value: undefined, error }),
  );
  await vi.runAllTimersAsync();
  return { ...(await settled), events, seen, call };
}

describe("withRetries: how many tries", () => {
  it("a 5xx every time: exactly maxRetries extra tries, then the last error", async () => {
    const errors = [500, 502, 503, 504].map((s) => http(ServerError, s));
    const out = await run(errors, { maxRetries: 3 });
    expect(out.seen).toHaveLength(4);
    expect(out.error).toBe(errors[3]);
    expect(out.events.map((e) => [e.attempt, e.status, e.reason])).toEqual([
      [2, 500, "server-error"],
      [3, 502, "server-error"],
      [4, 503, "server-error"],
    ]);
  });

  it("maxRetries 0: one try", async () => {
    const out = await run([http(RateLimitError, 429)], { maxRetries: 0 });
    expect(out.seen).toHaveLength(1);
    expect(out.events).toEqual([]);
    expect(out.error).toBeInstanceOf(RateLimitError);
  });

  it("loading waits are not counted: two loads, then maxRetries (1) 5xx retries, then the error", async () => {
    const out = await run([loading(1), loading(1), http(ServerError, 500), http(ServerError, 500)], { maxRetries: 1 });
    expect(out.seen).toHaveLength(4);
    expect(out.events.map((e) => e.reason)).toEqual(["loading", "loading", "server-error"]);
    expect(out.error).toBeInstanceOf(ServerError);
  });

  it(`a model that never loads: ${MAX_LOADING_WAITS} waits, then the ${MAX_LOADING_WAITS + 1}st answer's ModelLoadingError`, async () => {
    const script = Array.from({ length: 40 }, () => loading(0));
    const out = await run(script, { maxRetries: 0 });
    expect(out.seen).toHaveLength(31);
    expect(out.events).toHaveLength(30);
    expect(out.events.map((e) => e.attempt)).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
    expect(out.error).toBe(script[30]);
  });

  it("retry_on_error false: the first error, no wait", async () => {
    const out = await run([http(ServerError, 500), "ok"], { enabled: false });
    expect(out.seen).toHaveLength(1);
    expect(out.events).toEqual([]);
    expect(out.error).toBeInstanceOf(ServerError);
  });

  it("an answer after retries is the answer", async () => {
    const out = await run([connection(), http(RateLimitError, 429), "ok"]);
    expect(out.value).toBe("ok");
    expect(out.error).toBeUndefined();
  });
});

describe("withRetries: what onRetry, the logger and the debug log are told", () => {
  it("each wait: the number of the next try, its delay, the status (none for a connection), the reason, the estimate", async () => {
    const out = await run(
      [loading(2), http(ServerError, 500, { retryAfterMs: 300 }), connection(), http(RateLimitError, 422), "ok"],
      {
        maxRetries: 5,
        random: () => 0.5,
      },
    );
    expect(out.value).toBe("ok");
    expect(out.events).toEqual([
      { attempt: 2, delayMs: 2125, status: 503, reason: "loading", estimatedTime: 2 },
      { attempt: 3, delayMs: 550, status: 500, reason: "server-error", estimatedTime: undefined },
      { attempt: 4, delayMs: 500, status: undefined, reason: "connection", estimatedTime: undefined },
      { attempt: 5, delayMs: 1000, status: 422, reason: "overloaded", estimatedTime: undefined },
    ]);
    // each try came when its wait was over
    expect(out.seen.map((s) => s.at - (out.seen[0]?.at ?? 0))).toEqual([0, 2125, 2675, 3175, 4175]);
  });

  it("x-wait-for-model is asked only once a loading wait has happened", async () => {
    const first = await run([http(ServerError, 500), loading(1), "ok"]);
    expect(first.seen.map((s) => s.waitForModel)).toEqual([false, false, true]);
    const second = await run([loading(1), http(ServerError, 500), "ok"]);
    expect(second.seen.map((s) => s.waitForModel)).toEqual([false, true, true]);
  });

  it("the loading warning: once per model, the estimate rounded; none shown when absent or absurd", async () => {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => void warnings.push(m) };
    await run([loading(39.6), loading(12), "ok"], { logger, model: "org/warn-once" });
    await run([loading(3), "ok"], { logger, model: "org/warn-once" });
    await run([loading(), "ok"], { logger, model: "org/warn-none" });
    await run([loading(1e6), "ok"], { logger, model: "org/warn-huge" });
    await run([loading(999_999.4), "ok"], { logger, model: "org/warn-large" });
    expect(warnings).toEqual([
      "Model org/warn-once is loading on the server (about 40 s); waiting for it.",
      "Model org/warn-none is loading on the server; waiting for it.",
      "Model org/warn-huge is loading on the server; waiting for it.",
      "Model org/warn-large is loading on the server (about 999999 s); waiting for it.",
    ]);
  });

  it("no warning for a wait that is not loading", async () => {
    const warn = vi.fn();
    await run([http(RateLimitError, 429), http(ServerError, 500), "ok"], { logger: { warn }, model: "org/warn-never" });
    expect(warn).not.toHaveBeenCalled();
  });

  it("the debug log: a line per wait, its delay rounded, the status when there is one", async () => {
    const lines: string[] = [];
    await run([http(ServerError, 502), connection(), loading(1), "ok"], {
      debug: (l) => void lines.push(l),
      random: () => 0.0018,
    });
    expect(lines).toEqual([
      "retry 1 in 1 ms (server-error, HTTP 502)",
      "retry 2 in 2 ms (connection)",
      "retry 3 in 1000 ms (loading, HTTP 503)",
    ]);
  });

  it("the error that ends the call is sealed: the token redacted from it", async () => {
    const out = await run(
      [
        http(ServerError, 500),
        new ServerError(`echoed ${SECRET}`, { status: 500, body: { error: SECRET }, url: URL_ }),
      ],
      { maxRetries: 1 },
    );
    expect((out.error as Error).message).toBe("echoed [redacted]");
    expect((out.error as ServerError).body).toEqual({ error: "[redacted]" });
  });
});

describe("withRetries: a wait that would pass the call's time is not begun", () => {
  const rateLimited = (ms: number): RateLimitError => http(RateLimitError, 429, { retryAfterMs: ms });

  it.each<[string, Partial<CallLimits>]>([
    ["timeout", { timeout: 1000 }],
    ["firstChunkTimeout", { firstChunkTimeout: 1000 }],
    ["the nearer of both", { timeout: 1000, firstChunkTimeout: 5000 }],
    ["the nearer of both, the other way", { timeout: 5000, firstChunkTimeout: 1000 }],
  ])("%s 1000: a 1001 ms wait fails at once with the server's error, unannounced", async (_name, limits) => {
    const out = await run([rateLimited(1001), "ok"], {}, limits);
    expect(out.error).toBeInstanceOf(RateLimitError);
    expect(out.events).toEqual([]);
    expect(out.seen).toHaveLength(1);
  });

  it("a wait of exactly the time left is begun (and the limit then ends the call)", async () => {
    const out = await run([rateLimited(1000), "ok"], {}, { timeout: 1000 });
    expect(out.events).toHaveLength(1);
    expect(out.error).toMatchObject({ name: "TimeoutError", kind: "deadline", timeoutMs: 1000 });
    expect(out.seen).toHaveLength(1);
  });

  it("the time already spent counts: 400 ms into a 1000 ms call, a 599 ms wait is begun, a 601 ms one is not", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const outcome = async (wait: number) => {
      const call = new Call({ ...NO_LIMITS, firstChunkTimeout: 1000 });
      let n = 0;
      const events: RetryEvent[] = [];
      const attempt = async (): Promise<string> => {
        if (++n > 1) return "ok";
        await new Promise((resolve) => setTimeout(resolve, 400));
        throw rateLimited(wait);
      };
      const settled = withRetries({ call, policy: policy(0, { onRetry: (e) => void events.push(e) }) }, attempt).catch(
        (e: unknown) => e,
      );
      await vi.runAllTimersAsync();
      return { result: await settled, events };
    };
    expect(await outcome(599)).toMatchObject({ result: "ok", events: [{ delayMs: 599 }] });
    expect((await outcome(601)).result).toBeInstanceOf(RateLimitError);
  });

  it("a loading wait past the limit: ModelLoadingError at once, its estimate kept", async () => {
    const out = await run([loading(30), "ok"], {}, { firstChunkTimeout: 20_000 });
    expect(out.error).toBeInstanceOf(ModelLoadingError);
    expect((out.error as ModelLoadingError).estimatedTime).toBe(30);
    expect(out.events).toEqual([]);
  });

  it("once the call has failed, nothing is retried: its failure is what the caller gets", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const call = new Call(NO_LIMITS);
    const aborted = new AbortError("stopped");
    let n = 0;
    const attempt = async (): Promise<string> => {
      n++;
      call.fail(aborted);
      throw http(ServerError, 500);
    };
    const error = await withRetries({ call, policy: policy(0) }, attempt).catch((e: unknown) => e);
    expect(error).toBe(aborted);
    expect(n).toBe(1);
  });
});
