/**
 * The `observe` option against the mock hub: what a call reports — its start with the request's parameters, each
 * HTTP attempt, each retry, each failover move, the first chunk with data and the end with tokens, finish reasons,
 * the provider and the error's class — in order, with no prompt or answer text and never the token.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type CallEvent,
  chatCompletion,
  chatCompletionStream,
  InferenceClient,
  type Options,
  runTools,
  textGeneration,
} from "../src/index";

const TOKEN = "hf_observe_secret_token";
const PROMPT = "What is the capital of France? (a private question)";
const messages = [{ role: "user", content: PROMPT }];
let hub: MockHub;

beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());

function watch(): { events: CallEvent[]; options: (more?: Options) => Options } {
  const events: CallEvent[] = [];
  return {
    events,
    options: (more = {}) => ({
      endpointUrl: `${hub.url}/models/hfkit/tgi-3.2`,
      maxRetries: 0,
      logger: { warn() {} },
      observe: (e) => events.push(e),
      ...more,
    }),
  };
}

const types = (events: CallEvent[]) => events.map((e) => e.type);

describe("what a call reports", () => {
  it("a whole chat: start (model, parameters), the attempt, the first chunk, the end (tokens, model, finish reasons)", async () => {
    const { events, options } = watch();
    const out = await chatCompletion(
      { accessToken: TOKEN, model: "hfkit/tgi-3.2", messages, temperature: 0.5, max_tokens: 20 },
      options(),
    );
    expect(types(events)).toEqual(["start", "attempt", "first-chunk", "end"]);
    const [start, attempt, , end] = events;
    expect(start).toMatchObject({
      type: "start",
      operation: "chat",
      model: "hfkit/tgi-3.2",
      stream: false,
      parameters: { temperature: 0.5, max_tokens: 20 },
    });
    expect(attempt).toMatchObject({ type: "attempt", attempt: 1, status: 200, host: new URL(hub.url).host });
    expect(end).toMatchObject({
      type: "end",
      chunks: 1,
      attempts: 1,
      finishReasons: ["stop"],
      usage: { input: out.usage.prompt_tokens, output: out.usage.completion_tokens },
      responseModel: out.model,
    });
    expect(new Set(events.map((e) => e.call)).size).toBe(1);
    expect(JSON.stringify(events)).not.toMatch(/private question|Paris|hf_observe/);
  });

  it("a stream: the first chunk with data timed, its chunks counted, the time per chunk, usage from the last chunk", async () => {
    const { events, options } = watch();
    let text = "";
    for await (const chunk of chatCompletionStream(
      { accessToken: TOKEN, messages, stream_options: { include_usage: true } },
      options(),
    ))
      text += chunk.choices[0]?.delta?.content ?? "";
    expect(types(events)).toEqual(["start", "attempt", "first-chunk", "end"]);
    const end = events.at(-1) as Extract<CallEvent, { type: "end" }>;
    const first = events[2] as Extract<CallEvent, { type: "first-chunk" }>;
    expect(end.chunks).toBeGreaterThan(2);
    expect(end.timePerChunkMs).toBeGreaterThanOrEqual(0);
    expect(first.ms).toBeLessThanOrEqual(end.durationMs);
    expect(end.usage?.output).toBeGreaterThan(0);
    expect(end.finishReasons).toEqual(["stop"]);
    expect(text.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(text.trim().slice(0, 12));
  });

  it("a retry: the failed attempt, the retry with its reason and wait, the next attempt, the end counting both", async () => {
    const { events, options } = watch();
    hub.inject({ type: "rateLimit", retryAfterMs: 5 }, { times: 1 });
    const seen: number[] = [];
    await chatCompletion(
      { accessToken: TOKEN, messages },
      options({ maxRetries: 1, onResponse: (info) => seen.push(info.status) }),
    );
    expect(types(events)).toEqual(["start", "attempt", "retry", "attempt", "first-chunk", "end"]);
    expect(events[1]).toMatchObject({ type: "attempt", attempt: 1, status: 429 });
    expect(events[2]).toMatchObject({ type: "retry", attempt: 1, reason: "rate-limit", status: 429 });
    expect(events[3]).toMatchObject({ type: "attempt", attempt: 2, status: 200 });
    expect(events.at(-1)).toMatchObject({ type: "end", attempts: 2 });
    expect(seen).toEqual([429, 200]); // the caller's own hook still called
  });

  it("an error: the end names its class (and a timeout's kind)", async () => {
    const { events, options } = watch();
    hub.inject({ type: "stall", afterChunks: 0 }, { times: 1 });
    const error = await (async () => {
      for await (const _ of chatCompletionStream({ accessToken: TOKEN, messages }, options({ firstChunkTimeout: 50 })))
        void _;
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    expect(events.at(-1)).toMatchObject({ type: "end", error: { name: "TimeoutError", kind: "first-chunk" } });
    expect(types(events)).not.toContain("first-chunk");
  });

  it("a bad input still starts and ends: the end names InputError, and nothing is sent", async () => {
    const { events, options } = watch();
    await chatCompletion({ accessToken: TOKEN, messages, temperature: -1 }, options()).catch(() => {});
    expect(events.map((e) => (e.type === "end" ? e.error?.name : e.type))).toEqual(["start", "InputError"]);
    expect(hub.requests).toEqual([]);
  });

  it("each attempt and the end say whose protocol served: tgi, or openai once TGI's generate route handed off", async () => {
    const tgi = watch();
    for await (const _ of chatCompletionStream({ accessToken: TOKEN, messages }, tgi.options())) void _;
    expect(
      tgi.events
        .filter((e) => e.type === "attempt" || e.type === "end")
        .map((e) => ("backend" in e ? e.backend : "none")),
    ).toEqual(["tgi", "tgi"]);
    const vllm = watch();
    await textGeneration(
      { accessToken: TOKEN, inputs: PROMPT },
      vllm.options({ endpointUrl: `${hub.url}/endpoints/hfkit/vllm` }),
    );
    const attempts = vllm.events.filter((e) => e.type === "attempt");
    expect(attempts.map((e) => [e.status, e.backend])).toEqual([
      [404, "tgi"],
      [200, "openai"],
    ]);
    expect(vllm.events.at(-1)).toMatchObject({ type: "end", backend: "openai" });
  });

  it("a stream left early ends once, without an error, its chunks so far counted", async () => {
    const { events, options } = watch();
    let taken = 0;
    for await (const chunk of chatCompletionStream({ accessToken: TOKEN, messages }, options()))
      if (chunk.choices[0]?.delta?.content && ++taken === 2) break;
    const ends = events.filter((e) => e.type === "end");
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ chunks: 2 });
    expect(ends[0]?.error).toBeUndefined();
  });

  it("a streamed answer that breaks its schema ends with StructuredOutputError", async () => {
    const { events, options } = watch();
    hub.inject({ type: "schemaViolation" }, { times: 1 });
    const schema = {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    };
    const error = await (async () => {
      const stream = chatCompletionStream(
        {
          accessToken: TOKEN,
          messages,
          response_format: { type: "json_schema", json_schema: { name: "place", schema } },
        },
        options(),
      );
      for await (const _ of stream) void _;
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe("StructuredOutputError");
    expect(types(events)).toEqual(["start", "attempt", "first-chunk", "end"]);
    expect(events.at(-1)).toMatchObject({ type: "end", error: { name: "StructuredOutputError" } });
  });

  it("an observer that throws never fails the call", async () => {
    const out = await chatCompletion(
      { accessToken: TOKEN, messages },
      {
        endpointUrl: `${hub.url}/models/hfkit/tgi-3.2`,
        observe: () => {
          throw new Error("observer down");
        },
      },
    );
    expect(out.choices[0]?.message.content).toBeTruthy();
  });
});

describe("everywhere a chat goes", () => {
  it("failover: each move reported, the end naming the provider that served it", async () => {
    const { events } = watch();
    hub.inject({ type: "serverError", status: 502 }, { model: "hfkit/router-multi", provider: "together" });
    const client = new InferenceClient(TOKEN, { routerUrl: hub.url, maxRetries: 0, observe: (e) => events.push(e) });
    await client.chatCompletion({ model: "hfkit/router-multi", messages, provider: ["together", "novita"] });
    expect(types(events)).toEqual(["start", "attempt", "failover", "attempt", "first-chunk", "end"]);
    const move = events.find((e) => e.type === "failover");
    expect(move).toMatchObject({
      from: "hfkit/router-multi:together",
      to: "hfkit/router-multi:novita",
      reason: "server-error",
      error: "ServerError",
    });
    expect(
      events.filter((e) => e.type === "attempt").map((e) => (e as Extract<CallEvent, { type: "attempt" }>).status),
    ).toEqual([502, 200]);
    expect(events.at(-1)).toMatchObject({ type: "end", provider: "novita", attempts: 2 });
  });

  it("textGeneration reports as text_completion", async () => {
    const { events, options } = watch();
    await textGeneration(
      { accessToken: TOKEN, inputs: "Once upon a time", parameters: { max_new_tokens: 5 } },
      options({ backend: "tgi" }),
    );
    expect(events[0]).toMatchObject({ type: "start", operation: "text_completion", parameters: { max_new_tokens: 5 } });
    expect(events.at(-1)).toMatchObject({ type: "end", chunks: 1 });
  });

  it("the tool runner: each step is a call of its own", async () => {
    const { events, options } = watch();
    const tools = [
      {
        name: "weather",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        run: () => "sunny",
      },
    ];
    await runTools(
      { accessToken: TOKEN, messages, tools },
      options({ endpointUrl: `${hub.url}/models/hfkit/vllm`, backend: "openai" }),
    );
    const starts = events.filter((e) => e.type === "start");
    expect(starts).toHaveLength(2);
    expect(types(events)).toEqual([
      "start",
      "attempt",
      "first-chunk",
      "end",
      "tool",
      "start",
      "attempt",
      "first-chunk",
      "end",
    ]);
    expect(new Set(events.map((e) => e.call)).size).toBe(3);
    expect(
      events.filter((e) => e.type === "end").map((e) => (e as Extract<CallEvent, { type: "end" }>).finishReasons),
    ).toEqual([["tool_calls"], ["stop"]]);
  });

  it("the tool runner: each tool call is an event of its own, with its name, id, step, time and outcome", async () => {
    const { events, options } = watch();
    const tools = [
      {
        name: "weather",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        run: () => Promise.reject(new RangeError("no forecast")),
      },
    ];
    const run = await runTools(
      { accessToken: TOKEN, messages, tools },
      options({ endpointUrl: `${hub.url}/models/hfkit/vllm`, backend: "openai" }),
    );
    const [tool] = events.filter((e) => e.type === "tool");
    const [result] = run.steps[0]?.results ?? [];
    expect(tool).toMatchObject({
      type: "tool",
      step: 1,
      name: "weather",
      callId: result?.id,
      status: "error",
      error: "ToolError",
    });
    expect(tool?.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(tool)).not.toMatch(/Paris|no forecast|hf_observe/);
    const ok = watch();
    await runTools(
      { accessToken: TOKEN, messages, tools: [{ ...tools[0]!, run: () => "sunny" }] },
      ok.options({ endpointUrl: `${hub.url}/models/hfkit/vllm`, backend: "openai" }),
    );
    const [fine] = ok.events.filter((e) => e.type === "tool");
    expect(fine).toMatchObject({ status: "ok" });
    expect(fine && "error" in fine).toBe(false);
  });
});

describe("the other tasks", () => {
  it("each reports under its operation's name: embeddings for feature extraction, the task's name for the others", async () => {
    const { events, options } = watch();
    await new InferenceClient(
      TOKEN,
      options({ endpointUrl: undefined, baseUrl: `${hub.url}/hf-inference` }),
    ).featureExtraction({ model: "hfkit/feature-extraction", inputs: "Hello" });
    await new InferenceClient(
      TOKEN,
      options({ endpointUrl: undefined, baseUrl: `${hub.url}/hf-inference` }),
    ).textClassification({ model: "hfkit/text-classification", inputs: "I love it" });
    expect(
      events.filter((e) => e.type === "start").map((e) => (e as Extract<CallEvent, { type: "start" }>).operation),
    ).toEqual(["embeddings", "text-classification"]);
    expect(
      events
        .filter((e) => e.type === "end")
        .map((e) => [
          (e as Extract<CallEvent, { type: "end" }>).attempts,
          (e as Extract<CallEvent, { type: "end" }>).error,
        ]),
    ).toEqual([
      [1, undefined],
      [1, undefined],
    ]);
  });
});

describe("the Responses API", () => {
  it("a response and a streamed one report as chat, their text deltas as chunks, their usage and status at the end", async () => {
    const { events, options } = watch();
    const client = new InferenceClient(TOKEN, { routerUrl: hub.url, maxRetries: 0, observe: options().observe });
    const whole = await client.responses({ model: "hfkit/router-multi", input: "Where?" });
    for await (const _ of client.responsesStream({ model: "hfkit/router-multi", input: "Where?" })) void _;
    const ends = events.filter((e) => e.type === "end") as Array<Extract<CallEvent, { type: "end" }>>;
    expect(
      events.filter((e) => e.type === "start").map((e) => (e as Extract<CallEvent, { type: "start" }>).operation),
    ).toEqual(["chat", "chat"]);
    expect(ends[0]).toMatchObject({
      chunks: 1,
      finishReasons: ["completed"],
      usage: { input: whole.usage?.input_tokens, output: whole.usage?.output_tokens },
    });
    expect(ends[1]?.chunks).toBeGreaterThan(1);
    expect(ends[1]).toMatchObject({ finishReasons: ["completed"], provider: "together" });
    expect(ends[1]?.usage?.output).toBeGreaterThan(0);
  });
});
