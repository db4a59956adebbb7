/**
 * Health, the order of candidates and hedging against the mock hub as the HF router, over loopback: its
 * per-provider faults (down for N requests or for a time, a 429 with Retry-After, a late first token) make a
 * provider flap, and `hub.requests[i].provider` says what reached each one. Time is vitest's fake clock, which
 * the hub's faults, the client's timers and the health store all read: a cooldown or a latency passes at once
 * and exactly, never by waiting.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type ChatCompletionStreamOutput,
  type FailoverEvent,
  type HealthEvent,
  InferenceClient,
  type Options,
  TimeoutError,
} from "../../src/index";
import { HealthMemory } from "../../src/features/health";
import { catalogMemory } from "../../src/features/catalog";
import { seeded, turns, until } from "./router";

const MODEL = "hfkit/router-multi"; // served by together, novita and hf-inference
const ANSWER = "The capital of France is Paris.";
const QUESTION = [{ role: "user", content: "What is the capital of France?" }];
const TOKEN = "hf_HealthHubTokenAAAAAAAAAAAAAAAAAAAAA";
const TOGETHER = `${MODEL}:together`;
const NOVITA = `${MODEL}:novita`;

let hub: MockHub;
let store: HealthMemory;

beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  hub.reset();
  catalogMemory.clear();
  store = new HealthMemory(() => Date.now()); // the fake clock, read at each call
});
afterEach(() => void vi.useRealTimers());

const client = (options: Options = {}, token = TOKEN) =>
  new InferenceClient(token, {
    routerUrl: hub.url,
    maxRetries: 0,
    logger: { warn: () => {} },
    health: { store },
    ...options,
  });

/** The providers the chat requests reached, in order. */
const reached = (): string[] =>
  hub.requests.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions")).map((r) => r.provider ?? "?");

/** How many chat requests reached `provider`. */
const count = (provider: string): number => reached().filter((p) => p === provider).length;

/** One whole chat over `providers`: who served it, or its error; what onFailover and onHealth were told. */
async function ask(c: InferenceClient, providers: Options["provider"] | string[] = ["together", "novita"]) {
  const moves: FailoverEvent[] = [];
  const changes: HealthEvent[] = [];
  try {
    const out = await c.chatCompletion(
      { model: MODEL, messages: QUESTION, provider: providers as string[] },
      { onFailover: (e) => moves.push(e), onHealth: (e) => changes.push(e) },
    );
    return { provider: out.served?.provider, text: out.choices[0]?.message.content, moves, changes };
  } catch (error) {
    return { provider: undefined, error, moves, changes };
  }
}

