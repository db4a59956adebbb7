/**
 * withTelemetry() with the real OpenTelemetry SDK, on real hfkit calls against the mock hub: the call span, its
 * attempt spans, retry and failover events, the four GenAI client metrics, and no text anywhere.
 */
import {
  type CallEvent,
  chatCompletion,
  chatCompletionStream,
  InferenceClient,
  type Options,
  runTools,
  textGeneration,
} from "@hfkit/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLIENT, everything, ms, record, type Recorded } from "./helpers";

const TOKEN = "hf_otel_secret_token";
const PROMPT = "Which river runs through Paris? (a private question)";
const messages = [{ role: "user", content: PROMPT }];
const MODEL = "hfkit/tgi-3.2";
let hub: MockHub;
let host: URL;

beforeAll(async () => {
  hub = await startMockHub();
  host = new URL(hub.url);
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());

const endpoint = (r: Recorded, more: Options = {}): Options => ({
  endpointUrl: `${hub.url}/models/${MODEL}`,
  maxRetries: 0,
  logger: { warn() {} },
  observe: r.observe,
  ...more,
});
const endOf = (events: CallEvent[]) => events.find((e) => e.type === "end") as Extract<CallEvent, { type: "end" }>;
const server = () => ({ "server.address": host.hostname, "server.port": Number(host.port) });

describe("a call's span", () => {
  it("a whole chat: one CLIENT span named `chat <model>` with the request, response, usage and server, timed by the events", async () => {
    const r = record();
    const out = await chatCompletion(
      {
        accessToken: TOKEN,
        model: MODEL,
        messages,
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 20,
        seed: 7,
        stop: ["END", "STOP"],
      },
      endpoint(r),
    );
    const [span, ...others] = r.calls();
    expect(others).toEqual([]);
    expect(span?.name).toBe(`chat ${MODEL}`);
    expect(span?.kind).toBe(CLIENT);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "huggingface",
      "gen_ai.request.model": MODEL,
      "gen_ai.request.temperature": 0.5,
      "gen_ai.request.top_p": 0.9,
      "gen_ai.request.max_tokens": 20,
      "gen_ai.request.seed": 7,
      "gen_ai.request.stop_sequences": ["END", "STOP"],
      "gen_ai.response.model": out.model,
      "gen_ai.response.finish_reasons": ["stop"],
      "gen_ai.usage.input_tokens": out.usage.prompt_tokens,
      "gen_ai.usage.output_tokens": out.usage.completion_tokens,
      ...server(),
      "hfkit.stream": false,
      "hfkit.attempts": 1,
      "hfkit.chunks": 1,
      "hfkit.backend": "tgi",
      "hfkit.time_to_first_chunk_ms": expect.any(Number) as number,
    });
    const start = r.events[0] as Extract<CallEvent, { type: "start" }>;
    expect(ms(span!.startTime)).toBeCloseTo(start.time, 3);
    expect(ms(span!.duration)).toBeCloseTo(endOf(r.events).durationMs, 3);
  });

  it("each HTTP attempt is a child span, inside the call's, ending when its headers arrived", async () => {
    const r = record();
    await chatCompletion({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r));
    const [call] = r.calls();
    const [attempt, ...more] = r.attemptsOf(call!);
    expect(more).toEqual([]);
    expect(attempt?.kind).toBe(CLIENT);
    expect(attempt?.spanContext().traceId).toBe(call?.spanContext().traceId);
    expect(attempt?.attributes).toMatchObject({
      "http.response.status_code": 200,
      "hfkit.attempt": 1,
      "hfkit.backend": "tgi",
      ...server(),
    });
    expect(attempt?.attributes["error.type"]).toBeUndefined();
    expect(ms(attempt!.startTime)).toBeGreaterThanOrEqual(ms(call!.startTime) - 0.001);
    expect(ms(attempt!.endTime)).toBeLessThanOrEqual(ms(call!.endTime) + 0.001);
    const seen = r.events.find((e) => e.type === "attempt") as Extract<CallEvent, { type: "attempt" }>;
    // Within half a millisecond: the first attempt's start is held at the call's (whose `time` is whole ms).
    expect(Math.abs(ms(attempt!.duration) - seen.durationMs)).toBeLessThan(0.5);
  });

  it("a stream with usage: tokens, finish reasons, the time to the first chunk and the chunks counted", async () => {
    const r = record();
    for await (const chunk of chatCompletionStream(
      { accessToken: TOKEN, model: MODEL, messages, stream_options: { include_usage: true } },
      endpoint(r),
    ))
      void chunk;
    const end = endOf(r.events);
    const first = r.events.find((e) => e.type === "first-chunk") as Extract<CallEvent, { type: "first-chunk" }>;
    const [span] = r.calls();
    expect(end.chunks).toBeGreaterThan(2);
    expect(span?.attributes).toMatchObject({
      "hfkit.stream": true,
      "hfkit.chunks": end.chunks,
      "hfkit.time_to_first_chunk_ms": first.ms,
      "gen_ai.usage.input_tokens": end.usage?.input,
      "gen_ai.usage.output_tokens": end.usage?.output,
      "gen_ai.response.finish_reasons": ["stop"],
    });
    expect(end.usage?.output).toBeGreaterThan(0);
  });

  it("a retry: two attempt spans (the 429 in error), a `hfkit.retry` event with its reason and wait, two attempts counted", async () => {
    const r = record();
    hub.inject({ type: "rateLimit", retryAfterMs: 5 }, { times: 1 });
    await chatCompletion({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r, { maxRetries: 1 }));
    const [call] = r.calls();
    const attempts = r.attemptsOf(call!).sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(
      attempts.map((a) => [
        a.attributes["hfkit.attempt"],
        a.attributes["http.response.status_code"],
        a.attributes["error.type"],
        a.status.code,
      ]),
    ).toEqual([
      [1, 429, "429", SpanStatusCode.ERROR],
      [2, 200, undefined, SpanStatusCode.UNSET],
    ]);
    expect(ms(attempts[0]!.endTime)).toBeLessThanOrEqual(ms(attempts[1]!.startTime) + 0.001);
    const retry = r.events.find((e) => e.type === "retry") as Extract<CallEvent, { type: "retry" }>;
    expect(call?.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        "hfkit.retry",
        {
          "hfkit.retry.attempt": 1,
          "hfkit.retry.reason": "rate-limit",
          "hfkit.retry.delay_ms": retry.delayMs,
          "http.response.status_code": 429,
        },
      ],
    ]);
    expect(call?.attributes["hfkit.attempts"]).toBe(2);
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("an error: status ERROR, error.type the error's class, no usage", async () => {
    const r = record();
    hub.inject({ type: "serverError", status: 500 });
    const error = await chatCompletion({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r)).catch(
      (e: unknown) => e as Error,
    );
    const [call] = r.calls();
    expect(error.name).toBe("ServerError");
    expect(call?.status).toEqual({ code: SpanStatusCode.ERROR, message: "ServerError" });
    expect(call?.attributes["error.type"]).toBe("ServerError");
    expect(call?.attributes["gen_ai.usage.input_tokens"]).toBeUndefined();
    expect(r.attemptsOf(call!).map((a) => a.attributes["http.response.status_code"])).toEqual([500]);
  });

  it("a timeout names its kind", async () => {
    const r = record();
    hub.inject({ type: "stall", afterChunks: 0 }, { times: 1 });
    await (async () => {
      for await (const _ of chatCompletionStream(
        { accessToken: TOKEN, model: MODEL, messages },
        endpoint(r, { firstChunkTimeout: 50 }),
      ))
        void _;
    })().catch(() => {});
    const [call] = r.calls();
    expect(call?.attributes).toMatchObject({ "error.type": "TimeoutError", "hfkit.timeout.kind": "first-chunk" });
    expect(call?.attributes["hfkit.time_to_first_chunk_ms"]).toBeUndefined();
  });

  it("a failover: a `hfkit.failover` event with from, to, reason and error; the provider that served", async () => {
    const r = record();
    hub.inject({ type: "serverError", status: 502 }, { model: "hfkit/router-multi", provider: "together" });
    const client = new InferenceClient(TOKEN, { routerUrl: hub.url, maxRetries: 0, observe: r.observe });
    await client.chatCompletion({ model: "hfkit/router-multi", messages, provider: ["together", "novita"] });
    const [call] = r.calls();
    expect(call?.name).toBe("chat hfkit/router-multi");
    expect(call?.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        "hfkit.failover",
        {
          "hfkit.failover.from": "hfkit/router-multi:together",
          "hfkit.failover.to": "hfkit/router-multi:novita",
          "hfkit.failover.reason": "server-error",
          "hfkit.failover.error": "ServerError",
        },
      ],
    ]);
    expect(call?.attributes).toMatchObject({ "hfkit.provider": "novita", "hfkit.attempts": 2 });
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
    expect(
      r
        .attemptsOf(call!)
        .map((a) => a.attributes["http.response.status_code"])
        .sort(),
    ).toEqual([200, 502]);
  });

  it("textGeneration: `text_completion`, max_new_tokens as gen_ai.request.max_tokens, named by the operation alone without a model", async () => {
    const r = record();
    await textGeneration(
      { accessToken: TOKEN, inputs: PROMPT, parameters: { max_new_tokens: 5, temperature: 0.2 } },
      endpoint(r, { backend: "tgi" }),
    );
    const [call] = r.calls();
    expect(call?.name).toBe("text_completion");
    expect(call?.attributes).toMatchObject({
      "gen_ai.operation.name": "text_completion",
      "gen_ai.request.max_tokens": 5,
      "gen_ai.request.temperature": 0.2,
    });
    expect(call?.attributes["gen_ai.request.model"]).toBeUndefined();
  });

  it("featureExtraction: an `embeddings <model>` span, the duration metric, no chunk or token metrics", async () => {
    const r = record();
    const client = new InferenceClient(TOKEN, {
      baseUrl: `${hub.url}/hf-inference`,
      maxRetries: 0,
      observe: r.observe,
    });
    await client.featureExtraction({ model: "hfkit/feature-extraction", inputs: PROMPT });
    const [call] = r.calls();
    expect(call?.name).toBe("embeddings hfkit/feature-extraction");
    expect(call?.attributes).toMatchObject({
      "gen_ai.operation.name": "embeddings",
      "gen_ai.request.model": "hfkit/feature-extraction",
      "hfkit.attempts": 1,
    });
    expect(
      (await r.points("gen_ai.client.operation.duration")).map((p) => p.attributes["gen_ai.operation.name"]),
    ).toEqual(["embeddings"]);
    expect(await r.points("gen_ai.client.operation.time_to_first_chunk")).toEqual([]);
    expect(JSON.stringify(call?.attributes)).not.toContain("private question");
  });

  it("two concurrent calls: each span keeps its own parameters and attempts", async () => {
    const r = record();
    await Promise.all([
      chatCompletion({ accessToken: TOKEN, model: "hfkit/tgi-3.2", messages, temperature: 0.1 }, endpoint(r)),
      chatCompletion({ accessToken: TOKEN, model: "hfkit/tgi-3.2:two", messages, temperature: 0.9 }, endpoint(r)),
    ]);
    // The events did interleave: the second call started before the first ended.
    expect(r.events.map((e) => e.type).slice(0, 2)).toEqual(["start", "start"]);
    const calls = r.calls().sort((a, b) => String(a.name).localeCompare(b.name));
    expect(calls.map((c) => [c.name, c.attributes["gen_ai.request.temperature"]])).toEqual([
      ["chat hfkit/tgi-3.2", 0.1],
      ["chat hfkit/tgi-3.2:two", 0.9],
    ]);
    for (const call of calls) expect(r.attemptsOf(call)).toHaveLength(1);
    expect(new Set(calls.map((c) => c.spanContext().traceId)).size).toBe(2);
  });
});

