import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMockHub, startMockHub } from "../src/index.js";
import { createMockHubHandlers } from "../src/msw.js";
import { QUESTION, TIMEOUT, contentOf, readOrTimeout, readUntil, waitFor } from "./helpers.js";

const HF_INFERENCE = "https://router.huggingface.co/hf-inference";
const API = "https://api-inference.huggingface.co";
const hub = createMockHub();
const server = setupServer(
  ...createMockHubHandlers(hub, { baseUrl: HF_INFERENCE }),
  ...createMockHubHandlers({ models: { "acme/other": { text: "From a config." } } }, { baseUrl: API }),
);

// Requests to a loopback hub go through; anything else unhandled is an error.
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  }),
);
afterEach(() => hub.reset());
afterAll(() => {
  server.close();
  hub.dispose();
});

const body = (extra: Record<string, unknown> = {}) =>
  ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages: QUESTION, ...extra }),
  }) as const;

describe("msw handlers", () => {
  it("answer through setupServer exactly as the loopback server does", async () => {
    const viaMsw = await (
      await fetch(`${HF_INFERENCE}/models/hfkit/tgi-2.0/v1/chat/completions`, body({ model: "tgi", stream: true }))
    ).text();
    const loopback = await startMockHub();
    try {
      const viaHttp = await (
        await fetch(`${loopback.url}/models/hfkit/tgi-2.0/v1/chat/completions`, body({ model: "tgi", stream: true }))
      ).text();
      expect(viaMsw).toBe(viaHttp);
      expect(viaMsw.startsWith("data:{")).toBe(true);
      expect(contentOf(viaMsw)).toBe("The capital of France is Paris.</s>");
    } finally {
      await loopback.close();
    }
  });

  it("share the scripted hub: faults and the request log", async () => {
    hub.inject({ type: "rateLimit", retryAfter: 1 }, { times: 1 });
    const limited = await fetch(`${HF_INFERENCE}/models/hfkit/tgi-3.2/v1/chat/completions`, body());
    expect([limited.status, limited.headers.get("retry-after"), limited.headers.get("x-request-id")]).toEqual([
      429,
      "1",
      expect.stringMatching(/^mock-\d+$/),
    ]);
    expect((await fetch(`${HF_INFERENCE}/models/hfkit/tgi-3.2/v1/chat/completions`, body())).status).toBe(200);
    expect(hub.requests.map((request) => request.path)).toEqual([
      "/hf-inference/models/hfkit/tgi-3.2/v1/chat/completions",
      "/hf-inference/models/hfkit/tgi-3.2/v1/chat/completions",
    ]);
  });

  it("make a refused connection fetch's network error: a TypeError, no response", async () => {
    // Under /hf-inference, hf-inference is the router's provider of the request.
    const rule = hub.inject({ type: "refused" }, { provider: "hf-inference", times: 1 });
    const url = `${HF_INFERENCE}/models/hfkit/tgi-3.2/v1/chat/completions`;
    await expect(fetch(url, body())).rejects.toThrow(TypeError);
    expect(rule.hits).toBe(1);
    expect((await fetch(url, body())).status).toBe(200);
  });

  it("hand each scripted write to the client as its own chunk", async () => {
    hub.inject({ type: "bodyChunking", bytes: 4 });
    const response = await fetch(
      `${HF_INFERENCE}/models/hfkit/tgi-3.2/v1/chat/completions`,
      body({ stream: true, max_tokens: 1 }),
    );
    const reader = response.body!.getReader();
    const sizes: number[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) sizes.push(read.value.length);
    expect(Math.max(...sizes)).toBe(4);
    // Each event is cut on its own: two events, each ending in a shorter remainder.
    expect(sizes.filter((size) => size < 4).length).toBeLessThanOrEqual(2);
    expect(sizes.length).toBeGreaterThan(10);
  });

  it("a client aborting a lingering stream brings openStreams() back to 0", async () => {
    hub.inject({ type: "linger" });
    const controller = new AbortController();
    const response = await fetch(`${HF_INFERENCE}/models/hfkit/tgi-3.2/v1/chat/completions`, {
      ...body({ stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await readUntil(reader, (text) => text.endsWith("data: [DONE]\n\n"));
    expect(await readOrTimeout(reader, 100)).toBe(TIMEOUT);
    expect(hub.openStreams()).toBe(1);
    // msw keeps a clone of every mocked response, so only the request's signal reaches the hub.
    controller.abort();
    await waitFor(() => hub.openStreams() === 0);
  });

  it("a hub made from a config answers under its own base URL", async () => {
    const answer = await (await fetch(`${API}/models/acme/other/v1/chat/completions`, body())).json();
    expect(answer.choices[0].message.content).toBe("From a config.");
  });
});