describe("a breaker against a provider that flaps", () => {
  it("opens at its threshold: the next calls send that provider nothing (hub.requests), a skip said as circuit-open", async () => {
    hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
    const c = client();
    const opened: HealthEvent[] = [];
    for (let i = 0; i < 3; i++) {
      const out = await ask(c);
      expect(out.provider).toBe("novita");
      opened.push(...out.changes);
    }
    expect(reached()).toEqual(["together", "novita", "together", "novita", "together", "novita"]);
    expect(opened).toEqual([{ type: "breaker", target: TOGETHER, state: "open", failures: 3, cooldownMs: 30_000 }]);
    for (let i = 0; i < 5; i++) {
      const out = await ask(c);
      expect(out.provider).toBe("novita");
      expect(out.moves).toEqual([{ from: TOGETHER, to: NOVITA, reason: "circuit-open" }]);
    }
    expect(count("together")).toBe(3);
    expect(count("novita")).toBe(8);
  });

  it("a threshold of its own: one failure opens it with threshold 1", async () => {
    hub.inject({ type: "refused" }, { model: MODEL, provider: "together" });
    const c = client({ health: { store, threshold: 1 } });
    await ask(c);
    await ask(c);
    expect(reached()).toEqual(["together", "novita", "novita"]);
  });

  it("down for 20 s, then up: skipped until the cooldown ends, one call probes it, its success closes the breaker and it is used again", async () => {
    hub.inject({ type: "serverError", status: 502, durationMs: 20_000 }, { model: MODEL, provider: "together" });
    const c = client();
    for (let i = 0; i < 3; i++) await ask(c);
    await vi.advanceTimersByTimeAsync(25_000); // together is up again, its breaker still open
    await ask(c);
    expect(reached().slice(6)).toEqual(["novita"]);
    await vi.advanceTimersByTimeAsync(5_000); // the cooldown ends: half-open
    const probe = await ask(c);
    expect(probe.provider).toBe("together");
    expect(probe.changes.map((e) => e.type === "breaker" && e.state)).toEqual(["half-open", "closed"]);
    for (let i = 0; i < 3; i++) expect((await ask(c)).provider).toBe("together");
    expect(reached().slice(7)).toEqual(["together", "together", "together", "together"]);
  });

  it("a probe that fails opens the breaker for another cooldown; the next probe after it recovers", async () => {
    hub.inject({ type: "serverError", status: 500, durationMs: 45_000 }, { model: MODEL, provider: "together" });
    const c = client();
    for (let i = 0; i < 3; i++) await ask(c);
    await vi.advanceTimersByTimeAsync(30_000);
    const failed = await ask(c); // together still down: the probe fails
    expect(failed.changes.map((e) => e.type === "breaker" && e.state)).toEqual(["half-open", "open"]);
    expect(reached().slice(6)).toEqual(["together", "novita"]);
    await vi.advanceTimersByTimeAsync(29_999);
    await ask(c);
    expect(reached().slice(8)).toEqual(["novita"]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await ask(c)).provider).toBe("together");
  });

  it("a 429's Retry-After is the cooldown: one 429 opens the breaker for as long as it says", async () => {
    hub.inject({ type: "rateLimit", retryAfter: 120, times: 1 }, { model: MODEL, provider: "together" });
    const c = client();
    const first = await ask(c);
    expect(first.changes).toEqual([
      { type: "breaker", target: TOGETHER, state: "open", failures: 1, cooldownMs: 120_000 },
    ]);
    await vi.advanceTimersByTimeAsync(119_999);
    expect((await ask(c)).provider).toBe("novita");
    expect(count("together")).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await ask(c)).provider).toBe("together");
  });

  it("a rate limit for 45 s without a Retry-After of its own: the seconds left of it are the cooldown, and together is back when it is", async () => {
    hub.inject({ type: "rateLimit", durationMs: 45_000 }, { model: MODEL, provider: "together" });
    const c = client();
    await vi.advanceTimersByTimeAsync(15_000);
    await ask(c); // retry-after: 30
    await vi.advanceTimersByTimeAsync(29_999);
    await ask(c);
    expect(reached()).toEqual(["together", "novita", "novita"]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await ask(c)).provider).toBe("together");
  });

  it.each([
    ["a 400", { type: "serverError", status: 400, body: '{"error":"Bad Request"}', contentType: "application/json" }],
    ["a 422", { type: "serverError", status: 422, body: '{"error":"Unprocessable"}', contentType: "application/json" }],
    ["a 401", { type: "unauthorized" }],
  ] as const)("%s (the caller's mistake) never opens one: together gets every call", async (_, fault) => {
    hub.inject(fault, { model: MODEL, provider: "together" });
    const c = client();
    for (let i = 0; i < 5; i++) expect((await ask(c)).error).toBeDefined();
    expect(reached()).toEqual(Array(5).fill("together"));
    expect(store.snapshot().find((h) => h.target === TOGETHER)?.failures ?? 0).toBe(0);
    expect(store.snapshot().every((h) => h.state === "closed")).toBe(true);
  });

  it("every target open still makes a request: the one whose cooldown ends first is tried, whatever the order", async () => {
    hub.inject({ type: "rateLimit", retryAfter: 100, times: 1 }, { model: MODEL, provider: "together" });
    hub.inject({ type: "rateLimit", retryAfter: 50, times: 1 }, { model: MODEL, provider: "novita" });
    const c = client();
    expect((await ask(c)).error).toBeDefined(); // both 429: both open
    expect(store.snapshot().map((h) => h.state)).toEqual(["open", "open"]);
    const out = await ask(c);
    expect(out.provider).toBe("novita");
    expect(out.moves).toEqual([{ from: TOGETHER, to: NOVITA, reason: "circuit-open" }]);
    expect(reached()).toEqual(["together", "novita", "novita"]);
  });

  it("both open and up again: the next call still sends one request (health never fails a call without one)", async () => {
    const down = [
      hub.inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "together" }),
      hub.inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "novita" }),
    ];
    const c = client();
    for (let i = 0; i < 3; i++) expect((await ask(c)).error).toBeDefined();
    expect(store.snapshot().map((h) => h.state)).toEqual(["open", "open"]);
    for (const rule of down) rule.remove();
    const out = await ask(c);
    expect(out.provider).toBe("together");
    expect(reached().slice(6)).toEqual(["together"]);
  });

  it("per credential: a breaker opened with one token does not skip the provider for another token", async () => {
    hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
    for (let i = 0; i < 3; i++) await ask(client());
    await ask(client());
    expect(reached().slice(6)).toEqual(["novita"]);
    await ask(client({}, "hf_AnotherAccountTokenBBBBBBBBBBBBBBBBBB"));
    expect(reached().slice(7)).toEqual(["together", "novita"]);
    const seen = store.snapshot().filter((h) => h.target === TOGETHER);
    expect(seen.map((h) => [h.state, h.failures])).toEqual([
      ["open", 3],
      ["closed", 1],
    ]);
    expect(new Set(seen.map((h) => h.credential)).size).toBe(2);
    expect(JSON.stringify(store.snapshot())).not.toMatch(/HealthHubToken|AnotherAccountToken/);
  });
});