describe("the metrics", () => {
  it("a whole chat: the duration and the tokens (input and output), with the conventions' attributes; no chunk metrics", async () => {
    const r = record();
    const out = await chatCompletion({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r));
    const attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "huggingface",
      "gen_ai.request.model": MODEL,
      "gen_ai.response.model": out.model,
      ...server(),
    };
    const [duration, ...more] = await r.points("gen_ai.client.operation.duration");
    expect(more).toEqual([]);
    expect(duration?.attributes).toEqual(attributes);
    expect(duration?.value.count).toBe(1);
    expect(duration?.value.sum).toBeCloseTo(endOf(r.events).durationMs / 1000, 6);
    const tokens = await r.points("gen_ai.client.token.usage");
    expect(tokens.map((p) => [p.attributes, p.value.sum])).toEqual([
      [{ ...attributes, "gen_ai.token.type": "input" }, out.usage.prompt_tokens],
      [{ ...attributes, "gen_ai.token.type": "output" }, out.usage.completion_tokens],
    ]);
    expect(await r.points("gen_ai.client.operation.time_to_first_chunk")).toEqual([]);
    expect(await r.points("gen_ai.client.operation.time_per_output_chunk")).toEqual([]);
  });

  it("a stream: the time to the first chunk once, the time per chunk once for each chunk after the first", async () => {
    const r = record();
    for await (const chunk of chatCompletionStream(
      { accessToken: TOKEN, model: MODEL, messages, stream_options: { include_usage: true } },
      endpoint(r),
    ))
      void chunk;
    const end = endOf(r.events);
    const first = r.events.find((e) => e.type === "first-chunk") as Extract<CallEvent, { type: "first-chunk" }>;
    const [ttfc] = await r.points("gen_ai.client.operation.time_to_first_chunk");
    expect(ttfc?.value.count).toBe(1);
    expect(ttfc?.value.sum).toBeCloseTo(first.ms / 1000, 6);
    const [perChunk] = await r.points("gen_ai.client.operation.time_per_output_chunk");
    expect(perChunk?.value.count).toBe(end.chunks - 1);
    expect(perChunk?.value.sum).toBeCloseTo(((end.timePerChunkMs ?? NaN) * (end.chunks - 1)) / 1000, 6);
    expect((await r.points("gen_ai.client.token.usage")).map((p) => p.value.sum)).toEqual([
      end.usage?.input,
      end.usage?.output,
    ]);
  });

  it("a failed call: the duration carries error.type; no tokens", async () => {
    const r = record();
    hub.inject({ type: "serverError", status: 500 });
    await chatCompletion({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r)).catch(() => {});
    const [duration] = await r.points("gen_ai.client.operation.duration");
    expect(duration?.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "huggingface",
      "gen_ai.request.model": MODEL,
      ...server(),
      "error.type": "ServerError",
    });
    expect(await r.points("gen_ai.client.token.usage")).toEqual([]);
  });
});

