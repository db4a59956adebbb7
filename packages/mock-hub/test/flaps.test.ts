/**
 * A provider that flaps: down for N requests or for a time, then up; a 429 with Retry-After; how many requests
 * reached each provider; a fault out of range refused. Time runs on vitest's fake clock (the hub times faults with
 * `setTimeout` and `Date`), over real loopback HTTP.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMockHub, type Fault } from "../src/index.js";
import { contentOf, readOrTimeout, routerChat, TIMEOUT, useHub } from "./helpers.js";

const MODEL = "hfkit/router-multi";
const TEXT = "The capital of France is Paris.";
const hub = useHub();
const chat = (target: string, extra: Record<string, unknown> = {}) => routerChat(hub(), target, extra);
const reachedBy = (name: string) => hub().requests.filter((request) => request.provider === name).length;

afterEach(() => void vi.useRealTimers());

/** The fake clock: `setTimeout`, `clearTimeout` and `Date` (sockets and `setImmediate` stay real). */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
}

/** Status, provider, and the answer's text (or its error body). */
async function outcome(target: string): Promise<[number, string | null, string]> {
  const response = await chat(target);
  const body = (await response.json()) as { choices?: { message: { content: string } }[]; error?: unknown };
  return [
    response.status,
    response.headers.get("x-inference-provider"),
    body.choices?.[0]?.message.content ?? JSON.stringify(body.error),
  ];
}

describe("down for N requests, then up", () => {
  it("stall before the first event (afterChunks: 0) for together's first 2 streams; novita answers throughout; the counts per provider", async () => {
    const rule = hub().inject({ type: "stall", afterChunks: 0, times: 2 }, { model: MODEL, provider: "together" });
    for (let call = 1; call <= 2; call++) {
      const stalled = await chat(`${MODEL}:together`, { stream: true });
      expect([stalled.status, stalled.headers.get("x-inference-provider")]).toEqual([200, "together"]);
      const reader = stalled.body!.getReader();
      expect(await readOrTimeout(reader, 100)).toBe(TIMEOUT);
      await reader.cancel();
      expect(contentOf(await (await chat(`${MODEL}:novita`, { stream: true })).text())).toBe(TEXT);
    }
    expect([rule.hits, rule.active]).toEqual([2, false]);
    expect(contentOf(await (await chat(MODEL, { stream: true })).text())).toBe(TEXT); // the router's pick: together
    expect([reachedBy("together"), reachedBy("novita"), reachedBy("hf-inference")]).toEqual([3, 2, 0]);
  });

  it("a request the router refuses for a provider that does not serve the model reaches none", async () => {
    expect((await chat(`${MODEL}:groq`)).status).toBe(400);
    await (
      await fetch(`${hub().url}/hf-inference/models/hfkit/tgi-3.2`, { method: "POST", body: '{"inputs":"Hi"}' })
    ).text();
    expect(hub().requests.map((request) => request.provider)).toEqual([undefined, "hf-inference"]);
  });
});

describe("down for a time, then up (fake clock)", () => {
  it("503 from together for durationMs, then its answers; endsAt says when", async () => {
    fakeClock();
    const start = Date.now();
    const rule = hub().inject(
      { type: "serverError", status: 503, durationMs: 5_000 },
      { model: MODEL, provider: "together" },
    );
    expect(rule.endsAt).toBe(start + 5_000);
    expect(await outcome(`${MODEL}:together`)).toEqual([503, "together", '"Service Unavailable"']);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await outcome(`${MODEL}:together`)).toEqual([503, "together", '"Service Unavailable"']);
    expect(await outcome(`${MODEL}:novita`)).toEqual([200, "novita", TEXT]);
    await vi.advanceTimersByTimeAsync(1);
    expect(rule.active).toBe(false);
    expect(await outcome(`${MODEL}:together`)).toEqual([200, "together", TEXT]);
    expect(rule.hits).toBe(2);
  });

  it("refused connections for 30 s, or until times ends it first", async () => {
    fakeClock();
    const timed = hub().inject({ type: "refused", durationMs: 30_000 }, { model: MODEL, provider: "novita" });
    const counted = hub().inject(
      { type: "refused", durationMs: 30_000, times: 1 },
      { model: MODEL, provider: "hf-inference" },
    );
    await expect(chat(`${MODEL}:novita`)).rejects.toThrow(TypeError);
    await expect(chat(`${MODEL}:hf-inference`)).rejects.toThrow(TypeError);
    expect(await outcome(`${MODEL}:hf-inference`)).toEqual([200, "hf-inference", TEXT]);
    expect([timed.active, counted.active]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect([timed.active, await outcome(`${MODEL}:novita`)]).toEqual([false, [200, "novita", TEXT]]);
  });

  it("a model's config fault runs from the hub's start", async () => {
    fakeClock();
    const core = createMockHub({
      models: {
        "acme/flaky": {
          backend: "vllm",
          providers: ["together", "novita"],
          faults: [{ type: "refused", provider: "together", durationMs: 1_000 }],
        },
      },
    });
    const ask = (target: string) =>
      core.handle(
        new Request("http://hub.test/v1/chat/completions", {
          method: "POST",
          body: JSON.stringify({ model: target, messages: [{ role: "user", content: "Hi" }] }),
        }),
      );
    expect((await ask("acme/flaky:together")).type).toBe("error");
    expect((await ask("acme/flaky:novita")).status).toBe(200);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await ask("acme/flaky:together")).status).toBe(200);
    core.dispose();
  });
});