describe("the order of the candidates", () => {
  /**
   * One whole chat whose first token is `slowMs` late on together (the hub's latency fault): the fake clock moves by
   * that much once together's request is in, so its time to first token is `slowMs` exactly, novita's 0.
   */
  async function timed(c: InferenceClient, slowMs: number): Promise<string | undefined> {
    const before = reached().length;
    let done = false;
    const call = ask(c).finally(() => (done = true));
    await until(() => done || reached().length > before);
    if (!done && reached().at(-1) === "together") await vi.advanceTimersByTimeAsync(slowMs);
    return (await call).provider;
  }

  it("latency: after warm-up the faster provider goes first, and some calls still explore the slower one", async () => {
    hub.inject({ type: "latency", delayMs: 300 }, { model: MODEL, provider: "together" });
    const warm = client({ routing: { sort: "latency", explore: 0 } });
    // Warm-up: each measured once (the unmeasured go first).
    expect([await timed(warm, 300), await timed(warm, 300)]).toEqual(["together", "novita"]);
    expect(store.snapshot().map((h) => [h.target, h.latencyMs])).toEqual([
      [TOGETHER, 300],
      [NOVITA, 0],
    ]);
    const c = client({ routing: { sort: "latency", explore: 0.1, random: seeded(3) } });
    const served: (string | undefined)[] = [];
    for (let i = 0; i < 100; i++) served.push(await timed(c, 300));
    const explored = served.filter((p) => p === "together").length;
    expect(served.filter((p) => p === "novita").length).toBeGreaterThanOrEqual(80);
    expect(explored).toBeGreaterThan(0); // together measured again
    expect(reached().slice(2)).toEqual(served); // each call one request: the order chose, nothing failed over
  });

  it("latency: once together is the faster, it goes first again", async () => {
    const slow = hub.inject({ type: "latency", delayMs: 300 }, { model: MODEL, provider: "together" });
    const c = client({ routing: { sort: "latency", explore: 0 } });
    for (let i = 0; i < 3; i++) await timed(c, 300);
    expect(reached().slice(1)).toEqual(["novita", "novita"]);
    slow.remove();
    hub.inject({ type: "latency", delayMs: 500 }, { model: MODEL, provider: "novita" });
    // novita slows down: its moving average passes together's 300 ms after a few calls.
    const after: (string | undefined)[] = [];
    for (let i = 0; i < 6; i++) {
      const before = reached().length;
      let done = false;
      const call = ask(c).finally(() => (done = true));
      await until(() => done || reached().length > before);
      if (!done && reached().at(-1) === "novita") await vi.advanceTimersByTimeAsync(500);
      after.push((await call).provider);
    }
    expect(after.at(-1)).toBe("together");
  });

  it("maxPrice: with the hub's catalog (/v1/models), novita (output $0.8) is skipped without a request under 0.7", async () => {
    const out = await client({ routing: { maxPrice: 0.7 } }).chatCompletion(
      { model: MODEL, messages: QUESTION, provider: ["novita", "together", "hf-inference"] },
      { onFailover: (e) => expect(e).toEqual({ from: NOVITA, to: TOGETHER, reason: "price" }) },
    );
    expect(out.served?.provider).toBe("together");
    expect(hub.requests.some((r) => r.method === "GET" && r.path === "/v1/models")).toBe(true);
    expect(reached()).toEqual(["together"]);
  });

  it("maxPrice below every listed price: the unpriced hf-inference is kept", async () => {
    const out = await client({ routing: { maxPrice: 0.1 } }).chatCompletion({
      model: MODEL,
      messages: QUESTION,
      provider: ["novita", "together", "hf-inference"],
    });
    expect(out.served?.provider).toBe("hf-inference");
    expect(reached()).toEqual(["hf-inference"]);
  });

  it("price: the cheapest in the catalog first (novita $0.2 + $0.8 before together $0.6 + $0.6), the unpriced last", async () => {
    hub.inject({ type: "serverError", status: 503, times: 1 }, { model: MODEL, provider: "novita" });
    const out = await client({ routing: { sort: "price", explore: 0 } }).chatCompletion({
      model: MODEL,
      messages: QUESTION,
      provider: ["hf-inference", "together", "novita"],
    });
    expect(out.served?.provider).toBe("together");
    expect(reached()).toEqual(["novita", "together"]);
  });

  it("weights 3:1 split 1,000 calls within ±4 points of 75% (seeded), each call one request", async () => {
    const c = client({ health: false, routing: { random: seeded(42) } });
    const weighted = [
      { name: "together", weight: 3 },
      { name: "novita", weight: 1 },
    ];
    for (let i = 0; i < 1000; i++) await c.chatCompletion({ model: MODEL, messages: QUESTION, provider: weighted });
    expect(reached()).toHaveLength(1000);
    const share = count("together") / 1000;
    expect(share).toBeGreaterThanOrEqual(0.71);
    expect(share).toBeLessThanOrEqual(0.79);
    expect(count("together") + count("novita")).toBe(1000);
  }, 60_000); // a count of calls, not a speed: room for a loaded machine
});

