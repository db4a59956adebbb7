import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createHfFetch, startProxy } from "../src/index";
import { messages, settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const CHAT = "/chat/completions";

async function streamText(client: OpenAI, model: string): Promise<string> {
  let text = "";
  for await (const chunk of await client.chat.completions.create({ model, messages, stream: true }))
    text += chunk.choices[0]?.delta?.content ?? "";
  return text;
}

/** The paths of the chat requests the hub saw. */
const chatPaths = (): string[] => ctx.hub.requests.filter((r) => r.path.endsWith(CHAT)).map((r) => r.path);

/** Both calls, streamed and not, answer the text; every chat request went to `path`. */
async function expectServedAt(client: OpenAI, model: string, path: string): Promise<void> {
  expect(await within(streamText(client, model))).toBe(TEXT);
  const out = await within(client.chat.completions.create({ model, messages }));
  expect(out.choices[0]?.message.content).toBe(TEXT);
  expect(new Set(chatPaths())).toEqual(new Set([path]));
  expect(await settled(ctx.hub)).toBe(0);
}

describe("a dedicated endpoint through createHfFetch", () => {
  it('baseURL "{endpoint}/v1" and model "tgi": chat at {endpoint}/v1/chat/completions, stream and not', async () => {
    const client = new OpenAI({
      baseURL: `${ctx.hub.url}/endpoints/my-tgi/v1`,
      apiKey: "hf_test",
      fetch: createHfFetch({ maxRetries: 0 }),
    });
    await expectServedAt(client, "tgi", "/endpoints/my-tgi/v1/chat/completions");
    expect(ctx.hub.requests.find((r) => r.path.endsWith(CHAT))?.headers.authorization).toBe("Bearer hf_test");
  });

  it("an endpoints/{name} path is an endpoint whatever the model", async () => {
    const client = new OpenAI({
      baseURL: `${ctx.hub.url}/endpoints/hfkit/tgi-2.0/v1`,
      apiKey: "k",
      fetch: createHfFetch({ maxRetries: 0 }),
    });
    await expectServedAt(client, "meta-llama/Llama-3.1-8B-Instruct", "/endpoints/hfkit/tgi-2.0/v1/chat/completions");
  });

  it("a *.endpoints.huggingface.cloud host is an endpoint whatever the model", async () => {
    const host = "https://my-tgi.us-east-1.aws.endpoints.huggingface.cloud";
    const inner = (url: string, init?: RequestInit) =>
      fetch(url.replace(host, `${ctx.hub.url}/endpoints/my-tgi`), init);
    const client = new OpenAI({
      baseURL: `${host}/v1`,
      apiKey: "k",
      fetch: createHfFetch({ maxRetries: 0, fetch: inner }),
    });
    await expectServedAt(client, "org/name", "/endpoints/my-tgi/v1/chat/completions");
  });

  it('model "tgi" on any other base is an endpoint there, not /models/tgi', async () => {
    const client = new OpenAI({ baseURL: `${ctx.hub.url}/v1`, apiKey: "k", fetch: createHfFetch({ maxRetries: 0 }) });
    await expectServedAt(client, "tgi", "/v1/chat/completions");
  });

  it("endpoint: true makes any base an endpoint; endpoint: false keeps the hf-inference base", async () => {
    const always = new OpenAI({
      baseURL: `${ctx.hub.url}/v1`,
      apiKey: "k",
      fetch: createHfFetch({ maxRetries: 0, endpoint: true }),
    });
    await expectServedAt(always, "hfkit/tgi-2.0", "/v1/chat/completions");
    ctx.hub.reset();
    const never = new OpenAI({
      baseURL: `${ctx.hub.url}/endpoints/my-tgi/v1`,
      apiKey: "k",
      fetch: createHfFetch({ maxRetries: 0, endpoint: false }),
    });
    const error = await never.chat.completions.create({ model: "tgi", messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(chatPaths()).toEqual(["/endpoints/my-tgi/models/tgi/v1/chat/completions"]);
  });

  it("the endpointUrl option still names the endpoint outright", async () => {
    const fetch = createHfFetch({ maxRetries: 0, endpointUrl: `${ctx.hub.url}/endpoints/my-tgi` });
    const client = new OpenAI({ baseURL: "http://unused.test/v1", apiKey: "k", fetch });
    await expectServedAt(client, "tgi", "/endpoints/my-tgi/v1/chat/completions");
  });
});

describe("a dedicated endpoint through the proxy", () => {
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  afterEach(() => proxy?.close());
  const clientOf = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "hf_caller", maxRetries: 0 });

  it('target "{endpoint}" and model "tgi": chat at {endpoint}/v1/chat/completions, stream and not', async () => {
    proxy = await startProxy({ target: `${ctx.hub.url}/endpoints/my-tgi`, maxRetries: 0 });
    await expectServedAt(clientOf(proxy.url), "tgi", "/endpoints/my-tgi/v1/chat/completions");
    expect(ctx.hub.requests.find((r) => r.path.endsWith(CHAT))?.headers.authorization).toBe("Bearer hf_caller");
  });

  it("a target ending in /v1 is an OpenAI-protocol server (vLLM): its model as is", async () => {
    proxy = await startProxy({ target: `${ctx.hub.url}/endpoints/hfkit/vllm/v1`, maxRetries: 0 });
    await expectServedAt(clientOf(proxy.url), "hfkit/vllm", "/endpoints/hfkit/vllm/v1/chat/completions");
  });

  it("endpoint: true makes any target an endpoint, whatever the model", async () => {
    proxy = await startProxy({ target: ctx.hub.url, endpoint: true, maxRetries: 0 });
    await expectServedAt(clientOf(proxy.url), "hfkit/tgi-2.0", "/v1/chat/completions");
  });

  it('an hf-inference target: model "tgi" goes to the target as an endpoint, a Hub model to /models/{id}', async () => {
    proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
    await expectServedAt(clientOf(proxy.url), "tgi", "/v1/chat/completions");
    ctx.hub.reset();
    await expectServedAt(clientOf(proxy.url), "hfkit/tgi-3.2", "/models/hfkit/tgi-3.2/v1/chat/completions");
  });

  it("a body's endpointUrl is not a route: the call goes to the target only", async () => {
    proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
    const body = { model: "hfkit/tgi-3.2", messages, endpointUrl: "http://127.0.0.1:9/elsewhere" };
    const res = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(chatPaths()).toEqual(["/models/hfkit/tgi-3.2/v1/chat/completions"]);
  });

  it("a caller without a token goes without one, even with HF_TOKEN in the proxy's environment", async () => {
    proxy = await startProxy({ target: `${ctx.hub.url}/endpoints/my-tgi`, maxRetries: 0 });
    const saved = process.env.HF_TOKEN;
    process.env.HF_TOKEN = "hf_of_the_proxy_host";
    try {
      const res = await fetch(`${proxy.url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "tgi", messages }),
      });
      expect(res.status).toBe(200);
    } finally {
      if (saved === undefined) delete process.env.HF_TOKEN;
      else process.env.HF_TOKEN = saved;
    }
    expect(ctx.hub.requests.find((r) => r.path.endsWith(CHAT))?.headers.authorization).toBeUndefined();
  });

  it("a target that is not an http(s) URL is refused at once", async () => {
    await expect(startProxy({ target: "router.huggingface.co" })).rejects.toThrow(/`target` must be an absolute http/);
  });
});
