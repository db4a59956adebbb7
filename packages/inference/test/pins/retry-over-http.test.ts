/**
 * Retries as a caller sees them, over real HTTP on loopback: the reason `onRetry` gives for each answer a
 * server can make, how many requests a call makes (maxRetries, its default, loading waits apart,
 * retry_on_error), `x-wait-for-model` only after a loading wait, the 60 s ceiling on `retry-after`, and a
 * wait refused when it would pass the time the call has left. Jitter is fixed (Math.random), and the waits
 * that matter run on a fake clock while the loopback I/O is real.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ConnectionError,
  ModelLoadingError,
  type Options,
  RateLimitError,
  type RetryEvent,
  ServerError,
} from "../../src/index";
import { chunked, type RawReply, whole } from "../faults/raw-server";
import { consume, within } from "../faults/support";
import { answerJson, chunkEvent, clientOn, holdNextRequest, QUESTION, SSE, useRawServer } from "./stream-support";

const raw = useRawServer();
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Answer = (reply: RawReply) => void;
const json =
  (status: number, body: unknown, headers: Array<[string, string]> = []): Answer =>
  (reply) =>
    whole(reply, status, "application/json", JSON.stringify(body), headers);
const ok: Answer = (reply) => whole(reply, 200, "application/json", answerJson("Paris"));
const loading = (estimatedTime: number): Answer =>
  json(503, { error: "Model org/model is currently loading", estimated_time: estimatedTime });
const dropped: Answer = (reply) => reply.socket.destroy();
const streamed: Answer = (reply) => {
  const body = chunked(reply, 200, SSE);
  body.chunk(chunkEvent("Paris", "stop") + "data: [DONE]\n\n");
  body.end();
};
const inStream =
  (error: unknown): Answer =>
  (reply) =>
    whole(reply, 200, "text/event-stream", `data: ${JSON.stringify(error)}\n\n`);

/** The server answers the n-th request with `answers[n]`, the last one again after that. */
function serve(...answers: Answer[]): void {
  let n = 0;
  raw().handle((_req, reply) => (answers[Math.min(n++, answers.length - 1)] as Answer)(reply));
}

/** onRetry's events, and a promise of the next one (its wait is begun when it resolves). */
function retries() {
  const events: RetryEvent[] = [];
  let waiting: ((e: RetryEvent) => void) | undefined;
  const onRetry = (e: RetryEvent): void => {
    events.push(e);
    waiting?.(e);
  };
  const next = (): Promise<RetryEvent> => new Promise((resolve) => (waiting = resolve));
  return { events, onRetry, next };
}

/**
 * A chat call's answer or error, with no jitter: every backoff is 0 ms, every server wait exactly what it
 * asked. (No hang bound of our own: on the fake clock it would fire as the test moves time on.)
 */
function chat(options: Options = {}): Promise<unknown> {
  vi.spyOn(Math, "random").mockReturnValue(0);
  return clientOn(raw(), options)
    .chatCompletion({ messages: QUESTION })
    .then(
      (out) => out.choices[0]?.message.content,
      (e: unknown) => e,
    );
}

const FAKE_CLOCK: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ["setTimeout", "clearTimeout", "Date"] };

