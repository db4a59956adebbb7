import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InferenceClient,
  InputError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
} from "../src/index";
import type { Logger } from "../src/types";
import { messages, within } from "./helpers";

const TEXT = "The capital of France is Paris.";

let hub: MockHub;
let warnings: string[];
let client: InferenceClient;

beforeEach(async () => {
  hub = await startMockHub(); // a new port: a new (base, model) key for the shared backend memory
  warnings = [];
  const logger: Logger = { warn: (m) => warnings.push(m) };
  client = new InferenceClient("hf_test", { baseUrl: hub.url, logger, maxRetries: 0 });
});
afterEach(() => hub.close());

const chatRoute = (model: string) => `/models/${model}/v1/chat/completions`;
const pipelineRoute = (model: string) => `/models/${model}`;
const paths = () => hub.requests.map((r) => r.path);

describe("detection: TGI's chat route first, the pipeline only on a 'not TGI' answer", () => {
  it.each([
    ["500 unknown error with warnings", "hfkit/transformers-chat"],
    ["400 wrong format", "hfkit/transformers-wrong-format"],
    ["404 that is not 'does not exist'", "hfkit/transformers-not-found"],
  ])("%s -> the pipeline answers; the next call goes straight to it", async (_signal, model) => {
    const first = await client.chatCompletion({ model, messages });
    expect(first.choices[0]?.message).toEqual({ role: "assistant", content: TEXT });
    expect(first.choices[0]?.finish_reason).toBe("stop");
    expect(first.model).toBe(model);
    expect(first.id).toMatch(/^chatcmpl-/);
    expect(paths()).toEqual([chatRoute(model), pipelineRoute(model)]);
    await client.chatCompletion({ model, messages });
    expect(paths()).toEqual([chatRoute(model), pipelineRoute(model), pipelineRoute(model)]);
  });

  it("the memory is shared by clients, endpoint() children and the standalone functions", async () => {
    const model = "hfkit/transformers-chat";
    await client.chatCompletion({ model, messages });
    const other = new InferenceClient("", { baseUrl: hub.url });
    await other.chatCompletion({ model, messages });
    expect(paths().filter((p) => p === chatRoute(model))).toHaveLength(1);
  });

  it("a TGI model is remembered too: one request per call", async () => {
    const model = "hfkit/tgi-3.2";
    for (let i = 0; i < 3; i++) await client.chatCompletion({ model, messages });
    expect(paths()).toEqual([chatRoute(model), chatRoute(model), chatRoute(model)]);
  });

  it("concurrent first calls wait for one detection: one failed request in all", async () => {
    const model = "hfkit/transformers-chat";
    const outs = await within(Promise.all(Array.from({ length: 8 }, () => client.chatCompletion({ model, messages }))));
    expect(outs.every((o) => o.choices[0]?.message.content === TEXT)).toBe(true);
    expect(paths().filter((p) => p === chatRoute(model))).toHaveLength(1);
    expect(paths().filter((p) => p === pipelineRoute(model))).toHaveLength(8);
  });

  it("the explicit backend hint sends no chat-route request at all", async () => {
    const model = "hfkit/transformers-chat";
    await client.chatCompletion({ model, messages }, { backend: "transformers" });
    expect(paths()).toEqual([pipelineRoute(model)]);
  });

  it("retry_on_error: false turns off retries, not the fallback", async () => {
    const model = "hfkit/transformers-wrong-format";
    const out = await client.chatCompletion({ model, messages }, { retry_on_error: false });
    expect(out.choices[0]?.message.content).toBe(TEXT);
  });

  it.each([
    ["422 validation", "hfkit/tgi-3.2", { max_tokens: 5000 }, ValidationError],
    ["422 template_error", "hfkit/tgi-no-chat-template", {}, ValidationError],
    ["404 Model X does not exist", "org/does-not-exist", {}, NotFoundError],
  ])("a real TGI error (%s) is not a reason to fall back", async (_name, model, extra, Cls) => {
    const error = await client.chatCompletion({ model, messages, ...extra }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Cls);
    expect(paths()).toEqual([chatRoute(model)]);
  });

  it("a 429 is not a reason to fall back either", async () => {
    const model = "hfkit/tgi-3.2";
    hub.inject({ type: "rateLimit" }, { model, times: 1 });
    const error = await client.chatCompletion({ model, messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(paths()).toEqual([chatRoute(model)]);
  });

  it("when both routes fail, the error says what each answered", async () => {
    const model = "hfkit/transformers-chat";
    // Once the chat route has answered "not TGI", the pipeline route fails too.
    const onResponse = () => void hub.inject({ type: "tooLarge" }, { model, times: 1 });
    const error = await client.chatCompletion({ model, messages }, { onResponse }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect((error as Error).message).toMatch(/too large to be loaded automatically/);
    expect((error as Error).message).toContain('chat route had answered HTTP 500 "unknown error"');
    expect(paths()).toEqual([chatRoute(model), pipelineRoute(model)]);
  });
});

describe("the transformers payload", () => {
  const model = "hfkit/transformers-chat";

  async function sent(args: Record<string, unknown>) {
    await client.chatCompletion({ model, messages, ...args }, { backend: "transformers" });
    return hub.requests.at(-1)!.body as { inputs: unknown; parameters: Record<string, unknown> };
  }

  it.each([
    [{}, { return_full_text: false }],
    [{ max_tokens: 20 }, { max_new_tokens: 20, return_full_text: false }],
    [{ temperature: 0 }, { do_sample: false, return_full_text: false }],
    [{ temperature: 0.5 }, { temperature: 0.5, return_full_text: false }],
    [{ top_p: 0 }, { do_sample: false, return_full_text: false }],
    [
      { top_p: 0, temperature: 0.7 },
      { do_sample: false, return_full_text: false },
    ],
    [{ top_p: 1 }, { return_full_text: false }],
    [{ top_p: 0.9 }, { top_p: 0.9, return_full_text: false }],
    [{ stop: "\n" }, { stop: ["\n"], return_full_text: false }],
  ])("%j -> parameters %j", async (args, parameters) => {
    const body = await sent(args);
    expect(body.inputs).toEqual(messages);
    expect(body.parameters).toEqual(parameters);
  });

  it("parameters the pipeline cannot honour are an InputError before any request", async () => {
    for (const args of [
      { tools: [{ type: "function", function: { name: "f" } }] },
      { response_format: { type: "json_object" } },
      { logprobs: true },
      { n: 2 },
    ]) {
      const error = await client
        .chatCompletion({ model, messages, ...args }, { backend: "transformers" })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toContain("transformers pipeline");
    }
    expect(hub.requests).toHaveLength(0);
  });

  it("null is unset (as Python clients send it): the pipeline is asked, nothing refused", async () => {
    const args = {
      model,
      messages,
      tool_choice: null,
      response_format: null,
      top_logprobs: null,
      seed: null,
      tools: null,
    };
    const out = await client.chatCompletion(args as never, { backend: "transformers" });
    expect(out.choices[0]?.message.content).toEqual(expect.any(String));
    expect(hub.requests.at(-1)!.body).toEqual({ inputs: messages, parameters: { return_full_text: false } });
  });

  it("a response_format other than text is refused, whatever its shape", async () => {
    for (const response_format of [
      { type: "json_object" },
      "json",
      { type: "json_schema", json_schema: { name: "x", schema: {} } },
    ]) {
      const error = await client
        .chatCompletion({ model, messages, response_format } as never, { backend: "transformers" })
        .catch((e: unknown) => e);
      expect(error, JSON.stringify(response_format)).toMatchObject({ name: "InputError", field: "response_format" });
    }
    await client.chatCompletion({ model, messages, response_format: { type: "text" } }, { backend: "transformers" });
    expect(hub.requests).toHaveLength(1);
  });

  it("lenient: true drops them and warns once", async () => {
    const args = { model, messages, logprobs: true, seed: 3 };
    await client.chatCompletion(args, { backend: "transformers", lenient: true });
    await client.chatCompletion(args, { backend: "transformers", lenient: true });
    expect(hub.requests.at(-1)!.body).toEqual({ inputs: messages, parameters: { return_full_text: false } });
    expect(warnings.filter((w) => w.includes("lenient"))).toHaveLength(1);
  });

  it("a 400 naming unused model_kwargs drops them, warns, tries once more, and the client applies stop", async () => {
    const noStop = "hfkit/transformers-no-stop";
    const out = await client.chatCompletion({ model: noStop, messages, stop: [" France"] });
    expect(out.choices[0]?.message.content).toBe("The capital of");
    const pipelineBodies = hub.requests
      .filter((r) => r.path === pipelineRoute(noStop))
      .map((r) => r.body as { parameters: object });
    expect(pipelineBodies.map((b) => "stop" in b.parameters)).toEqual([true, false]);
    expect(warnings.some((w) => w.includes("`stop`"))).toBe(true);
    // Remembered: the next call sends no stop and makes one request.
    const before = hub.requests.length;
    const again = await client.chatCompletion({ model: noStop, messages, stop: [" is"] });
    expect(again.choices[0]?.message.content).toBe("The capital of France");
    expect(hub.requests.length - before).toBe(1);
  });
});

describe("streaming from a pipeline model", () => {
  it("yields role and content, then the finish: the same loop as for TGI", async () => {
    const model = "hfkit/transformers-chat";
    const chunks = [];
    for await (const c of client.chatCompletionStream({ model, messages })) chunks.push(c);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: TEXT });
    expect(chunks[1]?.choices[0]?.finish_reason).toBe("stop");
    const pipelineBody = hub.requests.find((r) => r.path === pipelineRoute(model))!.body as Record<string, unknown>;
    expect("stream" in pipelineBody).toBe(false);
  });
});

describe("endpoints", () => {
  it("the same router runs for endpoint(url)", async () => {
    hub.setModel("pipe-ep", { backend: "transformers", chatRouteError: "not-found" });
    const ep = client.endpoint(`${hub.url}/endpoints/pipe-ep`);
    const out = await ep.chatCompletion({ messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(paths()).toEqual(["/endpoints/pipe-ep/v1/chat/completions", "/endpoints/pipe-ep"]);
    await ep.chatCompletion({ messages });
    expect(paths()).toHaveLength(3);
  });
});

describe("textGeneration and textGenerationStream", () => {
  it("textGeneration resolves to the first element of TGI's answer", async () => {
    const out = await client.textGeneration({
      model: "hfkit/tgi-3.2",
      inputs: "Q:",
      parameters: { max_new_tokens: 2, temperature: 0 },
    });
    expect(out.generated_text).toBe("The capital"); // the continuation only, as asked
    const body = hub.requests.at(-1)!.body as { parameters: Record<string, unknown> };
    expect(body.parameters).toEqual({ return_full_text: false, max_new_tokens: 2, do_sample: false });
    expect(hub.requests.at(-1)!.path).toBe("/models/hfkit/tgi-3.2");
  });

  it("textGenerationStream completes at the event with generated_text, even on a socket left open", async () => {
    hub.inject({ type: "linger" }, { model: "hfkit/tgi-3.2" });
    const events = await within(
      collectAll(client.textGenerationStream({ model: "hfkit/tgi-3.2", inputs: "Q:", parameters: { top_p: 1 } })),
    );
    expect(events.at(-1)?.generated_text).toEqual(expect.any(String));
    expect(events.slice(0, -1).every((e) => e.generated_text === null)).toBe(true);
    expect((hub.requests.at(-1)!.body as Record<string, unknown>).stream).toBe(true);
  });

  it("textGenerationStream on a pipeline model yields its answer as one event", async () => {
    const model = "hfkit/transformers-chat";
    const events = await within(collectAll(client.textGenerationStream({ model, inputs: "Q:" })));
    expect(events).toHaveLength(1);
    expect(events[0]?.generated_text).toEqual(expect.any(String));
    expect(events[0]?.token.text).toBe(events[0]?.generated_text);
  });

  it("validates generate parameters before any request", async () => {
    for (const parameters of [{ top_p: 2 }, { max_new_tokens: 0 }, { temperature: -1 }]) {
      await expect(client.textGeneration({ model: "m/x", inputs: "Q", parameters })).rejects.toBeInstanceOf(InputError);
    }
    await expect(client.textGeneration({ model: "m/x", inputs: 3 as never })).rejects.toBeInstanceOf(InputError);
    expect(hub.requests).toHaveLength(0);
  });
});

describe("legacy conversational input", () => {
  it("maps the history to messages and answers the legacy shape", async () => {
    const out = await client.conversational({
      model: "hfkit/tgi-3.2",
      inputs: {
        past_user_inputs: ["Hi", "Where?"],
        generated_responses: ["Hello", "Here"],
        text: "Capital of France?",
      },
      parameters: { max_new_tokens: 2 },
    });
    expect(out.generated_text).toBe("The capital");
    expect(out.conversation).toEqual({
      past_user_inputs: ["Hi", "Where?", "Capital of France?"],
      generated_responses: ["Hello", "Here", "The capital"],
    });
    expect(hub.requests.at(-1)!.body).toMatchObject({
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        { role: "user", content: "Where?" },
        { role: "assistant", content: "Here" },
        { role: "user", content: "Capital of France?" },
      ],
      max_tokens: 2,
    });
  });
});

async function collectAll<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
