/**
 * The router's host stands for the router wherever it is: the `routerUrl` option, else `HF_INFERENCE_ENDPOINT` (what
 * `hfkit mock-hub` prints), so a page's `baseURL: "https://router.huggingface.co/…"` runs offline unchanged.
 */
import { request } from "node:http";
import OpenAI from "openai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHfFetch, startProxy } from "../src/index";
import { messages, TEXT, useHub } from "./helpers";

const ctx = useHub();
const ROUTER = "https://router.huggingface.co";
/** Nothing listens there: a call that reaches it fails. */
const NOWHERE = "http://127.0.0.1:9";

let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await proxy?.close();
  proxy = undefined;
});

const client = (baseURL: string, options: Parameters<typeof createHfFetch>[0] = {}) =>
  new OpenAI({ baseURL, apiKey: "hf_test", maxRetries: 0, fetch: createHfFetch({ maxRetries: 0, ...options }) });

function get(
  path: string,
): Promise<{ status: number; body: { data?: Array<{ id: string }>; error?: { message: string } } }> {
  return new Promise((resolve, reject) => {
    request(`${proxy!.url}${path}`, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("createHfFetch with HF_INFERENCE_ENDPOINT set", () => {
  it("a model URL of the router's hf-inference goes to the variable's hf-inference", async () => {
    vi.stubEnv("HF_INFERENCE_ENDPOINT", `${ctx.hub.url}/`);
    const openai = client(`${ROUTER}/hf-inference/models/hfkit/tgi-3.2/v1`);
    const out = await openai.chat.completions.create({ model: "tgi", messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(ctx.hub.requests.at(-1)?.path).toBe("/hf-inference/models/hfkit/tgi-3.2/v1/chat/completions");
  });

  it("the router's /v1, and a request passed through (the model list), go there too", async () => {
    vi.stubEnv("HF_INFERENCE_ENDPOINT", ctx.hub.url);
    const openai = client(`${ROUTER}/v1`);
    const out = await openai.chat.completions.create({ model: "hfkit/router-multi", messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    const list = await openai.models.list();
    expect(list.data.map((m) => m.id)).toContain("hfkit/router-multi");
    expect(ctx.hub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/chat/completions",
      "GET /v1/models",
    ]);
  });

  it("the routerUrl option wins over the variable", async () => {
    vi.stubEnv("HF_INFERENCE_ENDPOINT", NOWHERE);
    const openai = client(`${ROUTER}/hf-inference/v1`, { routerUrl: ctx.hub.url });
    const out = await openai.chat.completions.create({ model: "hfkit/tgi-3.2", messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(ctx.hub.requests.at(-1)?.path).toBe("/hf-inference/models/hfkit/tgi-3.2/v1/chat/completions");
  });

  it("a malformed variable is a 400 naming it, before any request", async () => {
    vi.stubEnv("HF_INFERENCE_ENDPOINT", "router.local:8080");
    const openai = client(`${ROUTER}/hf-inference/models/hfkit/tgi-3.2/v1`);
    const error = await openai.chat.completions.create({ model: "tgi", messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("`HF_INFERENCE_ENDPOINT` must be an absolute http:// or https:// URL");
    const listed = await openai.models.list().catch((e: unknown) => e);
    expect(listed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(ctx.hub.requests).toHaveLength(0);
  });
});

describe("the proxy in front of the router, elsewhere", () => {
  it("GET /v1/models follows routerUrl", async () => {
    proxy = await startProxy({ target: ROUTER, routerUrl: ctx.hub.url });
    const { status, body } = await get("/v1/models");
    expect(status).toBe(200);
    expect(body.data?.map((m) => m.id)).toContain("hfkit/router-multi");
    expect(ctx.hub.requests.at(-1)?.path).toBe("/v1/models");
  });

  it("GET /v1/models follows HF_INFERENCE_ENDPOINT, as the proxy's chat calls do", async () => {
    vi.stubEnv("HF_INFERENCE_ENDPOINT", ctx.hub.url);
    proxy = await startProxy({ target: `${ROUTER}/v1` });
    const { status, body } = await get("/v1/models");
    expect(status).toBe(200);
    expect(body.data?.map((m) => m.id)).toContain("hfkit/router-multi");
  });

  it("a target of the router's hf-inference: chat goes to routerUrl's hf-inference", async () => {
    proxy = await startProxy({ target: `${ROUTER}/hf-inference`, routerUrl: ctx.hub.url, maxRetries: 0 });
    const openai = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "hf_test", maxRetries: 0 });
    const out = await openai.chat.completions.create({ model: "hfkit/tgi-3.2", messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(ctx.hub.requests.at(-1)?.path).toBe("/hf-inference/models/hfkit/tgi-3.2/v1/chat/completions");
  });
});