describe("the reason onRetry gives, by what the server answered", () => {
  it.each<[string, Answer, Partial<RetryEvent>]>([
    ["429", json(429, { error: "Rate limit reached" }), { status: 429, reason: "rate-limit" }],
    [
      "422 'Model is overloaded' (TGI's label)",
      json(422, { error: "Model is overloaded" }),
      { status: 422, reason: "overloaded" },
    ],
    ["500", json(500, { error: "boom" }), { status: 500, reason: "server-error" }],
    ["502", json(502, { error: "bad gateway" }), { status: 502, reason: "server-error" }],
    [
      "503 without an estimate or 'loading'",
      json(503, { error: "unavailable" }),
      { status: 503, reason: "server-error" },
    ],
    ["504", json(504, { error: "timeout" }), { status: 504, reason: "server-error" }],
    ["a connection dropped before the head", dropped, { status: undefined, reason: "connection" }],
  ])("%s → %o, then the answer", async (_name, first, expected) => {
    serve(first, ok);
    const { events, onRetry } = retries();
    expect(await chat({ maxRetries: 1, onRetry })).toBe("Paris");
    expect(events).toEqual([{ attempt: 2, delayMs: 0, estimatedTime: undefined, ...expected }]);
    expect(raw().requests).toHaveLength(2);
  });

  it.each<[string, unknown, Partial<RetryEvent>]>([
    [
      "'Model is overloaded' with no type (stands for 500)",
      { error: "Model is overloaded" },
      { status: 500, reason: "overloaded" },
    ],
    [
      "TGI's overloaded labelled 422",
      { error: { message: "Model is overloaded", http_status_code: 422 } },
      { status: 422, reason: "overloaded" },
    ],
    [
      "error_type overloaded (stands for 429)",
      { error: "Model is overloaded", error_type: "overloaded" },
      { status: 429, reason: "rate-limit" },
    ],
    ["an unknown error (stands for 500)", { error: "something broke" }, { status: 500, reason: "server-error" }],
  ])("inside a stream, before any chunk: %s → %o", async (_name, error, expected) => {
    serve(inStream(error), streamed);
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { events, onRetry } = retries();
    const run = await within(
      consume(clientOn(raw(), { maxRetries: 1, onRetry }).chatCompletionStream({ messages: QUESTION })),
    );
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["Paris"]);
    expect(events).toEqual([{ attempt: 2, delayMs: 0, estimatedTime: undefined, ...expected }]);
  });

  it("a loading model → reason loading, the estimate in seconds as sent, the wait its clamp", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    serve(loading(2.5), ok);
    const { events, onRetry, next } = retries();
    const announced = next();
    const answer = chat({ maxRetries: 0, onRetry });
    await announced;
    await vi.advanceTimersByTimeAsync(2500);
    expect(await answer).toBe("Paris");
    expect(events).toEqual([{ attempt: 2, delayMs: 2500, status: 503, reason: "loading", estimatedTime: 2.5 }]);
  });
});

describe("how many requests a call makes", () => {
  it("a 5xx every time, maxRetries 3: four requests, then the ServerError", async () => {
    serve(json(500, { error: "boom" }));
    const { events, onRetry } = retries();
    const error = await chat({ maxRetries: 3, onRetry });
    expect(error).toBeInstanceOf(ServerError);
    expect(raw().requests).toHaveLength(4);
    expect(events.map((e) => e.attempt)).toEqual([2, 3, 4]);
  });

  it("maxRetries unset: two retries (three requests)", async () => {
    serve(json(429, { error: "Rate limit reached" }));
    const error = await chat({ maxRetries: undefined });
    expect(error).toBeInstanceOf(RateLimitError);
    expect(raw().requests).toHaveLength(3);
  });

  it("connection failures every time, maxRetries 1: two requests, then the ConnectionError", async () => {
    serve(dropped);
    const error = await chat({ maxRetries: 1 });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(raw().requests).toHaveLength(2);
  });

  it("loading waits are not retries: with maxRetries 0, two loading answers are waited out and the third answers", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    serve(loading(1), loading(1), ok);
    const { onRetry, next } = retries();
    let announced = next();
    const answer = chat({ maxRetries: 0, onRetry });
    for (let i = 0; i < 2; i++) {
      await announced;
      announced = next();
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(await answer).toBe("Paris");
    expect(raw().requests).toHaveLength(3);
  });

  it("retry_on_error: false → the first answer's error, one request, nothing announced", async () => {
    for (const [first, Cls] of [
      [json(429, { error: "Rate limit reached" }), RateLimitError],
      [json(500, { error: "boom" }), ServerError],
      [loading(1), ModelLoadingError],
    ] as const) {
      raw().requests.length = 0;
      serve(first, ok);
      const { events, onRetry } = retries();
      expect(await chat({ maxRetries: 3, retry_on_error: false, onRetry })).toBeInstanceOf(Cls);
      expect(raw().requests).toHaveLength(1);
      expect(events).toEqual([]);
    }
  });
});

describe("x-wait-for-model", () => {
  it("is sent only on the requests after a loading wait, never after a 5xx wait alone", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    serve(json(500, { error: "boom" }), loading(1), ok);
    const { onRetry, next } = retries();
    let announced = next();
    const answer = chat({ maxRetries: 1, onRetry });
    await announced;
    announced = next();
    await vi.advanceTimersByTimeAsync(0);
    await announced;
    await vi.advanceTimersByTimeAsync(1000);
    expect(await answer).toBe("Paris");
    expect(raw().requests.map((r) => r.headers["x-wait-for-model"])).toEqual([undefined, undefined, "true"]);
  });
});

