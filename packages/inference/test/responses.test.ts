/**
 * The Responses API through loopback HTTP against @hfkit/mock-hub: natively on the router and vLLM,
 * over chat completions on TGI and the transformers pipeline (after the native route's 404, then
 * remembered), the events in OpenAI's order, function calls, reasoning, and in-stream failures.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  InferenceClient,
  InputError,
  type Options,
  RateLimitError,
  type ResponsesArgs,
  TimeoutError,
  type ResponsesStreamEvent,
  responses,
  responsesStream,
  ServerError,
} from "../src/index";

const TEXT = "The capital of France is Paris.";
const TOKENS = ["The", " capital", " of", " France", " is", " Paris."];
const REASONING = "The user asks about France. Its capital is Paris.";
const ROUTER = "https://router.huggingface.co";
const WEATHER = {
  type: "function",
  name: "get_weather",
  description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());

/** The router's URL sent to the hub (no network). */
const toHub: Options["fetch"] = (url, init) => fetch(url.replace(ROUTER, hub.url), init);
const paths = (): string[] => hub.requests.map((r) => r.path);
const bodyOf = (path: string): Record<string, unknown> =>
  hub.requests.find((r) => r.path === path)?.body as Record<string, unknown>;

async function events(args: ResponsesArgs, options: Options): Promise<ResponsesStreamEvent[]> {
  const seen: ResponsesStreamEvent[] = [];
  for await (const event of responsesStream(args, { maxRetries: 0, ...options })) seen.push(event);
  return seen;
}

const types = (seen: ResponsesStreamEvent[]): string[] => seen.map((e) => e.type);
const deltas = (seen: ResponsesStreamEvent[], type: string): string =>
  seen.map((e) => (e.type === type && "delta" in e ? e.delta : "")).join("");

const TEXT_EVENTS = [
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.content_part.added",
  ...TOKENS.map(() => "response.output_text.delta"),
  "response.output_text.done",
  "response.content_part.done",
  "response.output_item.done",
  "response.completed",
];

/** Every event numbered from 0, every item event naming an item added before, one response id throughout. */
function expectCoherent(seen: ResponsesStreamEvent[]): void {
  expect(seen.map((e) => e.sequence_number)).toEqual(seen.map((_, i) => i));
  const added = new Map<string, number>();
  const ids = new Set<string>();
  for (const e of seen) {
    if (e.type === "response.output_item.added") added.set(e.item.id, e.output_index);
    if ("item_id" in e) expect(added.get(e.item_id)).toBe(e.output_index);
    if ("response" in e) ids.add(e.response.id);
  }
  expect(ids.size).toBe(1);
  expect([...ids][0]).toMatch(/^resp_[0-9a-f]+$/);
}

