import { request } from "node:http";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createHfFetch, type ProxyOptions, startProxy } from "../src/index";
import { messages, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const ROUTER = "https://router.huggingface.co";
/** A fetch that sends the HF router's requests to the mock hub, as the router's. */
const toHub = (url: string, init?: RequestInit) => fetch(url.replace(ROUTER, ctx.hub.url), init);

let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
afterEach(() => proxy?.close());

function raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${proxy!.url}${path}`,
      { method, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function modelIds(options: ProxyOptions, path = "/v1/models"): Promise<string[]> {
  proxy = await startProxy({ maxRetries: 0, ...options });
  const { status, text } = await raw("GET", path, undefined, { authorization: "Bearer hf_caller" });
  expect(status).toBe(200);
  const body = JSON.parse(text) as { object: string; data: Array<{ id: string; object: string }> };
  expect(body.object).toBe("list");
  return body.data.map((m) => m.id);
}

describe("the proxy's GET /v1/models", () => {
  it("an endpoint target: the endpoint's own model, fetched with the caller's token", async () => {
    expect(await modelIds({ target: `${ctx.hub.url}/endpoints/my-tgi` })).toEqual(["my-tgi"]);
    expect(ctx.hub.requests.at(-1)).toMatchObject({ method: "GET", path: "/endpoints/my-tgi/v1/models" });
    expect(ctx.hub.requests.at(-1)?.headers.authorization).toBe("Bearer hf_caller");
  });

  it("a vLLM endpoint (target …/v1): its served model", async () => {
    expect(await modelIds({ target: `${ctx.hub.url}/endpoints/hfkit/vllm/v1` })).toEqual(["hfkit/vllm"]);
  });

  it("the router as target: the router's list", async () => {
    const ids = await modelIds({ target: ROUTER, fetch: toHub });
    expect(ids).toContain("hfkit/tgi-2.0");
    expect(ids).toContain("hfkit/router-multi");
    expect(ctx.hub.requests.at(-1)?.path).toBe("/v1/models");
  });

  it("the models option overrides; an hf-inference base lists none (it has no list)", async () => {
    expect(await modelIds({ target: `${ctx.hub.url}/endpoints/my-tgi`, models: ["a/b"] })).toEqual(["a/b"]);
    await proxy?.close();
    expect(await modelIds({ target: ctx.hub.url })).toEqual([]);
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("tolerant paths: /models and /v1/models/", async () => {
    expect(await modelIds({ target: `${ctx.hub.url}/endpoints/my-tgi` }, "/models")).toEqual(["my-tgi"]);
    expect((await raw("GET", "/v1/models/")).status).toBe(200);
  });

  it("a target that fails its list: its status, in OpenAI's error body", async () => {
    proxy = await startProxy({ target: `${ctx.hub.url}/endpoints/hfkit/transformers-chat` });
    const { status, text } = await raw("GET", "/v1/models");
    expect(status).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ error: { type: "not_found_error" } });
  });
});

describe("the router as the proxy's target", () => {
  it("chat goes to the router with the body's model as is", async () => {
    proxy = await startProxy({ target: `${ROUTER}/v1`, fetch: toHub, maxRetries: 0 });
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "k", maxRetries: 0 });
    const out = await client.chat.completions.create({ model: "hfkit/router-multi:novita", messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(ctx.hub.requests.at(-1)).toMatchObject({
      path: "/v1/chat/completions",
      body: { model: "hfkit/router-multi:novita" },
    });
  });
});

describe("tolerant chat routes", () => {
  it.each(["/v1/chat/completions/", "/chat/completions", "/chat/completions/"])(
    "the proxy serves POST %s",
    async (path) => {
      proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
      const res = await within(raw("POST", path, { model: "hfkit/tgi-3.2", messages }));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).choices[0].message.content).toBe(TEXT);
      expect((await raw("POST", "/v2/chat/completions", { model: "hfkit/tgi-3.2", messages })).status).toBe(404);
    },
  );

  it("the adapter serves a baseURL without /v1, and a trailing slash", async () => {
    const client = new OpenAI({
      baseURL: `${ctx.hub.url}/endpoints/my-tgi`,
      apiKey: "k",
      fetch: createHfFetch({ maxRetries: 0 }),
    });
    const out = await client.chat.completions.create({ model: "tgi", messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(ctx.hub.requests.at(-1)?.path).toBe("/endpoints/my-tgi/v1/chat/completions");
    const hfFetch = createHfFetch({ maxRetries: 0 });
    const init = { method: "POST", body: JSON.stringify({ model: "hfkit/tgi-3.2", messages }) };
    const res = await hfFetch(`${ctx.hub.url}/models/hfkit/tgi-3.2/v1/chat/completions/`, init);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { object: string }).object).toBe("chat.completion");
    expect(ctx.hub.requests.at(-1)?.path).toBe("/models/hfkit/tgi-3.2/v1/chat/completions");
  });
});
