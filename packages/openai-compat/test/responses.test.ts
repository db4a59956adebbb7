/**
 * The Responses API through the adapter and the proxy, with the official `openai` client's
 * `responses.create` and with `@ai-sdk/huggingface` (which calls only `/v1/responses`), against TGI 2.0
 * and 3.x, the transformers pipeline (over chat completions) and the router (natively).
 */
import { createHuggingFace } from "@ai-sdk/huggingface";
import { generateText, jsonSchema, streamText, tool } from "ai";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createHfFetch, startProxy } from "../src/index";
import { settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const ROUTER = "https://router.huggingface.co";
/** The router's requests sent to the mock hub, as the router's. */
const toHub = (url: string, init?: RequestInit) => fetch(url.replace(ROUTER, ctx.hub.url), init);
const QUESTION = "What is the capital of France?";
const WEATHER = {
  type: "function" as const,
  name: "get_weather",
  description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** The official client on the adapter: a model URL, or the router. */
function viaAdapter(model: string): OpenAI {
  if (model.startsWith("hfkit/router"))
    return new OpenAI({
      baseURL: `${ROUTER}/v1`,
      apiKey: "hf_test",
      fetch: createHfFetch({ maxRetries: 0, fetch: toHub }),
    });
  return new OpenAI({
    baseURL: `${ctx.hub.url}/models/${model}/v1`,
    apiKey: "hf_test",
    fetch: createHfFetch({ maxRetries: 0 }),
  });
}

/** The official client on a proxy in front of the hub (an hf-inference base), or of the router. */
async function viaProxy(model: string): Promise<OpenAI> {
  const router = model.startsWith("hfkit/router");
  proxy = await startProxy({
    target: router ? ROUTER : ctx.hub.url,
    maxRetries: 0,
    ...(router ? { fetch: toHub } : {}),
  });
  return new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "hf_test" });
}

async function streamed(
  client: OpenAI,
  model: string,
  extra: Record<string, unknown> = {},
): Promise<{ types: string[]; text: string; last: unknown }> {
  const stream = await client.responses.create({ model, input: QUESTION, stream: true, ...extra });
  const types: string[] = [];
  let text = "";
  let last: unknown;
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === "response.output_text.delta") text += event.delta;
    last = event;
  }
  return { types, text, last };
}

const MODELS = ["hfkit/tgi-2.0", "hfkit/tgi-3.2", "hfkit/transformers-chat", "hfkit/router-multi"];