describe("429 with Retry-After", () => {
  it("for N requests: retry-after as given, then answers", async () => {
    hub().inject({ type: "rateLimit", retryAfter: 7, times: 2 }, { model: MODEL, provider: "novita" });
    for (let call = 1; call <= 2; call++) {
      const limited = await chat(`${MODEL}:novita`);
      expect([limited.status, limited.headers.get("retry-after"), limited.headers.get("x-inference-provider")]).toEqual(
        [429, "7", "novita"],
      );
      await limited.text();
    }
    expect(await outcome(`${MODEL}:novita`)).toEqual([200, "novita", TEXT]);
  });

  it("for a time: without retryAfter, the seconds left of it (rounded up), then answers (fake clock)", async () => {
    fakeClock();
    hub().inject({ type: "rateLimit", durationMs: 10_000 }, { model: MODEL, provider: "together" });
    const retryAfter = async () => {
      const response = await chat(`${MODEL}:together`);
      await response.text();
      return [response.status, response.headers.get("retry-after")];
    };
    expect(await retryAfter()).toEqual([429, "10"]);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(await retryAfter()).toEqual([429, "8"]);
    await vi.advanceTimersByTimeAsync(7_499);
    expect(await retryAfter()).toEqual([429, "1"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await retryAfter()).toEqual([200, null]);
  });
});

describe("a fault out of range is refused, naming the field and the range", () => {
  const refused: Array<[Fault, { times?: number } | undefined, string]> = [
    [
      { type: "serverError", durationMs: 0 },
      undefined,
      "durationMs must be a number of ms > 0, or Infinity for no end (got 0)",
    ],
    [
      { type: "refused", durationMs: Number.NaN },
      undefined,
      "durationMs must be a number of ms > 0, or Infinity for no end (got NaN)",
    ],
    [{ type: "refused" }, { times: 1.5 }, "times must be an integer >= 1 (got 1.5)"],
    [{ type: "stall", times: 0 }, undefined, "times must be an integer >= 1 (got 0)"],
    [{ type: "rateLimit", retryAfter: -1 }, undefined, "retryAfter must be an integer number of seconds >= 0 (got -1)"],
    [
      { type: "rateLimit", retryAfter: 1.5 },
      undefined,
      "retryAfter must be an integer number of seconds >= 0 (got 1.5)",
    ],
    [{ type: "latency" }, undefined, "it takes delayMs, or both p50Ms and p99Ms"],
    [{ type: "latency", p50Ms: 100 }, undefined, "it takes delayMs, or both p50Ms and p99Ms"],
    [{ type: "latency", delayMs: -5 }, undefined, "delayMs must be a number of ms >= 0 (got -5)"],
    [
      { type: "latency", delayMs: 5, p50Ms: 1, p99Ms: 2 },
      undefined,
      "delayMs (a fixed wait) cannot go with p50Ms / p99Ms (a drawn one)",
    ],
    [{ type: "latency", p50Ms: 0, p99Ms: 10 }, undefined, "p50Ms must be a number of ms > 0 (got 0)"],
    [{ type: "latency", p50Ms: 200, p99Ms: 100 }, undefined, "p99Ms must be a number of ms >= p50Ms (200) (got 100)"],
    [
      { type: "latency", p50Ms: 100, p99Ms: Infinity },
      undefined,
      "p99Ms must be a number of ms >= p50Ms (100) (got Infinity)",
    ],
    [{ type: "latency", p50Ms: 1, p99Ms: 2, seed: 0.5 }, undefined, "seed must be an integer (got 0.5)"],
    [{ type: "latency", delayMs: "5" } as unknown as Fault, undefined, 'delayMs must be a number of ms >= 0 (got "5")'],
  ];

  it.each(refused)("%o %o → RangeError", async (fault, options, message) => {
    expect(() => hub().inject(fault, { model: MODEL, provider: "together", ...options })).toThrow(
      new RangeError(`mock hub fault ${fault.type}: ${message}`),
    );
    expect(await outcome(`${MODEL}:together`)).toEqual([200, "together", TEXT]); // nothing was scripted
  });

  it("in a model's config: createMockHub refuses it", () => {
    const models = { "acme/x": { faults: [{ type: "serverError", durationMs: -1 }] as Fault[] } };
    expect(() => createMockHub({ models })).toThrow(
      /^mock hub fault serverError: durationMs must be a number of ms > 0/,
    );
  });

  it("Infinity is a duration (no end), and loading keeps its own default (its estimatedTime)", () => {
    fakeClock();
    const core = createMockHub();
    expect(core.inject({ type: "serverError", durationMs: Infinity }).endsAt).toBeUndefined();
    expect(core.inject({ type: "loading", estimatedTime: 3 }).endsAt).toBe(Date.now() + 3_000);
    core.dispose();
  });
});
