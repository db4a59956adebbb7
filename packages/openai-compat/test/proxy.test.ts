import { request } from "node:http";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy } from "../src/index";
import { messages, settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
let proxy: Awaited<ReturnType<typeof startProxy>>;
let client: OpenAI;

beforeAll(async () => {
  proxy = await startProxy({
    target: ctx.hub.url,
    maxRetries: 0,
    commitAfterMs: 200,
    keepAliveMs: 100,
    models: ["hfkit/tgi-3.2"],
  });
  client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "hf_caller" });
});
afterAll(() => proxy.close());

function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      `${proxy.url}${path}`,
      { method, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the OpenAI-compatible proxy", () => {
  it("binds 127.0.0.1 by default", () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(["hfkit/tgi-2.0", "hfkit/tgi-2.1", "hfkit/tgi-2.2", "hfkit/tgi-2.4.1", "hfkit/tgi-3.1", "hfkit/tgi-3.2"])(
    "streams %s (socket left open) in pure OpenAI protocol",
    async (model) => {
      ctx.hub.inject({ type: "linger" }, { model });
      const res = await within(raw("POST", "/v1/chat/completions", JSON.stringify({ model, messages, stream: true })));
      expect(res.status).toBe(200);
      const events = res.text.split("\n\n").filter(Boolean);
      expect(events.every((e) => e.startsWith("data: "))).toBe(true);
      expect(res.text.endsWith("data: [DONE]\n\n")).toBe(true);
      const text = events
        .slice(0, -1)
        .map((e) => JSON.parse(e.slice(6)).choices[0]?.delta?.content ?? "")
        .join("");
      expect(text).toBe(TEXT);
      expect(await settled(ctx.hub)).toBe(0);
    },
  );

  it("the official client: stream, non-stream, a 422 in the stream", async () => {
    let text = "";
    for await (const c of await client.chat.completions.create({
      model: "hfkit/tgi-2.2",
      messages,
      stream: true,
      top_p: 1,
    })) {
      text += c.choices[0]?.delta?.content ?? "";
    }
    expect(text).toBe(TEXT);
    const out = await client.chat.completions.create({ model: "hfkit/transformers-chat", messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    const error = await client.chat.completions
      .create({ model: "hfkit/tgi-2.4.1", messages, stream: true, max_tokens: 5000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
  });

  it("forwards the caller's Authorization to the target only", async () => {
    await client.chat.completions.create({ model: "hfkit/tgi-3.2", messages, max_tokens: 1 });
    expect(ctx.hub.requests.at(-1)?.headers.authorization).toBe("Bearer hf_caller");
    await raw("POST", "/v1/chat/completions", JSON.stringify({ model: "hfkit/tgi-3.2", messages, max_tokens: 1 }));
    expect(ctx.hub.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it("refuses web pages (Origin), DNS rebinding (Host), and bodies over the cap", async () => {
    const body = JSON.stringify({ model: "hfkit/tgi-3.2", messages });
    expect((await raw("POST", "/v1/chat/completions", body, { origin: "https://evil.example" })).status).toBe(403);
    expect((await raw("POST", "/v1/chat/completions", body, { host: "evil.example" })).status).toBe(421);
    expect((await raw("POST", "/v1/chat/completions", "x".repeat(2 * 1024 * 1024 + 1))).status).toBe(413);
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("GET /v1/models and unknown routes", async () => {
    const models = await raw("GET", "/v1/models");
    expect(JSON.parse(models.text)).toEqual({
      object: "list",
      data: [{ id: "hfkit/tgi-3.2", object: "model", created: 0, owned_by: "huggingface" }],
    });
    expect((await raw("GET", "/nope")).status).toBe(404);
  });

  it("while a model loads, commits to a 200 and sends keep-alives until the answer", async () => {
    ctx.hub.inject({ type: "loading", estimatedTime: 0.6 }, { model: "hfkit/tgi-3.2", times: 1 });
    const res = await within(
      raw("POST", "/v1/chat/completions", JSON.stringify({ model: "hfkit/tgi-3.2", messages, stream: true })),
      5000,
    );
    expect(res.status).toBe(200);
    expect(res.text.startsWith(": loading\n\n")).toBe(true);
    expect(res.text.endsWith("data: [DONE]\n\n")).toBe(true);
  });
});
