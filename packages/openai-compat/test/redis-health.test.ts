/**
 * Health shared through a real `redis-server` on loopback: what one store records, another sees within a second (and
 * loads at start); calls made through the inference open a breaker in one replica that the other skips; no token
 * reaches Redis; Redis killed mid-run or hanging never fails or delays a call, each store says so once, and a
 * restarted Redis is shared again.
 */
import { InferenceClient, InputError, type TargetHealth } from "@hfkit/inference";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  REACHABLE,
  type RedisHealthOptions,
  type RedisHealthStore,
  redisHealthStore,
  UNREACHABLE,
} from "../src/redisHealth";
import { messages, TEXT, useHub } from "./helpers";
import { type RedisServer, silentServer, startRedis, within } from "./redis-server";

const ctx = useHub();
const MODEL = "hfkit/router-multi";
const TOGETHER = `${MODEL}:together`;
const TOKEN = "hf_SharedHealthSecret0123456789abcdef";

let redis: RedisServer;
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis.kill());

/** Every store a test opens, closed after it; each with its own log. */
const opened: RedisHealthStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await flushAll();
});

function store(url = redis.url, options: RedisHealthOptions = {}): { store: RedisHealthStore; lines: string[] } {
  const lines: string[] = [];
  const s = redisHealthStore(url, { logger: { warn: (line) => lines.push(line) }, ...options });
  opened.push(s);
  return { store: s, lines };
}

async function flushAll(): Promise<void> {
  const r = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await r
    .connect()
    .then(() => r.flushall())
    .catch(() => undefined);
  r.disconnect();
}

const open = (target: string, now = Date.now()): TargetHealth => ({
  target,
  state: "open",
  failures: 3,
  calls: 3,
  served: 0,
  cooldownUntil: now + 30_000,
  recent: [1, 2, 3].map((i) => ({ at: now - i, failed: true })),
});

/** A client of the mock hub's router over [together, novita], its health in `s`. */
const client = (s: RedisHealthStore) =>
  new InferenceClient(TOKEN, { routerUrl: ctx.hub.url, maxRetries: 0, health: { store: s, threshold: 2 } });
const chat = (c: InferenceClient) => c.chatCompletion({ model: MODEL, provider: ["together", "novita"], messages });
const sentTo = () =>
  ctx.hub.requests.filter((r) => r.method === "POST").map((r) => (r.body as { model: string }).model);

describe("a Redis URL that is not one", () => {
  it.each([["http://:secret@127.0.0.1:PORT"], ["127.0.0.1:PORT"], [""], ["redis//127.0.0.1:PORT"], [6379]])(
    "%j is an InputError naming health.redis, before anything is sent, never echoing it",
    async (given) => {
      const silent = await silentServer();
      const port = silent.url.split(":").pop()!;
      const url = typeof given === "string" ? given.replace("PORT", port) : given;
      const error = (() => {
        try {
          redisHealthStore(url as string);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ field: "health.redis" });
      expect((error as Error).message).not.toContain("secret");
      await new Promise((r) => setTimeout(r, 50));
      expect(silent.sockets.size).toBe(0);
      await silent.close();
    },
  );

  it("a bad option is an InputError naming it", () => {
    expect(() => redisHealthStore(redis.url, { timeout: 0 })).toThrow(expect.objectContaining({ field: "timeout" }));
    expect(() => redisHealthStore(redis.url, { ttl: 1.5 })).toThrow(expect.objectContaining({ field: "ttl" }));
    expect(() => redisHealthStore(redis.url, { prefix: "a b" })).toThrow(expect.objectContaining({ field: "prefix" }));
  });
});

describe("two stores on one Redis", () => {
  it("what one records the other sees within a second; a store started later loads it", async () => {
    const one = store();
    const two = store();
    expect(await one.store.ready()).toBe(true);
    expect(await two.store.ready()).toBe(true);
    one.store.record(`${TOGETHER}|abc`, open(TOGETHER));
    const ms = await within(1000, () => two.store.get(`${TOGETHER}|abc`)?.state === "open");
    expect(ms).toBeLessThan(1000);
    const three = store();
    expect(await three.store.ready()).toBe(true);
    expect(three.store.get(`${TOGETHER}|abc`)).toEqual(one.store.get(`${TOGETHER}|abc`));
    expect(three.store.snapshot().map((h) => h.target)).toEqual([TOGETHER]);
    expect([...one.lines, ...two.lines, ...three.lines]).toEqual([]);
  });

  it("stores with another prefix share nothing", async () => {
    const one = store();
    const other = store(redis.url, { prefix: "another:fleet" });
    await Promise.all([one.store.ready(), other.store.ready()]);
    one.store.record("x:y", open("x:y"));
    await new Promise((r) => setTimeout(r, 200));
    expect(other.store.get("x:y")).toBeUndefined();
  });

  it("a breaker opened by one replica's calls is skipped by the other's, which sends it nothing", async () => {
    const one = store();
    const two = store();
    await Promise.all([one.store.ready(), two.store.ready()]);
    ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
    for (let i = 0; i < 2; i++) expect((await chat(client(one.store))).choices[0]?.message.content).toBe(TEXT);
    expect(sentTo()).toEqual([TOGETHER, `${MODEL}:novita`, TOGETHER, `${MODEL}:novita`]);
    const opened = (s: RedisHealthStore) => s.snapshot().some((h) => h.target === TOGETHER && h.state === "open");
    expect(await within(1000, () => opened(two.store))).toBeLessThan(1000);
    ctx.hub.requests.length = 0;
    expect((await chat(client(two.store))).choices[0]?.message.content).toBe(TEXT);
    expect(sentTo()).toEqual([`${MODEL}:novita`]);
  });

  it("no key, value or message in Redis carries the token", async () => {
    const one = store();
    await one.store.ready();
    const watcher = new Redis(redis.url);
    const heard: string[] = [];
    await watcher.subscribe("hfkit:health:changes");
    watcher.on("message", (_c: string, m: string) => heard.push(m));
    ctx.hub.inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "together", times: 1 });
    await chat(client(one.store));
    await chat(client(one.store));
    await within(1000, () => heard.length >= 3);
    watcher.disconnect();
    const reader = new Redis(redis.url);
    const keys = await reader.keys("*");
    const values = await Promise.all(keys.map((k) => reader.get(k)));
    reader.disconnect();
    expect(keys.length).toBeGreaterThan(0);
    const everything = [...keys, ...values, ...heard].join("\n");
    expect(everything).toContain(TOGETHER);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(TOKEN.slice(3, 20));
    // The key is the target and the credential's hash, as the value's `credential`.
    const credential = (JSON.parse(values[0]!) as TargetHealth).credential!;
    expect(credential).toMatch(/^[0-9a-z]{8,14}$/);
    expect(keys[0]).toMatch(new RegExp(`^hfkit:health:${MODEL}:(together|novita)\\|${credential}$`));
  });
});