describe("hedged first tokens", () => {
  const stream = (c: InferenceClient, options?: Options) =>
    c.chatCompletionStream(
      { model: MODEL, messages: QUESTION, provider: ["together", "novita", "hf-inference"] },
      options,
    );

  it("starts at afterMs beside a provider slow to its first token; only the winner's tokens; the loser's stream closed; nothing after the first token", async () => {
    hub.inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "together" });
    const hedges: HealthEvent[] = [];
    const chunks = stream(client({ hedge: { afterMs: 800 }, onHealth: (e) => hedges.push(e) }));
    const first = chunks.next();
    await until(() => reached().length === 1);
    await vi.advanceTimersByTimeAsync(799);
    await turns();
    expect(reached()).toEqual(["together"]);
    expect(hub.openStreams()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const head = (await first).value as ChatCompletionStreamOutput;
    expect(reached()).toEqual(["together", "novita"]);
    expect(hedges).toEqual([
      { type: "hedge", from: TOGETHER, to: NOVITA },
      { type: "hedge", from: TOGETHER, to: NOVITA, winner: NOVITA },
    ]);
    const all = [head];
    for await (const chunk of { [Symbol.asyncIterator]: () => chunks }) all.push(chunk);
    expect(all.map((ch) => ch.choices[0]?.delta?.content ?? "").join("")).toBe(ANSWER);
    expect(all.every((ch) => ch.served?.provider === "novita")).toBe(true);
    expect(head.served?.hedge).toEqual({ from: TOGETHER, to: NOVITA, winner: NOVITA });
    // together's stream, still waiting out its minute on the hub, was closed by the client.
    await until(() => hub.openStreams() === 0);
    await vi.advanceTimersByTimeAsync(120_000);
    await turns();
    expect(reached()).toEqual(["together", "novita"]); // hf-inference never asked
    expect(store.snapshot().find((h) => h.target === TOGETHER)?.failures ?? 0).toBe(0);
  });

  it("the first provider gives its first token first: it wins, the hedge's stream is closed before any of its tokens", async () => {
    hub.inject({ type: "latency", delayMs: 1_000 }, { model: MODEL, provider: "together" });
    hub.inject({ type: "latency", delayMs: 1_000 }, { model: MODEL, provider: "novita" }); // its first at 1,500
    const chunks = stream(client({ hedge: { afterMs: 500 } }));
    const first = chunks.next();
    await until(() => reached().length === 1);
    await vi.advanceTimersByTimeAsync(500);
    await until(() => reached().length === 2);
    await vi.advanceTimersByTimeAsync(500);
    const head = (await first).value as ChatCompletionStreamOutput;
    expect(head.served).toMatchObject({ provider: "together", hedge: { winner: TOGETHER } });
    await until(() => hub.openStreams() === 1); // novita's closed
    await vi.advanceTimersByTimeAsync(5_000); // past novita's first token: none of it may come
    const all = [head];
    for await (const chunk of { [Symbol.asyncIterator]: () => chunks }) all.push(chunk);
    expect(all.map((ch) => ch.choices[0]?.delta?.content ?? "").join("")).toBe(ANSWER);
    expect(reached()).toEqual(["together", "novita"]);
  });

  it("under the call's one clock: the deadline ends both tries and closes both streams", async () => {
    hub.inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "together" });
    hub.inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "novita" });
    const chunks = stream(client({ hedge: { afterMs: 500 }, timeout: 2_000 }));
    const failed = chunks.next().catch((e: unknown) => e);
    await until(() => reached().length === 1);
    await vi.advanceTimersByTimeAsync(500);
    await until(() => reached().length === 2);
    expect(hub.openStreams()).toBe(2);
    await vi.advanceTimersByTimeAsync(1_500);
    const error = await failed;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("deadline");
    await until(() => hub.openStreams() === 0);
    expect(reached()).toEqual(["together", "novita"]);
  });

  it("under the call's abort: the caller's signal ends both tries", async () => {
    hub.inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "together" });
    hub.inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "novita" });
    const stop = new AbortController();
    const chunks = stream(client({ hedge: { afterMs: 500 } }), { signal: stop.signal });
    const failed = chunks.next().catch((e: unknown) => e);
    await until(() => reached().length === 1);
    await vi.advanceTimersByTimeAsync(500);
    await until(() => reached().length === 2);
    stop.abort();
    expect(((await failed) as Error).name).toBe("AbortError");
    await until(() => hub.openStreams() === 0);
    expect(store.snapshot().every((h) => h.failures === 0)).toBe(true);
  });
});

