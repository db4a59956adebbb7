/**
 * One health for a fleet, end to end: two `hfkit proxy --health-redis` processes and one real `redis-server`. The
 * second skips what the first's failures opened, within a second; with Redis killed both keep answering, each says
 * so once, and a call costs no more than a stated bound; with Redis restarted they share again. No token in Redis.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REACHABLE, UNREACHABLE } from "../src/redisHealth";
import { useHub } from "./helpers";
import { type RedisServer, startRedis, within } from "./redis-server";

const BIN = fileURLToPath(new URL("../../cli/bin/hfkit.mjs", import.meta.url));
const MODEL = "hfkit/router-multi";
const TOGETHER = `${MODEL}:together`;
const NOVITA = `${MODEL}:novita`;
/** The slowest a call may get with Redis down than with it up (the median of 10 calls each), in ms. */
const ADDED_MS_BOUND = 50;

const ctx = useHub();

interface Replica {
  url: string;
  stderr: () => string;
  child: ChildProcess;
}

async function replica(redisUrl: string): Promise<Replica> {
  const args = [BIN, "proxy", "--target", "https://router.huggingface.co", "--router-url", ctx.hub.url];
  const child = spawn(process.execPath, [...args, "--provider", "together,novita", "--health-redis", redisUrl], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").once("data", (c: string) => resolve(c.trim().split("\n")[0]!));
    child.once("exit", (code) => reject(new Error(`hfkit proxy exited (${code}): ${stderr}`)));
  });
  return { url, stderr: () => stderr, child };
}

let redis: RedisServer;
let one: Replica;
let two: Replica;
beforeAll(async () => {
  redis = await startRedis();
  [one, two] = await Promise.all([replica(redis.url), replica(redis.url)]);
}, 20_000);
afterAll(async () => {
  for (const r of [one, two]) r?.child.kill("SIGTERM");
  await Promise.all([one, two].map((r) => r && new Promise((resolve) => r.child.once("exit", resolve))));
  await redis.kill();
});

/** One chat through `r` with `token`: its status, who served it, how long it took. */
async function chat(r: Replica, token: string): Promise<{ status: number; provider: string | null; ms: number }> {
  const start = performance.now();
  const res = await fetch(`${r.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
  });
  await res.text();
  return { status: res.status, provider: res.headers.get("x-inference-provider"), ms: performance.now() - start };
}

const sentTo = () =>
  ctx.hub.requests.filter((r) => r.method === "POST").map((r) => (r.body as { model: string }).model);
const opened = async (r: Replica, count: number): Promise<boolean> => {
  const targets = (await (await fetch(`${r.url}/health/targets`)).json()) as Array<{ target: string; state: string }>;
  return targets.filter((h) => h.target === TOGETHER && h.state === "open").length >= count;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Three failures of together through replica one (its default threshold) with `token`; then replica two sends it nothing. */
async function openOnOneSkipOnTwo(token: string, count: number): Promise<number> {
  for (let i = 0; i < 3; i++) expect(await chat(one, token)).toMatchObject({ status: 200, provider: "novita" });
  const ms = await within(1000, () => opened(two, count));
  ctx.hub.requests.length = 0;
  expect(await chat(two, token)).toMatchObject({ status: 200, provider: "novita" });
  expect(sentTo()).toEqual([NOVITA]);
  return ms;
}

it("two proxies share health through Redis, keep answering without it, and share again once it is back", async () => {
  ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
  expect(await openOnOneSkipOnTwo("hf_fleet_first_token_0123456789", 1)).toBeLessThan(1000);

  const up: number[] = [];
  for (let i = 0; i < 10; i++) up.push((await chat(one, "hf_fleet_first_token_0123456789")).ms);
  await redis.kill();
  await within(3000, () => one.stderr().includes(UNREACHABLE) && two.stderr().includes(UNREACHABLE));
  const down: number[] = [];
  for (let i = 0; i < 10; i++) {
    const call = await chat(i % 2 ? two : one, "hf_fleet_first_token_0123456789");
    expect(call).toMatchObject({ status: 200, provider: "novita" });
    down.push(call.ms);
  }
  expect(median(down) - median(up)).toBeLessThan(ADDED_MS_BOUND);

  redis = await startRedis(redis.port);
  await within(5000, () => one.stderr().includes(REACHABLE) && two.stderr().includes(REACHABLE));
  for (const r of [one, two]) expect(r.stderr().split(UNREACHABLE).length - 1).toBe(1);
  // A breaker per credential: another caller's opens afresh, and is shared again.
  expect(await openOnOneSkipOnTwo("hf_fleet_second_token_abcdefghij", 2)).toBeLessThan(1000);

  const reader = new Redis(redis.url);
  const keys = await reader.keys("*");
  const text = [...keys, ...(await Promise.all(keys.map((k) => reader.get(k))))].join("\n");
  reader.disconnect();
  expect(text).toContain(TOGETHER);
  expect(text).not.toMatch(/hf_fleet|fleet_(first|second)_token/);
}, 30_000);
