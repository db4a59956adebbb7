/**
 * A latency fault: a wait before a stream's first event (its status line at once) or before a whole answer,
 * fixed or drawn from a seeded log-normal. Timed on vitest's fake clock over real loopback HTTP: an arrival is
 * stamped with the fake `Date.now()`, which only moves when the test moves it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { latencyMs } from "../src/latency.js";
import type { LatencyFault } from "../src/index.js";
import { contentOf, QUESTION, useHub } from "./helpers.js";

const MODEL = "hfkit/router-multi";
const TEXT = "The capital of France is Paris.";
const hub = useHub();

/** The router's chat route, for `target` (`model:provider`). */
function chat(target: string, extra: Record<string, unknown> = {}, signal?: AbortSignal): Promise<Response> {
  const body = JSON.stringify({ model: target, messages: QUESTION, ...extra });
  return fetch(`${hub().url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    signal,
  });
}

afterEach(() => void vi.useRealTimers());

/** Real I/O turns (`setImmediate` and `performance` are not faked) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition() && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

/** A whole answer from another provider: a loopback round trip, in which an early write would have arrived. */
async function roundTrip(): Promise<void> {
  await (await chat(`${MODEL}:novita`)).text();
}

/**
 * `arrival` (resolving to the fake `Date.now()` it came at) has not come `ms - 1` after `t0`, and comes at `ms`.
 * The hub schedules its wait within the turn it records the request (no I/O in between): `seen` requests.
 */
async function expectArrival(arrival: Promise<number>, t0: number, ms: number, seen: number): Promise<void> {
  let at: number | undefined;
  void arrival.then((time) => (at = time));
  await until(() => hub().requests.length >= seen);
  await new Promise((resolve) => setImmediate(resolve));
  await vi.advanceTimersByTimeAsync(ms - 1);
  await roundTrip();
  expect(at).toBeUndefined();
  await vi.advanceTimersByTimeAsync(1);
  await until(() => at !== undefined);
  expect(at! - t0).toBe(ms);
}

describe("on the wire (fake clock)", () => {
  it("a stream: status line and provider at once, the first event after delayMs, then the whole answer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    hub().inject({ type: "latency", delayMs: 2_000 }, { model: MODEL, provider: "together" });
    const t0 = Date.now();
    const response = await chat(`${MODEL}:together`, { stream: true });
    expect([response.status, response.headers.get("x-inference-provider"), Date.now()]).toEqual([200, "together", t0]);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const first = reader.read().then(({ value }) => ((text = decoder.decode(value, { stream: true })), Date.now()));
    await expectArrival(first, t0, 2_000, 1);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += decoder.decode(chunk.value, { stream: true });
    expect(contentOf(text)).toBe(TEXT);
  });

  it("a whole answer: its status line after delayMs; the router's other providers answer meanwhile", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const rule = hub().inject({ type: "latency", delayMs: 1_500, times: 1 }, { model: MODEL, provider: "together" });
    const t0 = Date.now();
    const answered = chat(`${MODEL}:together`);
    await expectArrival(
      answered.then(() => Date.now()),
      t0,
      1_500,
      1,
    );
    expect((await (await answered).json()) as unknown).toMatchObject({ choices: [{ message: { content: TEXT } }] });
    expect([rule.hits, rule.active]).toEqual([1, false]);
    const t1 = Date.now();
    await (await chat(`${MODEL}:together`)).text(); // used up: no wait, the clock still
    expect(Date.now()).toBe(t1);
  });

  it("drawn waits: the n-th request waits latencyMs(fault, n), the same on every run", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const fault: LatencyFault = { type: "latency", p50Ms: 200, p99Ms: 2_000, seed: 42 };
    hub().inject(fault, { model: MODEL, provider: "together" });
    const waits = [1, 2, 3].map((n) => latencyMs(fault, n));
    expect(new Set(waits).size).toBe(3);
    for (const [i, wait] of waits.entries()) {
      const t0 = Date.now();
      const answered = chat(`${MODEL}:together`);
      await expectArrival(
        answered.then(() => Date.now()),
        t0,
        wait,
        2 * i + 1,
      ); // each arrival's round trip is one more
      await (await answered).text();
    }
  });
});

describe("a client that leaves during the wait", () => {
  const lines: string[] = [];
  const logged = useHub({ log: (line) => lines.push(line) });

  it("ends it: a whole answer's wait stops at once; a stream's body is released", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    lines.length = 0;
    logged().inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "together" });
    const leaving = new AbortController();
    const body = JSON.stringify({ model: `${MODEL}:together`, messages: QUESTION });
    const whole = fetch(`${logged().url}/v1/chat/completions`, { method: "POST", body, signal: leaving.signal });
    await until(() => logged().requests.length === 1);
    expect(lines).toEqual([]); // waiting
    leaving.abort();
    await expect(whole).rejects.toMatchObject({ name: "AbortError" });
    await until(() => lines.length === 1); // answered at once, with no clock move
    expect(lines[0]).toMatch(/ 200 0ms fault=latency$/);
    const stream = await fetch(`${logged().url}/v1/chat/completions`, {
      method: "POST",
      body: body.replace("}]", '}],"stream":true'),
    });
    expect(logged().openStreams()).toBe(1);
    await stream.body!.cancel();
    await until(() => logged().openStreams() === 0);
  });
});

describe("the draws", () => {
  const fault: LatencyFault = { type: "latency", p50Ms: 100, p99Ms: 1_000, seed: 7 };
  const draws = (f: LatencyFault, count: number) => Array.from({ length: count }, (_, i) => latencyMs(f, i + 1));
  const quantile = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;

  it("log-normal with the p50 and p99 asked (20,000 draws: within 5% and 10%), heavy-tailed", () => {
    const values = draws(fault, 20_000);
    expect(Math.abs(quantile(values, 0.5) / 100 - 1)).toBeLessThan(0.05);
    expect(Math.abs(quantile(values, 0.99) / 1_000 - 1)).toBeLessThan(0.1);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeGreaterThan(2_000);
    expect(values.every(Number.isInteger)).toBe(true);
  });

  it("a seed gives the same waits every time; another seed, others; p99 = p50 is fixed; delayMs is as given", () => {
    expect(draws(fault, 50)).toEqual(draws({ ...fault }, 50));
    expect(draws({ ...fault, seed: 8 }, 50)).not.toEqual(draws(fault, 50));
    expect(new Set(draws(fault, 50)).size).toBeGreaterThan(40);
    expect(draws({ type: "latency", p50Ms: 300, p99Ms: 300 }, 5)).toEqual([300, 300, 300, 300, 300]);
    expect(latencyMs({ type: "latency", delayMs: 250 }, 9)).toBe(250);
  });
});