describe("the server's retry-after", () => {
  it("60 s is waited out in full: the retry comes at 60 000 ms, not before", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    serve(json(429, { error: "Rate limit reached" }, [["Retry-After", "60"]]), ok);
    const { onRetry, next } = retries();
    const announced = next();
    const answer = chat({ maxRetries: 1, onRetry });
    expect((await announced).delayMs).toBe(60_000);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(raw().requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toBe("Paris");
    expect(raw().requests).toHaveLength(2);
  });

  it.each<[string, Array<[string, string]>]>([
    ["retry-after: 60.001", [["Retry-After", "60.001"]]],
    ["retry-after-ms: 60001", [["Retry-After-Ms", "60001"]]],
  ])("%s → the RateLimitError at once, one request", async (_name, headers) => {
    serve(json(429, { error: "Rate limit reached" }, headers), ok);
    const { events, onRetry } = retries();
    const error = await chat({ maxRetries: 3, onRetry });
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(60_001);
    expect(events).toEqual([]);
    expect(raw().requests).toHaveLength(1);
  });
});

describe("a wait longer than the time the call has left fails the call at once", () => {
  it.each<[string, Options, RegExp]>([
    ["firstChunkTimeout", { firstChunkTimeout: 1000 }, /first-chunk/],
    ["timeout", { timeout: 1000 }, /deadline/],
  ])(
    "%s 1000: retry-after-ms 1001 → the RateLimitError, unannounced; 1000 → waited, and the limit ends the call",
    async (_name, limits, kind) => {
      vi.useFakeTimers(FAKE_CLOCK);
      serve(json(429, { error: "Rate limit reached" }, [["Retry-After-Ms", "1001"]]), ok);
      const first = retries();
      expect(await chat({ ...limits, maxRetries: 1, onRetry: first.onRetry })).toBeInstanceOf(RateLimitError);
      expect(first.events).toEqual([]);
      expect(raw().requests).toHaveLength(1);

      raw().requests.length = 0;
      serve(json(429, { error: "Rate limit reached" }, [["Retry-After-Ms", "1000"]]), ok);
      const second = retries();
      const announced = second.next();
      const outcome = chat({ ...limits, maxRetries: 1, onRetry: second.onRetry });
      expect((await announced).delayMs).toBe(1000);
      await vi.advanceTimersByTimeAsync(1000);
      const error = await outcome;
      expect(error).toMatchObject({ name: "TimeoutError", timeoutMs: 1000 });
      expect((error as { kind: string }).kind).toMatch(kind);
      expect(raw().requests).toHaveLength(1);
    },
  );

  it("the time the server took counts: 400 ms into firstChunkTimeout 1000, retry-after-ms 601 fails at once, 599 is waited", async () => {
    vi.useFakeTimers(FAKE_CLOCK);
    const outcome = async (wait: number) => {
      raw().requests.length = 0;
      const held = holdNextRequest(raw());
      const { onRetry, next } = retries();
      const announced = next();
      const answer = chat({ firstChunkTimeout: 1000, maxRetries: 1, onRetry });
      const reply = await held;
      await vi.advanceTimersByTimeAsync(400);
      serve(ok);
      json(429, { error: "Rate limit reached" }, [["Retry-After-Ms", String(wait)]])(reply);
      // the call either fails at once or announces its wait
      await Promise.race([announced, answer]);
      await vi.advanceTimersByTimeAsync(wait);
      return answer;
    };
    expect(await outcome(601)).toBeInstanceOf(RateLimitError);
    expect(raw().requests).toHaveLength(1);
    expect(await outcome(599)).toBe("Paris");
    expect(raw().requests).toHaveLength(2);
  });

  it("a loading estimate past firstChunkTimeout → ModelLoadingError at once, its estimate kept", async () => {
    serve(loading(30), ok);
    const { events, onRetry } = retries();
    const error = await chat({ firstChunkTimeout: 20_000, onRetry });
    expect(error).toBeInstanceOf(ModelLoadingError);
    expect((error as ModelLoadingError).estimatedTime).toBe(30);
    expect(events).toEqual([]);
    expect(raw().requests).toHaveLength(1);
  });
});