describe.each([
  ["the adapter", async (model: string) => viaAdapter(model)],
  ["the proxy", viaProxy],
])("openai's responses.create through %s", (_name, clientFor) => {
  it.each(MODELS)("%s, not streamed: a response with the answer's text", async (model) => {
    const out = await within(
      clientFor(model).then((c) => c.responses.create({ model, input: QUESTION, instructions: "Be brief" })),
    );
    expect(out.object).toBe("response");
    expect(out.status).toBe("completed");
    expect(out.output_text).toBe(TEXT);
    expect(out.id).toMatch(/^resp_/);
    // The pipeline counts no tokens: no usage rather than a made-up one.
    if (model === "hfkit/transformers-chat") expect(out.usage).toBeNull();
    else expect(out.usage?.total_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)("%s, streamed: OpenAI's events, ending at response.completed", async (model) => {
    ctx.hub.inject({ type: "linger" }, { model });
    const run = await within(clientFor(model).then((c) => streamed(c, model)));
    expect(run.text).toBe(TEXT);
    expect(run.types.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(run.types.at(-1)).toBe("response.completed");
    expect(run.last).toMatchObject({
      type: "response.completed",
      response: { status: "completed", output_text: TEXT },
    });
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("a function call, streamed, over TGI's chat route", async () => {
    const client = await clientFor("hfkit/tgi-3.2");
    const run = await within(streamed(client, "hfkit/tgi-3.2", { tools: [WEATHER] }));
    expect(run.types).toContain("response.function_call_arguments.delta");
    expect(run.last).toMatchObject({
      response: { output: [{ type: "function_call", name: "get_weather", arguments: '{"city":"Paris"}' }] },
    });
  });

  it("bad arguments: the client's BadRequestError naming the field, and nothing sent to the hub", async () => {
    const client = await clientFor("hfkit/tgi-3.2");
    const error = await within(
      client.responses.create({ model: "hfkit/tgi-3.2", input: "Hi", temperature: 5 }).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe("temperature");
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("a failure before any event is the client's APIError with the status; after events, its iterator throws", async () => {
    const model = "hfkit/router-multi";
    ctx.hub.inject({ type: "responseFailed", code: "invalid_prompt", message: "Bad prompt" }, { times: 1 });
    const client = await clientFor(model);
    const early = await within(streamed(client, model).catch((e: unknown) => e));
    expect(early).toBeInstanceOf(OpenAI.BadRequestError);
    expect((early as InstanceType<typeof OpenAI.APIError>).message).toContain("Bad prompt");
    ctx.hub.inject({ type: "responseFailed", afterChunks: 3, message: "It broke" }, { times: 1 });
    const types: string[] = [];
    const late = await within(
      (async () => {
        for await (const event of await client.responses.create({ model, input: QUESTION, stream: true }))
          types.push(event.type);
      })().catch((e: unknown) => e),
    );
    expect(late).toBeInstanceOf(OpenAI.APIError);
    expect((late as Error).message).toContain("It broke");
    expect(types).toHaveLength(3);
  });
});

describe("the wire", () => {
  it("the proxy frames each event as `event: <type>` and `data: {json}`, with no [DONE]; /responses and a trailing slash too", async () => {
    proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
    for (const path of ["/v1/responses", "/responses", "/v1/responses/"]) {
      const res = await fetch(`${proxy.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "hfkit/tgi-3.2", input: QUESTION, stream: true }),
      });
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      const frames = (await res.text()).split("\n\n").filter(Boolean);
      expect(frames[0]).toMatch(/^event: response\.created\ndata: \{"type":"response\.created",/);
      for (const f of frames)
        expect(JSON.parse(f.split("\ndata: ")[1] ?? "")).toHaveProperty("type", f.slice(7, f.indexOf("\n")));
      expect(frames.at(-1)).toMatch(/^event: response\.completed\n/);
      expect(frames.join()).not.toContain("[DONE]");
    }
    const other = await fetch(`${proxy.url}/v1/responses/resp_1`, { method: "POST", body: "{}" });
    expect(other.status).toBe(404);
  });

  it("the adapter serves …/responses without /v1 and with a trailing slash; GET /responses/{id} passes through", async () => {
    const hfFetch = createHfFetch({ maxRetries: 0 });
    for (const path of ["/models/hfkit/tgi-3.2/responses", "/models/hfkit/tgi-3.2/v1/responses/"]) {
      const res = await hfFetch(`${ctx.hub.url}${path}`, { method: "POST", body: JSON.stringify({ input: QUESTION }) });
      expect(((await res.json()) as { output_text: string }).output_text).toBe(TEXT);
    }
    ctx.hub.reset();
    const res = await hfFetch(`${ctx.hub.url}/v1/responses/resp_1`);
    expect(res.status).toBe(404);
    expect(ctx.hub.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/responses/resp_1"]);
  });
});

describe("@ai-sdk/huggingface, which calls only /v1/responses", () => {
  const weather = tool({
    description: "The weather in a city",
    inputSchema: jsonSchema<{ city: string }>({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    }),
  });

  it.each(["hfkit/tgi-2.0", "hfkit/tgi-3.2", "hfkit/transformers-chat"])(
    "generateText and streamText through the proxy: %s",
    async (model) => {
      proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
      const huggingface = createHuggingFace({ baseURL: `${proxy.url}/v1`, apiKey: "hf_test" });
      const out = await within(generateText({ model: huggingface(model), prompt: QUESTION }));
      expect(out.text).toBe(TEXT);
      if (model !== "hfkit/transformers-chat") expect(out.usage.totalTokens).toBeGreaterThan(0);
      const stream = streamText({ model: huggingface(model), prompt: QUESTION });
      let text = "";
      for await (const piece of stream.textStream) text += piece;
      expect(text).toBe(TEXT);
      expect(await stream.finishReason).toBe("stop");
      expect(ctx.hub.requests.every((r) => r.headers.authorization === "Bearer hf_test")).toBe(true);
    },
  );

  it("through the adapter (a model URL), with a tool call; and the router, natively", async () => {
    const huggingface = createHuggingFace({
      baseURL: `${ctx.hub.url}/models/hfkit/tgi-3.2/v1`,
      apiKey: "hf_test",
      fetch: createHfFetch({ maxRetries: 0 }),
    });
    const out = await within(
      generateText({
        model: huggingface("hfkit/tgi-3.2"),
        prompt: "What is the weather in Paris?",
        tools: { get_weather: weather },
      }),
    );
    expect(out.toolCalls).toMatchObject([{ toolName: "get_weather", input: { city: "Paris" } }]);
    const router = createHuggingFace({
      baseURL: `${ROUTER}/v1`,
      apiKey: "hf_test",
      fetch: createHfFetch({ maxRetries: 0, fetch: toHub }),
    });
    const stream = streamText({ model: router("hfkit/router-multi"), prompt: QUESTION });
    let text = "";
    for await (const piece of stream.textStream) text += piece;
    expect(text).toBe(TEXT);
    expect(ctx.hub.requests.at(-1)?.path).toBe("/v1/responses");
  });
});
