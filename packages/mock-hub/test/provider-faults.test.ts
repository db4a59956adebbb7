import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockHub, startMockHub } from "../src/index";

const MODEL = "hfkit/router-multi";
let hub: MockHub;
beforeAll(async () => void (hub = await startMockHub()));
afterAll(() => hub.close());
beforeEach(() => hub.reset());

function chat(model: string, path = "/v1/chat/completions", stream = false): Promise<Response> {
  return fetch(`${hub.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], stream }),
  });
}

describe("a fault scoped to one provider of a model (testing failover)", () => {
  it("applies to the router's requests that provider serves, and to no other provider's", async () => {
    const rule = hub.inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "together" });
    expect(rule.provider).toBe("together");
    const down = await chat(`${MODEL}:together`);
    expect(down.status).toBe(502);
    expect(down.headers.get("x-inference-provider")).toBe("together");
    const up = await chat(`${MODEL}:novita`);
    expect(up.status).toBe(200);
    expect(up.headers.get("x-inference-provider")).toBe("novita");
    // The router's own pick for no suffix is together (`:fastest` first): down too.
    expect((await chat(MODEL)).status).toBe(502);
    expect(rule.hits).toBe(2);
  });

  it("hf-inference is the provider of its own path", async () => {
    hub.inject({ type: "rateLimit" }, { provider: "hf-inference" });
    expect((await chat(MODEL, `/hf-inference/models/${MODEL}/v1/chat/completions`)).status).toBe(429);
    expect((await chat(`${MODEL}:novita`)).status).toBe(200);
  });

  it("a stream fault too: an error inside the stream before any token, for that provider only", async () => {
    hub.inject({ type: "overloadedInStream", afterChunks: 0 }, { model: MODEL, provider: "novita" });
    const broken = await (await chat(`${MODEL}:novita`, undefined, true)).text();
    expect(broken).toMatch(/error/i);
    expect(broken).not.toMatch(/Paris/);
    const whole = await (await chat(`${MODEL}:together`, undefined, true)).text();
    expect(whole).toMatch(/Paris/);
  });

  it("times counts only that provider's requests; a request not through the router is never matched", async () => {
    const rule = hub.inject({ type: "serverError" }, { provider: "together", times: 1 });
    expect((await chat("hfkit/tgi-3.2", "/models/hfkit/tgi-3.2/v1/chat/completions")).status).toBe(200);
    expect(rule.hits).toBe(0);
    expect((await chat(`${MODEL}:together`)).status).toBe(500);
    expect((await chat(`${MODEL}:together`)).status).toBe(200);
    expect(rule.active).toBe(false);
  });
});
