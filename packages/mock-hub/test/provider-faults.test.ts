import { describe, expect, it } from "vitest";
import { TIMEOUT, contentOf, dataPayloads, readOrTimeout, readUntil, routerChat, useHub } from "./helpers.js";

const MODEL = "hfkit/router-multi";
const TEXT = "The capital of France is Paris.";
const hub = useHub({
  models: {
    "acme/pair": {
      backend: "vllm",
      providers: ["groq", "together"],
      faults: [{ type: "serverError", status: 503, provider: "groq" }],
    },
  },
});

const chat = (model: string, extra: Record<string, unknown> = {}) => routerChat(hub(), model, extra);
const provider = (response: Response) => response.headers.get("x-inference-provider");

/** The other provider of the model answers in full, named in its header. */
async function expectAnswered(model: string, name: string): Promise<void> {
  const response = await chat(model);
  expect([response.status, provider(response)]).toEqual([200, name]);
  expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe(
    TEXT,
  );
}

describe("a fault scoped to one provider of a model (testing failover)", () => {
  it("serverError: a 5xx for the router's requests that provider serves, and for no other provider's", async () => {
    const rule = hub().inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "together" });
    expect(rule.provider).toBe("together");
    const down = await chat(`${MODEL}:together`);
    expect([down.status, provider(down)]).toEqual([502, "together"]);
    expect(await down.json()).toEqual({ error: "Bad Gateway" });
    await expectAnswered(`${MODEL}:novita`, "novita");
    // The router's own pick for no suffix and for a policy is together (the first): down too.
    expect((await chat(MODEL)).status).toBe(502);
    expect((await chat(`${MODEL}:cheapest`)).status).toBe(502);
    expect(rule.hits).toBe(3);
  });

  it("rateLimit: a 429 with its retry-after, for that provider only", async () => {
    hub().inject({ type: "rateLimit", retryAfter: 3 }, { model: MODEL, provider: "novita" });
    const limited = await chat(`${MODEL}:novita`);
    expect([limited.status, limited.headers.get("retry-after"), provider(limited)]).toEqual([429, "3", "novita"]);
    expect(await limited.json()).toEqual({ error: expect.stringMatching(/^Rate limit reached\./) });
    await expectAnswered(`${MODEL}:together`, "together");
  });

  it("hf-inference is the provider of its own path", async () => {
    hub().inject({ type: "rateLimit" }, { provider: "hf-inference" });
    const path = `${hub().url}/hf-inference/models/${MODEL}/v1/chat/completions`;
    const limited = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [] }),
    });
    expect(limited.status).toBe(429);
    await expectAnswered(`${MODEL}:novita`, "novita");
  });

  it("overloadedInStream with afterChunks 0: a 200 stream whose first event is the error, for that provider only", async () => {
    hub().inject({ type: "overloadedInStream", afterChunks: 0 }, { model: MODEL, provider: "novita" });
    const broken = await chat(`${MODEL}:novita`, { stream: true });
    expect([broken.status, provider(broken)]).toEqual([200, "novita"]);
    const payloads = dataPayloads(await broken.text());
    expect(JSON.parse(payloads[0] ?? "")).toMatchObject({ error: { message: "Model is overloaded" } });
    expect(payloads.join("")).not.toContain("Paris");
    const whole = await chat(`${MODEL}:together`, { stream: true });
    expect([whole.status, provider(whole)]).toEqual([200, "together"]);
    expect(contentOf(await whole.text())).toBe(TEXT);
  });

  it.each([0, 2])(
    "stall after %i events: the headers come, then nothing more, for that provider only",
    async (afterChunks) => {
      hub().inject({ type: "stall", afterChunks }, { model: MODEL, provider: "together" });
      const stalled = await chat(`${MODEL}:together`, { stream: true });
      expect([stalled.status, provider(stalled)]).toEqual([200, "together"]);
      const reader = stalled.body!.getReader();
      const text = await readUntil(reader, (sofar) => dataPayloads(sofar).length >= afterChunks);
      expect(dataPayloads(text)).toHaveLength(afterChunks);
      expect(await readOrTimeout(reader, 150)).toBe(TIMEOUT);
      expect(hub().openStreams()).toBe(1);
      const whole = await chat(`${MODEL}:novita`, { stream: true });
      expect(contentOf(await whole.text())).toBe(TEXT);
      await reader.cancel();
    },
  );

  it("headersDelay: that provider's status line waits while another provider answers", async () => {
    const rule = hub().inject({ type: "headersDelay", delayMs: 60_000 }, { model: MODEL, provider: "together" });
    const abort = new AbortController();
    let settled = false;
    const held = routerFetch(`${MODEL}:together`, abort.signal).finally(() => (settled = true));
    await expectAnswered(`${MODEL}:novita`, "novita");
    await expect.poll(() => rule.hits).toBe(1);
    expect(settled).toBe(false);
    abort.abort();
    await expect(held).rejects.toThrow();
  });

  it("times counts only that provider's requests; a request not through the router is never matched", async () => {
    const rule = hub().inject({ type: "serverError" }, { provider: "together", times: 1 });
    const direct = await fetch(`${hub().url}/models/hfkit/tgi-3.2/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(direct.status).toBe(200);
    await expectAnswered(`${MODEL}:novita`, "novita");
    expect(rule.hits).toBe(0);
    expect((await chat(`${MODEL}:together`)).status).toBe(500);
    await expectAnswered(`${MODEL}:together`, "together");
    expect([rule.hits, rule.active]).toEqual([1, false]);
  });

  it("a model's config fault takes `provider` on the fault; inject's `provider` overrides the fault's", async () => {
    const down = await chat("acme/pair:groq");
    expect([down.status, provider(down)]).toEqual([503, "groq"]);
    await expectAnswered("acme/pair:together", "together");
    hub().clearFaults();
    const rule = hub().inject({ type: "serverError", provider: "groq" }, { model: "acme/pair", provider: "together" });
    expect(rule.provider).toBe("together");
    expect((await chat("acme/pair:together")).status).toBe(500);
    await expectAnswered("acme/pair:groq", "groq");
  });
});

function routerFetch(model: string, signal: AbortSignal): Promise<Response> {
  return fetch(`${hub().url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    signal,
  });
}
