/**
 * The proxy's health: `GET /health/targets` answers loopback clients each target's health; with `health.redis` two
 * proxies share it (the second skips what the first's failures opened); a bad Redis URL is refused before binding;
 * a proxy without Redis never loads the Redis client.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { InputError, type TargetHealth } from "@hfkit/inference";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createProxy, startProxy } from "../src/index";
import { answerHealth, proxyHealth } from "../src/proxyHealth";
import { messages, TEXT, useHub } from "./helpers";
import { type RedisServer, startRedis, within } from "./redis-server";

const ioredis = vi.hoisted(() => ({ loaded: false }));
vi.mock("ioredis", async (real) => {
  ioredis.loaded = true;
  return real();
});

const ctx = useHub();
const MODEL = "hfkit/router-multi";
const TOGETHER = `${MODEL}:together`;
type Proxy = Awaited<ReturnType<typeof startProxy>>;

let redis: RedisServer;
beforeAll(async () => (redis = await startRedis()));
afterAll(() => redis.kill());

const start = (health: Parameters<typeof startProxy>[0]["health"]) =>
  startProxy({
    target: "https://router.huggingface.co",
    routerUrl: ctx.hub.url,
    provider: ["together", "novita"],
    maxRetries: 0,
    health,
    logger: { warn: () => undefined },
  });
const chat = (proxy: Proxy) =>
  new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "hf_caller_token_123456", maxRetries: 0 }).chat.completions.create({
    model: MODEL,
    messages,
  });
const targets = async (proxy: Proxy): Promise<TargetHealth[]> =>
  (await fetch(`${proxy.url}/health/targets`)).json() as Promise<TargetHealth[]>;
const sentTo = () =>
  ctx.hub.requests.filter((r) => r.method === "POST").map((r) => (r.body as { model: string }).model);

describe("GET /health/targets", () => {
  it("answers each target's breaker as the proxy's calls left it, without the client loading Redis", async () => {
    const proxy = await start({ threshold: 1, store: undefined });
    try {
      ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together", times: 1 });
      expect((await chat(proxy)).choices[0]?.message.content).toBe(TEXT);
      const together = (await targets(proxy)).find((h) => h.target === TOGETHER);
      expect(together).toMatchObject({ state: "open", failures: 1 });
      expect(JSON.stringify(await targets(proxy))).not.toContain("hf_caller_token");
      expect(ioredis.loaded).toBe(false);
    } finally {
      await proxy.close();
    }
  });

  it("health: false answers an empty list", async () => {
    const proxy = await start(false);
    await chat(proxy);
    expect(await targets(proxy)).toEqual([]);
    await proxy.close();
  });

  it("is answered to loopback clients only", () => {
    const health = proxyHealth(
      { store: { get: () => undefined, record: () => undefined, snapshot: () => [], now: Date.now } },
      undefined,
    );
    const answered = (remoteAddress: string) => {
      let status = 0;
      const res = { writeHead: (s: number) => ((status = s), { end: () => undefined }) } as unknown as ServerResponse;
      answerHealth({ socket: { remoteAddress } } as IncomingMessage, res, health);
      return status;
    };
    expect(["127.0.0.1", "::1", "::ffff:127.0.0.1"].map(answered)).toEqual([200, 200, 200]);
    expect(["10.0.0.2", "192.168.1.20", "::ffff:10.0.0.2", ""].map(answered)).toEqual([404, 404, 404, 404]);
  });
});

describe("health.redis", () => {
  it("two proxies share it: the second sends nothing to what the first's failures opened", async () => {
    const [one, two] = await Promise.all([
      start({ redis: redis.url, threshold: 2 }),
      start({ redis: redis.url, threshold: 2 }),
    ]);
    try {
      ctx.hub.inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "together" });
      for (let i = 0; i < 2; i++) expect((await chat(one)).choices[0]?.message.content).toBe(TEXT);
      expect(ioredis.loaded).toBe(true);
      await within(1000, async () => (await targets(two)).some((h) => h.target === TOGETHER && h.state === "open"));
      ctx.hub.requests.length = 0;
      expect((await chat(two)).choices[0]?.message.content).toBe(TEXT);
      expect(sentTo()).toEqual([`${MODEL}:novita`]);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("a URL that is not a Redis one, or one beside a store, is an InputError naming health.redis before binding", () => {
    for (const health of [
      { redis: "http://127.0.0.1:6379" },
      { redis: redis.url, store: proxyHealth(undefined, undefined) as never },
    ]) {
      let error: unknown;
      try {
        createProxy({ target: ctx.hub.url, health });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ field: "health.redis" });
    }
  });
});