describe("natively, where the server has the Responses API", () => {
  it("a vLLM endpoint: one POST to {endpoint}/v1/responses, the arguments as they are; reasoning and the message", async () => {
    const input = [{ role: "user", content: [{ type: "input_text", text: "What is the capital of France?" }] }];
    const out = await responses(
      { model: "hfkit/vllm", input, instructions: "Be brief" },
      { endpointUrl: `${hub.url}/endpoints/hfkit/vllm` },
    );
    expect(paths()).toEqual(["/endpoints/hfkit/vllm/v1/responses"]);
    expect(bodyOf("/endpoints/hfkit/vllm/v1/responses")).toEqual({
      model: "hfkit/vllm",
      input,
      instructions: "Be brief",
      stream: false,
    });
    expect(out.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    expect(out.output_text).toBe(TEXT);
    expect(out.status).toBe("completed");
    expect(out.usage?.output_tokens).toBeGreaterThan(0);
  });

  it("the router, streamed: the events in order, reasoning first, complete at response.completed", async () => {
    hub.setModel("hfkit/router-think", { backend: "vllm", providers: ["together"], reasoning: REASONING });
    const seen = await events(
      { model: "hfkit/router-think", input: "What is the capital of France?" },
      { fetch: toHub, provider: "together" },
    );
    expect(paths()).toEqual(["/v1/responses"]);
    expect(bodyOf("/v1/responses")).toMatchObject({ model: "hfkit/router-think:together", stream: true });
    expect(deltas(seen, "response.reasoning_text.delta")).toBe(REASONING);
    expect(deltas(seen, "response.output_text.delta")).toBe(TEXT);
    const firstText = types(seen).indexOf("response.output_text.delta");
    expect(types(seen).lastIndexOf("response.reasoning_text.delta")).toBeLessThan(firstText);
    expect(types(seen).at(-1)).toBe("response.completed");
    expectCoherent(seen);
  });

  it("a function call when tools are given and the prompt asks for one", async () => {
    const seen = await events(
      { model: "hfkit/router-multi", input: "Use the tool for Paris", tools: [WEATHER] },
      { fetch: toHub },
    );
    expect(deltas(seen, "response.function_call_arguments.delta")).toBe('{"city":"Paris"}');
    const done = seen.find((e) => e.type === "response.completed");
    expect(done && "response" in done ? done.response.output : []).toMatchObject([
      { type: "function_call", name: "get_weather", arguments: '{"city":"Paris"}' },
    ]);
  });

  it("a response.failed inside the 200 stream: the events before it delivered, then a typed error", async () => {
    hub.inject({ type: "responseFailed", afterChunks: 3, code: "server_error", message: "The model crashed" });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const e of responsesStream(
        { model: "hfkit/router-multi", input: "Hi" },
        { fetch: toHub, maxRetries: 0 },
      ))
        seen.push(e.type);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toMatch(/The model crashed/);
    expect((error as ServerError).requestId).toMatch(/^mock-/);
    expect(seen).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
  });

  it("an error event before any event: the typed error, retried as its class is over HTTP", async () => {
    hub.inject({ type: "overloadedInStream" }, { times: 1 });
    const seen = await events({ model: "hfkit/router-multi", input: "Hi" }, { fetch: toHub, maxRetries: 1 });
    expect(deltas(seen, "response.output_text.delta")).toBe(TEXT);
    expect(paths()).toEqual(["/v1/responses", "/v1/responses"]);
    hub.inject({ type: "overloadedInStream" }, { times: 1 });
    await expect(events({ model: "hfkit/router-multi", input: "Hi" }, { fetch: toHub })).rejects.toBeInstanceOf(
      RateLimitError,
    );
  });
});