describe("Redis down", () => {
  it("killed mid-run: calls keep answering, each store says it once; restarted: what was learnt meanwhile is shared", async () => {
    const own = await startRedis();
    const one = store(own.url, { maxQueued: 5 });
    const two = store(own.url);
    await Promise.all([one.store.ready(), two.store.ready()]);
    await own.kill();
    await within(2000, () => one.lines.length > 0 && two.lines.length > 0);
    for (let i = 0; i < 5; i++) expect((await chat(client(one.store))).choices[0]?.message.content).toBe(TEXT);
    // Reconnects go on with their backoff; nothing more is said.
    await new Promise((r) => setTimeout(r, 600));
    expect([one.lines, two.lines]).toEqual([[UNREACHABLE], [UNREACHABLE]]);
    expect([one.store.sharing, two.store.sharing]).toEqual([false, false]);
    // Learnt while down, kept in this process's memory, at most `maxQueued` of it waiting for Redis.
    for (let i = 0; i < 10; i++) one.store.record(`t${i}:p`, open(`t${i}:p`));
    expect(one.store.get("t0:p")?.state).toBe("open");
    expect(two.store.get("t9:p")).toBeUndefined();
    const again = await startRedis(own.port);
    try {
      await within(5000, () => one.store.sharing && two.store.sharing);
      expect([one.lines, two.lines]).toEqual([
        [UNREACHABLE, REACHABLE],
        [UNREACHABLE, REACHABLE],
      ]);
      await within(1000, () => two.store.get("t9:p")?.state === "open");
      expect(two.store.get("t4:p")).toBeUndefined();
      one.store.record("after:p", open("after:p"));
      await within(1000, () => two.store.get("after:p") !== undefined);
    } finally {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      await again.kill();
    }
  });

  it("a Redis that takes connections and never answers: calls complete before it was ever heard from", async () => {
    const silent = await silentServer();
    const hung = store(silent.url);
    let settled = false;
    void hung.store.ready().then(() => (settled = true));
    ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
    for (let i = 0; i < 3; i++) expect((await chat(client(hung.store))).choices[0]?.message.content).toBe(TEXT);
    // Its breaker opened in this process's memory while Redis said nothing at all.
    expect(settled).toBe(false);
    expect(silent.sockets.size).toBeGreaterThan(0);
    expect(hung.store.snapshot().find((h) => h.target === TOGETHER)?.state).toBe("open");
    expect(await hung.store.ready()).toBe(false);
    expect(hung.lines).toEqual([UNREACHABLE]);
    await hung.store.close();
    await silent.close();
  });
});