describe("what it never does", () => {
  it("no prompt, no answer text and no token in any span, event or metric attribute", async () => {
    const r = record();
    const out = await chatCompletion({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r));
    let streamed = "";
    for await (const chunk of chatCompletionStream({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r)))
      streamed += chunk.choices[0]?.delta?.content ?? "";
    await textGeneration({ accessToken: TOKEN, inputs: PROMPT }, endpoint(r, { backend: "tgi" }));
    const points = (
      await Promise.all(["gen_ai.client.operation.duration", "gen_ai.client.token.usage"].map((name) => r.points(name)))
    ).flat();
    const all = everything(r.spans(), points);
    expect(r.spans()).toHaveLength(6);
    for (const secret of [
      "private question",
      "Paris",
      TOKEN,
      out.choices[0]?.message.content?.slice(0, 12),
      streamed.trim().slice(0, 12),
    ]) {
      expect(secret).toBeTruthy();
      expect(all).not.toContain(secret);
    }
  });

  it("never throws into the call: events of an unknown call, or a provider that throws, are dropped", async () => {
    const r = record();
    expect(() =>
      r.observe({ type: "end", call: -1, durationMs: 1, chunks: 0, finishReasons: [], attempts: 0 }),
    ).not.toThrow();
    const broken = {
      getTracer: () => {
        throw new Error("tracer down");
      },
    };
    const { withTelemetry } = await import("../src/index");
    const telemetry = withTelemetry({ tracerProvider: broken });
    const events: string[] = [];
    const thrown: unknown[] = [];
    const observe = (e: CallEvent) => {
      events.push(e.type);
      try {
        telemetry.observe(e);
      } catch (error) {
        thrown.push(error); // hfkit would drop it: the test must see it
      }
    };
    const out = await chatCompletion(
      { accessToken: TOKEN, messages },
      { endpointUrl: `${hub.url}/models/${MODEL}`, observe },
    );
    expect(out.choices[0]?.message.content).toBeTruthy();
    expect(events).toEqual(["start", "attempt", "first-chunk", "end"]);
    expect(thrown).toEqual([]);
    expect(r.spans()).toEqual([]);
  });

  it("serverAddress: replaces the attempt's host on the span and the metrics (no port then)", async () => {
    const r = record({ serverAddress: "inference.example.com" });
    await chatCompletion({ accessToken: TOKEN, model: MODEL, messages }, endpoint(r));
    const [call] = r.calls();
    expect(call?.attributes["server.address"]).toBe("inference.example.com");
    expect(call?.attributes["server.port"]).toBeUndefined();
    const [duration] = await r.points("gen_ai.client.operation.duration");
    expect(duration?.attributes["server.address"]).toBe("inference.example.com");
  });
});