describe("over chat completions, where the server has no Responses API", () => {
  it("a server a chat call already showed to be TGI is asked over chat at once: no native request", async () => {
    const client = new InferenceClient("hf_test", { baseUrl: hub.url });
    hub.setModel("acme/tgi-known", { tgiVersion: "3.2.0" });
    await client.chatCompletion({
      model: "acme/tgi-known",
      messages: [{ role: "user", content: "Hi" }],
      max_tokens: 5,
    });
    hub.reset();
    const out = await client.responses({
      model: "acme/tgi-known",
      input: "What is the capital of France?",
      max_output_tokens: 50,
    });
    expect(paths()).toEqual(["/models/acme/tgi-known/v1/chat/completions"]);
    expect(out.output_text).toBe(TEXT);
  });

  it("TGI: the native route's 404, then chat; remembered, so the next call goes to chat at once", async () => {
    const client = new InferenceClient("hf_test", { baseUrl: hub.url });
    hub.setModel("acme/tgi", { tgiVersion: "3.2.0" });
    const args = {
      model: "acme/tgi",
      input: "What is the capital of France?",
      instructions: "Be brief",
      max_output_tokens: 50,
      temperature: 0.5,
    };
    const out = await client.responses(args);
    expect(paths()).toEqual(["/models/acme/tgi/v1/responses", "/models/acme/tgi/v1/chat/completions"]);
    expect(hub.requests[1]?.headers.authorization).toBe("Bearer hf_test");
    expect(bodyOf("/models/acme/tgi/v1/chat/completions")).toMatchObject({
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: "What is the capital of France?" },
      ],
      max_tokens: 50,
      temperature: 0.5,
    });
    expect(out).toMatchObject({
      object: "response",
      status: "completed",
      model: "acme/tgi",
      output_text: TEXT,
      instructions: "Be brief",
      temperature: 0.5,
    });
    expect(out.id).toMatch(/^resp_/);
    expect(out.output).toMatchObject([
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: TEXT }] },
    ]);
    expect(out.output[0]?.id).toMatch(/^msg_/);
    expect(out.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(out.usage!.total_tokens).toBe(out.usage!.input_tokens + out.usage!.output_tokens);
    hub.reset();
    await client.responses(args);
    expect(paths()).toEqual(["/models/acme/tgi/v1/chat/completions"]);
  });

  it.each(["2.0.2", "3.2.0"])(
    "TGI %s streamed: OpenAI's event sequence made from the chat chunks",
    async (tgiVersion) => {
      const model = `acme/tgi-${tgiVersion}`;
      hub.setModel(model, { tgiVersion });
      const seen = await events({ model, input: "What is the capital of France?" }, { baseUrl: hub.url });
      expect(types(seen)).toEqual(TEXT_EVENTS);
      expect(deltas(seen, "response.output_text.delta")).toBe(TEXT);
      expectCoherent(seen);
      const done = seen.at(-1);
      expect(done && "response" in done ? done.response.output_text : "").toBe(TEXT);
      expect(bodyOf(`/models/${model}/v1/chat/completions`)).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
    },
  );

  it("max_output_tokens cuts the answer: status incomplete, response.incomplete last", async () => {
    const seen = await events({ model: "hfkit/tgi-3.2", input: "Hi", max_output_tokens: 2 }, { baseUrl: hub.url });
    const last = seen.at(-1);
    expect(last?.type).toBe("response.incomplete");
    expect(last && "response" in last ? last.response : undefined).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
    expect(deltas(seen, "response.output_text.delta")).toBe("The capital");
  });

  it("the transformers pipeline: 404, then the chat route's refusal, then the pipeline; streamed and not", async () => {
    const base = hub.url;
    hub.setModel("acme/pipeline", { backend: "transformers" });
    const out = await responses({ model: "acme/pipeline", input: "Hi" }, { baseUrl: base, maxRetries: 0 });
    expect(out.output_text).toBe(TEXT);
    const m = "/models/acme/pipeline";
    expect(paths()).toEqual([`${m}/v1/responses`, `${m}/v1/chat/completions`, m]);
    hub.reset();
    const seen = await events({ model: "acme/pipeline", input: "Hi" }, { baseUrl: base });
    expect(paths()).toEqual([m]);
    expect(types(seen)).toEqual([...TEXT_EVENTS.slice(0, 4), "response.output_text.delta", ...TEXT_EVENTS.slice(-4)]);
    await expect(
      responses({ model: "acme/pipeline", input: "Hi", tools: [WEATHER] }, { baseUrl: base }),
    ).rejects.toThrow(/cannot honour `tools`/);
  });

  it("function calls: chat's tool call as a function_call item; a conversation's calls and outputs as chat messages", async () => {
    const base = hub.url;
    hub.setModel("acme/tools", { tgiVersion: "3.1.0" });
    const seen = await events(
      { model: "acme/tools", input: "What is the weather in Paris?", tools: [WEATHER], tool_choice: "auto" },
      { baseUrl: base },
    );
    expect(types(seen)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      ...Array(5).fill("response.function_call_arguments.delta"),
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const done = seen.find((e) => e.type === "response.output_item.done");
    const item = done && "item" in done ? done.item : undefined;
    expect(item).toMatchObject({
      type: "function_call",
      name: "get_weather",
      arguments: '{"city":"Paris"}',
      status: "completed",
    });
    expect(item?.id).toMatch(/^fc_/);
    expect(item && "call_id" in item ? item.call_id : "").toMatch(/^call_/);
    expect(bodyOf("/models/acme/tools/v1/chat/completions").tools).toEqual([
      {
        type: "function",
        function: { name: "get_weather", description: WEATHER.description, parameters: WEATHER.parameters },
      },
    ]);

    hub.reset();
    const input: ResponsesArgs["input"] = [
      { role: "user", content: "What is the weather in Paris?" },
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "function_call_output", call_id: "call_1", output: '{"sky":"clear"}' },
    ];
    const out = await responses({ model: "acme/tools", input }, { baseUrl: base });
    expect(out.output_text).toBe(TEXT);
    expect(bodyOf("/models/acme/tools/v1/chat/completions").messages).toEqual([
      { role: "user", content: "What is the weather in Paris?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"sky":"clear"}' },
    ]);
  });

  it("reasoning over chat (a vLLM endpoint whose native route is missing): a reasoning item before the message", async () => {
    const out = await responses(
      { model: "hfkit/vllm", input: "Hi" },
      { endpointUrl: `${hub.url}/endpoints/hfkit/vllm`, backend: "tgi" },
    );
    expect(paths()).toEqual(["/endpoints/hfkit/vllm/v1/chat/completions"]);
    expect(out.output).toMatchObject([
      { type: "reasoning", content: [{ type: "reasoning_text", text: REASONING }] },
      { type: "message" },
    ]);
    expect(out.output_text).toBe(TEXT);
  });
});

