import { expect, it } from "vitest";
import { parseFaultSpec } from "../src/commands/mockHubSpec";
import { Child, hfkit, postChat, started } from "./run";

it("flap specs: durationMs on any fault, latency fixed or drawn, rateLimit's Retry-After; out of range is a usage error naming the field", async () => {
  expect(parseFaultSpec("stall:afterChunks=0,times=100@hfkit/router-multi:together")).toEqual({
    fault: { type: "stall", afterChunks: 0, times: 100 },
    model: "hfkit/router-multi",
    provider: "together",
  });
  expect(parseFaultSpec("refused:durationMs=5000@:novita").fault).toEqual({ type: "refused", durationMs: 5000 });
  expect(parseFaultSpec("latency:delayMs=800@:novita").fault).toEqual({ type: "latency", delayMs: 800 });
  expect(parseFaultSpec("latency:p50Ms=200,p99Ms=2000,seed=7").fault).toEqual({
    type: "latency",
    p50Ms: 200,
    p99Ms: 2000,
    seed: 7,
  });
  expect(parseFaultSpec("rateLimit:retryAfter=5,durationMs=30000@:together").fault).toEqual({
    type: "rateLimit",
    retryAfter: 5,
    durationMs: 30000,
  });
  expect(parseFaultSpec("loading:estimatedTime=5,durationMs=1000").fault).toEqual({
    type: "loading",
    estimatedTime: 5,
    durationMs: 1000,
  });
  for (const [spec, message] of [
    ["latency@:novita", "--fault latency: it takes delayMs, or both p50Ms and p99Ms"],
    ["latency:p50Ms=500,p99Ms=100", "--fault latency: p99Ms must be a number of ms >= p50Ms (500) (got 100)"],
    ["latency:p50Ms=0,p99Ms=100", "--fault latency: p50Ms must be a number of ms > 0 (got 0)"],
    [
      "latency:delayMs=5,p50Ms=1,p99Ms=2",
      "--fault latency: delayMs (a fixed wait) cannot go with p50Ms / p99Ms (a drawn one)",
    ],
    ["latency:p50Ms=1,p99Ms=2,seed=1.5", "--fault latency: seed must be an integer (got 1.5)"],
    [
      "serverError:durationMs=0",
      "--fault serverError: durationMs must be a number of ms > 0, or Infinity for no end (got 0)",
    ],
    ["stall:afterChunks=0,times=0", "--fault stall: times must be an integer >= 1 (got 0)"],
    ["rateLimit:retryAfter=2.5", "--fault rateLimit: retryAfter must be an integer number of seconds >= 0 (got 2.5)"],
  ]) {
    expect(() => parseFaultSpec(spec ?? ""), spec).toThrow(message);
  }
  const run = await hfkit(["mock-hub", "--fault", "latency:p50Ms=9,p99Ms=3"]);
  expect(run).toMatchObject({
    code: 2,
    stderr: expect.stringContaining("--fault latency: p99Ms must be a number of ms >= p50Ms (9) (got 3)"),
  });
});

it("mock-hub --fault: a 429 with Retry-After for N requests, a latency, a provider down for a time, on one hub", async () => {
  const hub = new Child([
    "mock-hub",
    "--port",
    "0",
    "--fault",
    "rateLimit:retryAfter=5,times=2@hfkit/router-multi:together",
    "--fault",
    "latency:delayMs=1@:novita",
    "--fault",
    "refused:durationMs=600000@:hf-inference",
  ]);
  const url = await started(hub);
  const post = (model: string) => postChat(url, model);
  try {
    for (const status of [429, 429, 200]) {
      const answer = await post("hfkit/router-multi:together");
      expect([answer.status, answer.headers.get("retry-after")]).toEqual([status, status === 429 ? "5" : null]);
      await answer.text();
    }
    expect((await post("hfkit/router-multi:novita")).status).toBe(200);
    await expect(post("hfkit/router-multi:hf-inference")).rejects.toThrow(TypeError);
  } finally {
    hub.process.kill("SIGINT");
  }
  expect((await hub.exited).code).toBe(0);
  expect(hub.stderr).toMatch(
    /^POST \/v1\/chat\/completions model=hfkit\/router-multi:novita 200 \d+ms fault=latency$/m,
  );
});