describe("a stream that waited for a loading model and retried a 5xx", () => {
  it("one call span with its attributes and three attempt spans (503 loading, 502, 200); the waits as events", async () => {
    const r = record();
    // The loading answer stays until it is taken (a short estimate alone would end it at once); the client waits its least, 1 s.
    hub.inject({ type: "loading", estimatedTime: 0.001, durationMs: 60_000 }, { model: MODEL, times: 1 });
    hub.inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
    let text = "";
    for await (const chunk of chatCompletionStream(
      { accessToken: TOKEN, model: MODEL, messages, stream_options: { include_usage: true } },
      endpoint(r, { maxRetries: 1 }),
    )) {
      text += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(text.length).toBeGreaterThan(0);
    const [call, ...others] = r.calls();
    expect(others).toEqual([]);
    expect(call?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": MODEL,
      "hfkit.stream": true,
      "hfkit.attempts": 3,
      "gen_ai.response.finish_reasons": ["stop"],
    });
    expect(call?.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
    const attempts = r.attemptsOf(call!);
    expect(attempts.map((a) => a.attributes["http.response.status_code"])).toEqual([503, 502, 200]);
    expect(call?.events.map((e) => [e.name, e.attributes?.["hfkit.retry.reason"]])).toEqual([
      ["hfkit.retry", "loading"],
      ["hfkit.retry", "server-error"],
    ]);
    expect(everything(r.spans(), await r.points("gen_ai.client.token.usage"))).not.toMatch(
      /private question|hf_otel_secret/,
    );
  });

  it("a stall before the first chunk: error.type TimeoutError, the limit's kind beside it", async () => {
    const r = record();
    hub.inject({ type: "stall", afterChunks: 0 }, { model: MODEL, times: 1 });
    const error = await (async () => {
      for await (const _ of chatCompletionStream(
        { accessToken: TOKEN, model: MODEL, messages },
        endpoint(r, { stallTimeout: 50, firstChunkTimeout: 60_000 }),
      ))
        void _;
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    const [call] = r.calls();
    expect(call?.attributes).toMatchObject({ "error.type": "TimeoutError", "hfkit.timeout.kind": "stall" });
    expect(call?.status.code).toBe(SpanStatusCode.ERROR);
    const duration = await r.points("gen_ai.client.operation.duration");
    expect(duration.map((p) => p.attributes["error.type"])).toEqual(["TimeoutError"]);
  });
});

describe("the tool runner", () => {
  it("each step is a chat span; each tool call an `execute_tool {name}` span with the tool's name, call id and outcome", async () => {
    const r = record();
    const tools = [
      {
        name: "weather",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        run: () => Promise.reject(new Error(`down for ${TOKEN}`)),
      },
    ];
    const run = await runTools(
      { accessToken: TOKEN, messages, tools },
      { endpointUrl: `${hub.url}/models/hfkit/vllm`, backend: "openai", maxRetries: 0, observe: r.observe },
    );
    const [result] = run.steps[0]?.results ?? [];
    const spans = r.spans();
    expect(spans.map((s) => s.name).filter((n) => n !== "hfkit.attempt")).toEqual([
      "chat",
      "execute_tool weather",
      "chat",
    ]);
    const tool = spans.find((s) => s.name === "execute_tool weather");
    expect(tool?.kind).toBe(SpanKind.INTERNAL);
    expect(tool?.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "weather",
      "gen_ai.tool.call.id": result?.id,
      "gen_ai.tool.type": "function",
      "hfkit.tool.status": "error",
      "hfkit.step": 1,
      "error.type": "ToolError",
    });
    expect(tool?.status.code).toBe(SpanStatusCode.ERROR);
    const toolEvent = r.events.find((e) => e.type === "tool") as Extract<CallEvent, { type: "tool" }>;
    expect(ms(tool!.duration)).toBeCloseTo(toolEvent.durationMs, 0);
    expect(everything(spans, [])).not.toContain(TOKEN);
  });
});