describe("a hedge after the observed percentile", () => {
  /** One chat over [together, novita] whose first token from together is `delayMs` late (the fake clock moved by it). */
  async function warm(c: InferenceClient, delayMs: number): Promise<void> {
    hub.inject({ type: "latency", delayMs, times: 1 }, { model: MODEL, provider: "together" });
    const before = reached().length;
    let done = false;
    const call = ask(c).finally(() => (done = true));
    await until(() => done || reached().length > before);
    await vi.advanceTimersByTimeAsync(delayMs);
    expect((await call).provider).toBe("together");
  }

  /** The ms after which a stream whose first provider never answers starts the second beside it. */
  async function hedgedAt(c: InferenceClient, bound: number): Promise<number> {
    hub.inject({ type: "latency", delayMs: 600_000, times: 1 }, { model: MODEL, provider: "together" });
    const before = reached().length;
    const chunks = c.chatCompletionStream({ model: MODEL, messages: QUESTION, provider: ["together", "novita"] });
    const first = chunks.next();
    await until(() => reached().length === before + 1);
    let waited = 0;
    for (; waited < bound && reached().length === before + 1; waited++) {
      await vi.advanceTimersByTimeAsync(1);
      await turns();
    }
    expect(((await first).value as ChatCompletionStreamOutput).served?.hedge?.winner).toBe(NOVITA);
    for await (const _ of { [Symbol.asyncIterator]: () => chunks }) void _;
    return waited;
  }

  it("with 20 observed times to first token (10 to 200 ms), the hedge starts at their p95: 190 ms, not afterMs", async () => {
    const c = client({ hedge: { percentile: 95, afterMs: 5_000 } });
    for (let i = 1; i <= 20; i++) await warm(c, 10 * i);
    expect(store.snapshot().find((h) => h.target === TOGETHER)?.latencies).toHaveLength(20);
    expect(await hedgedAt(c, 6_000)).toBe(190);
  });

  it("with 19 observed, too few: the hedge starts at afterMs", async () => {
    const c = client({ hedge: { percentile: 95, afterMs: 700 } });
    for (let i = 1; i <= 19; i++) await warm(c, 10 * i);
    expect(await hedgedAt(c, 6_000)).toBe(700);
  });

  it("a percentile alone: 1 s until the target has 20 observed times; the median with percentile 50", async () => {
    const c = client({ hedge: { percentile: 50 } });
    expect(await hedgedAt(c, 6_000)).toBe(1_000);
    hub.reset();
    for (let i = 1; i <= 20; i++) await warm(c, 10 * i);
    expect(await hedgedAt(c, 6_000)).toBe(100);
  });

  it("with health off nothing is observed: the hedge starts at afterMs", async () => {
    const c = client({ hedge: { percentile: 95, afterMs: 400 }, health: false });
    for (let i = 1; i <= 20; i++) await warm(c, 10);
    expect(await hedgedAt(c, 6_000)).toBe(400);
  });
});
