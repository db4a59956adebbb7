import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMockHub, type MockHubCore, startMockHub } from "../src/index.js";
import { QUESTION, chatUrl, postJson, useHub, waitFor } from "./helpers.js";

const hub = useHub();
const MODEL = "hfkit/tgi-3.2";
const chat = (headers: Record<string, string> = {}, model = MODEL) =>
  postJson(chatUrl(hub(), model), { messages: QUESTION }, headers);

describe("model loading", () => {
  it("503 with estimated_time while loading, then normal answers", async () => {
    const rule = hub().inject({ type: "loading", estimatedTime: 39.5 }, { model: MODEL, times: 1 });
    const loading = await chat();
    expect(loading.status).toBe(503);
    expect(await loading.json()).toEqual({ error: `Model ${MODEL} is currently loading`, estimated_time: 39.5 });
    expect(rule).toMatchObject({ hits: 1, remaining: 0, active: false });
    expect((await chat()).status).toBe(200);
  });
});

describe("model loading, on the hub's own clock (the core with fake timers)", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const post = (core: MockHubCore, headers: Record<string, string> = {}) =>
    core.handle(
      new Request(`http://hub.test/models/${MODEL}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ messages: QUESTION }),
      }),
    );
  /** A response promise and whether it has settled yet. */
  const watched = (response: Promise<Response>) => {
    const state = { settled: false, response };
    void response.then(() => (state.settled = true));
    return state;
  };

  it("x-wait-for-model: true holds the request until loading ends, then answers it", async () => {
    const core = createMockHub();
    core.inject({ type: "loading", estimatedTime: 1, durationMs: 250 }, { model: MODEL });
    const held = watched(post(core, { "x-wait-for-model": "true" }));
    expect((await post(core)).status).toBe(503);
    await vi.advanceTimersByTimeAsync(249);
    expect(held.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const answered = await held.response;
    expect(answered.status).toBe(200);
    expect((await answered.json()).choices[0].message.content).toBe("The capital of France is Paris.");
  });

  it("loading ends by itself after estimated_time when no duration is given", async () => {
    const core = createMockHub();
    core.inject({ type: "loading", estimatedTime: 0.1 });
    expect((await post(core)).status).toBe(503);
    await vi.advanceTimersByTimeAsync(99);
    expect((await post(core)).status).toBe(503);
    await vi.advanceTimersByTimeAsync(1);
    expect((await post(core)).status).toBe(200);
  });

  it("durationMs: Infinity → loading outlasts any clock; only its `times` 503s or remove() end it", async () => {
    const core = createMockHub();
    core.inject({ type: "loading", estimatedTime: 0.1, durationMs: Infinity }, { model: MODEL, times: 2 });
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect((await post(core)).status).toBe(503);
    expect((await post(core)).status).toBe(503);
    expect((await post(core)).status).toBe(200);

    const rule = core.inject({ type: "loading", durationMs: Infinity }, { model: MODEL });
    const held = watched(post(core, { "x-wait-for-model": "true" }));
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect(held.settled).toBe(false);
    rule.remove();
    expect((await held.response).status).toBe(200);
  });
});

describe("proxy errors", () => {
  it("rateLimit: 429 with retry-after and retry-after-ms, for the first N requests", async () => {
    const rule = hub().inject({ type: "rateLimit", retryAfter: 2, retryAfterMs: 1500 }, { times: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await chat();
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe("2");
      expect(response.headers.get("retry-after-ms")).toBe("1500");
      expect((await response.json()).error).toMatch(/^Rate limit reached\. /);
    }
    expect((await chat()).status).toBe(200);
    expect(rule.hits).toBe(2);
  });

  it("serverError: 500 JSON by default, or any status and body", async () => {
    hub().inject({ type: "serverError" }, { times: 1 });
    hub().inject(
      { type: "serverError", status: 502, body: "<html>Bad Gateway</html>", contentType: "text/html" },
      { times: 1 },
    );
    const first = await chat();
    expect([first.status, await first.json()]).toEqual([500, { error: "Internal Server Error" }]);
    const second = await chat();
    expect([second.status, second.headers.get("content-type"), await second.text()]).toEqual([
      502,
      "text/html",
      "<html>Bad Gateway</html>",
    ]);
  });

  it("a 503 without estimated_time", async () => {
    hub().inject({ type: "serverError", status: 503 }, { times: 1 });
    const response = await chat();
    expect([response.status, await response.json()]).toEqual([503, { error: "Service Unavailable" }]);
  });

  it("unauthorized: 401 by fault, and always for a `Bearer hf_bad...` token", async () => {
    hub().inject({ type: "unauthorized" }, { times: 1 });
    expect((await chat()).status).toBe(401);
    expect((await chat({ authorization: "Bearer hf_good" })).status).toBe(200);
    const bad = await chat({ authorization: "Bearer hf_bad_token" });
    expect([bad.status, await bad.json()]).toEqual([401, { error: "Invalid username or password." }]);
  });

  it("tooLarge: a final 403", async () => {
    hub().inject({ type: "tooLarge" }, { model: "big/model" });
    const response = await chat({}, "big/model");
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatch(
      /^The model big\/model is too large to be loaded automatically \(145GB > 10GB\)\./,
    );
  });

  it("a model id containing does-not-exist: 404", async () => {
    const response = await chat({}, "acme/model-does-not-exist");
    expect([response.status, await response.json()]).toEqual([
      404,
      { error: "Model acme/model-does-not-exist does not exist" },
    ]);
  });

  it("a fault scoped to a model leaves the others alone", async () => {
    hub().inject({ type: "rateLimit" }, { model: "hfkit/tgi-2.2" });
    expect((await chat({}, "hfkit/tgi-2.2")).status).toBe(429);
    expect((await chat({}, MODEL)).status).toBe(200);
  });

  it("faults in the model config apply; reset() restores them fresh, clearFaults() removes them", async () => {
    const local = await startMockHub({ models: { "acme/flaky": { faults: [{ type: "rateLimit", times: 1 }] } } });
    try {
      const flaky = () => postJson(chatUrl(local, "acme/flaky"), { messages: QUESTION });
      expect((await flaky()).status).toBe(429);
      expect((await flaky()).status).toBe(200);
      local.reset();
      expect((await flaky()).status).toBe(429);
      local.reset();
      local.clearFaults();
      expect((await flaky()).status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it("a removed rule stops applying", async () => {
    const rule = hub().inject({ type: "rateLimit" });
    expect((await chat()).status).toBe(429);
    rule.remove();
    expect((await chat()).status).toBe(200);
  });

  it("a held request whose client leaves does not keep anything alive", async () => {
    hub().inject({ type: "loading", durationMs: 60_000 });
    const controller = new AbortController();
    const held = fetch(chatUrl(hub(), MODEL), {
      method: "POST",
      headers: { "content-type": "application/json", "x-wait-for-model": "true" },
      body: JSON.stringify({ messages: QUESTION }),
      signal: controller.signal,
    });
    await waitFor(() => hub().requests.length === 1);
    controller.abort();
    await expect(held).rejects.toThrow();
  });
});
