/**
 * Health's options checked before any request; health seen: the snapshot (the process's, via healthSnapshot()),
 * observe's breaker events; a stream's timeout before its first token counts; the memory is bounded.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type CallEvent, forgetHealth, healthSnapshot, InputError, type Options } from "../../src/index";
import { HealthMemory } from "../../src/features/health";
import { type FakeRouter, fakeRouter, MODEL, QUESTION } from "./router";

let router: FakeRouter;
beforeAll(async () => (router = await fakeRouter()));
afterAll(() => router.raw.close());
beforeEach(() => router.reset());

const A = `${MODEL}:a`;
const B = `${MODEL}:b`;
const ask = (options: Options) =>
  router.client(options).chatCompletion({ model: MODEL, messages: QUESTION, provider: ["a", "b"] });

it.each([
  [{ threshold: 0 }, "health.threshold", "an integer from 1 to 1000"],
  [{ threshold: 1.5 }, "health.threshold", "an integer from 1 to 1000"],
  [{ cooldown: -1 }, "health.cooldown", "from 1 to 86400000"],
  [{ cooldown: 1e15 }, "health.cooldown", "from 1 to 86400000"],
  [{ window: 10 }, "health.window", "from 1000 to 86400000"],
  [{ ratio: 2 }, "health.ratio", "above 0 to 1"],
  [{ minimumCalls: "3" }, "health.minimumCalls", "an integer"],
  [{ store: {} }, "health.store", "get, record, snapshot and now"],
])("health %j is an InputError naming %s and its range, before any request", async (health, field, range) => {
  router.behaviours = { [A]: "ok", [B]: "ok" };
  const error = await ask({ health: health as Options["health"] }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).field).toBe(field);
  expect((error as Error).message).toContain(range);
  expect(router.sent()).toEqual([]);
});

it("health that is not false or an object is an InputError", async () => {
  const error = await ask({ health: "on" as unknown as Options["health"] }).catch((e: unknown) => e);
  expect((error as InputError).field).toBe("health");
  expect(router.sent()).toEqual([]);
});

it("observe is told when a breaker opens, half-opens and closes", async () => {
  const events: CallEvent[] = [];
  const observe = (e: CallEvent) => events.push(e);
  router.behaviours = { [A]: { status: 500 }, [B]: "ok" };
  for (let i = 0; i < 3; i++) await ask({ observe });
  router.clock.now += 30_000;
  router.behaviours[A] = "ok";
  await ask({ observe });
  const breakers = events.filter((e) => e.type === "breaker");
  expect(breakers.map((e) => e.type === "breaker" && [e.target, e.state])).toEqual([
    [A, "open"],
    [A, "half-open"],
    [A, "closed"],
  ]);
  const calls = events.filter((e) => e.type === "start").map((e) => e.call);
  expect(breakers[0]?.call).toBe(calls[2]);
  expect(breakers[2]?.call).toBe(calls[3]);
});

it("the process's health is listed by healthSnapshot(): state, failures, cooldown end, latency; no token", async () => {
  router.behaviours = { [A]: { status: 500 }, [B]: { advance: 40 } };
  const client = router.client({ health: {} });
  for (let i = 0; i < 3; i++) await client.chatCompletion({ model: MODEL, messages: QUESTION, provider: ["a", "b"] });
  const seen = healthSnapshot();
  const a = seen.find((h) => h.target === A);
  const b = seen.find((h) => h.target === B);
  expect(a).toMatchObject({ state: "open", failures: 3, calls: 3 });
  expect(a?.cooldownUntil).toBeGreaterThan(Date.now());
  expect(b).toMatchObject({ state: "closed", failures: 0, served: 3 });
  expect(b?.latencyMs).toBeGreaterThanOrEqual(0);
  expect(JSON.stringify(seen)).not.toContain("HealthSecretToken");
});

it("forgetHealth() forgets the process's health: the snapshot empty, the open target tried again at once", async () => {
  router.behaviours = { [A]: { status: 500 }, [B]: "ok" };
  const client = router.client({ health: {} });
  const call = () => client.chatCompletion({ model: MODEL, messages: QUESTION, provider: ["a", "b"] });
  for (let i = 0; i < 3; i++) await call();
  expect(healthSnapshot().find((h) => h.target === A)?.state).toBe("open");
  router.reset();
  router.behaviours = { [A]: "ok", [B]: "ok" };
  await call();
  expect(router.sent()).toEqual([B]); // still open: skipped
  forgetHealth();
  expect(healthSnapshot()).toEqual([]);
  router.reset();
  router.behaviours = { [A]: "ok", [B]: "ok" };
  await call();
  expect(router.sent()).toEqual([A]);
});

it("latency and throughput are observed in the store's clock", async () => {
  router.behaviours = { [A]: { advance: 400 }, [B]: "ok" };
  await ask({});
  const a = router.store.snapshot().find((h) => h.target === A);
  expect(a?.latencyMs).toBe(400);
  expect(a?.tokensPerSecond).toBe(50); // 20 tokens in 400 ms
});

it("a stream's timeout before its first token counts as a failure", async () => {
  router.behaviours = { [A]: "stall", [B]: "ok" };
  const client = router.client({ firstChunkTimeout: 50 });
  for (let i = 0; i < 3; i++) {
    for await (const _ of client.chatCompletionStream({ model: MODEL, messages: QUESTION, provider: ["a", "b"] }))
      void _;
  }
  expect(router.store.snapshot().find((h) => h.target === A)).toMatchObject({ state: "open", failures: 3 });
  router.raw.requests.length = 0;
  for await (const _ of client.chatCompletionStream({ model: MODEL, messages: QUESTION, provider: ["a", "b"] })) void _;
  expect(router.sent()).toEqual([B]);
});

it("the process's memory is bounded: past its capacity the least recently used target goes first", () => {
  const memory = new HealthMemory(() => 0, 2);
  for (const t of ["x", "y", "z"])
    memory.record(t, { target: t, state: "closed", failures: 0, calls: 0, served: 0, recent: [] });
  expect(memory.snapshot().map((h) => h.target)).toEqual(["y", "z"]);
});