describe("time limits over both routes", () => {
  it("a chat stream that stalls after its first chunks: TimeoutError idle, the hub's stream closed", async () => {
    hub.setModel("acme/stalls", { tgiVersion: "3.2.0" });
    hub.inject({ type: "stall", afterChunks: 2 }, { model: "acme/stalls" });
    const error = await events({ model: "acme/stalls", input: "Hi" }, { baseUrl: hub.url, idleTimeout: 50 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("idle");
    expect(paths()).toEqual(["/models/acme/stalls/v1/responses", "/models/acme/stalls/v1/chat/completions"]);
    await expect.poll(() => hub.openStreams()).toBe(0);
  });

  it("`timeout` is one deadline over the native try and the chat one", async () => {
    hub.setModel("acme/slow", { tgiVersion: "3.2.0" });
    hub.inject({ type: "headersDelay", delayMs: 150 }, { model: "acme/slow" });
    const error = await responses({ model: "acme/slow", input: "Hi" }, { baseUrl: hub.url, timeout: 250 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("deadline");
    expect(paths()).toEqual(["/models/acme/slow/v1/responses", "/models/acme/slow/v1/chat/completions"]);
  });
});

describe("arguments checked before anything is sent", () => {
  it.each([
    [{ input: [] }, "input"],
    [{ input: 3 }, "input"],
    [{ input: [{ type: "function_call", name: "f", arguments: "{}" }] }, "input[0].call_id"],
    [{ input: [{ role: "user", content: 3 }] }, "input[0].content"],
    [{ input: "Hi", temperature: 3 }, "temperature"],
    [{ input: "Hi", top_p: -0.1 }, "top_p"],
    [{ input: "Hi", max_output_tokens: 0 }, "max_output_tokens"],
    [{ input: "Hi", tools: {} }, "tools"],
    [{ input: "Hi", tools: [{ type: "function" }] }, "tools[0].name"],
    [{ input: "Hi", tool_choice: 1 }, "tool_choice"],
    [{ input: "Hi", text: { format: { type: "json_schema", schema: {} } } }, "text.format.name"],
    [{ input: "Hi", text: { format: { type: "yaml" } } }, "text.format.type"],
  ])("%j: an InputError naming %s", async (args, field) => {
    const error = await responses({ model: "hfkit/tgi-3.2", ...(args as ResponsesArgs) }, { baseUrl: hub.url }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
    const streamed = await events({ model: "hfkit/tgi-3.2", ...(args as ResponsesArgs) }, { baseUrl: hub.url }).catch(
      (e: unknown) => e,
    );
    expect((streamed as InputError).field).toBe(field);
    expect(hub.requests).toHaveLength(0);
  });

  it("a hosted tool or previous_response_id, on a model served over chat: an InputError before the chat request", async () => {
    const base = hub.url;
    const error = await responses(
      { model: "hfkit/tgi-3.2", input: "Hi", tools: [{ type: "web_search" }] },
      { baseUrl: base },
    ).catch((e: unknown) => e);
    expect((error as InputError).field).toBe("tools[0].type");
    await expect(
      responses({ model: "hfkit/tgi-3.2", input: "Hi", previous_response_id: "resp_1" }, { baseUrl: base }),
    ).rejects.toThrow(/previous_response_id/);
    expect(paths().every((p) => p.endsWith("/v1/responses"))).toBe(true);
  });
});
