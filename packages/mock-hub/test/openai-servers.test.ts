import { describe, expect, it } from "vitest";
import {
  QUESTION,
  chatUrl,
  contentOf,
  dataPayloads,
  deltasOf,
  expectChunkEnvelopes,
  jsonEvents,
  postJson,
  routerChat,
  streamChat,
  useHub,
} from "./helpers.js";

const hub = useHub({
  models: {
    "my-vllm": { backend: "vllm", text: "Bonjour." },
    "acme/vllm-inline": { backend: "vllm", reasoning: "Short thought.", thinkInline: true },
  },
});

const TEXT = "The capital of France is Paris.";
const REASONING = "The user asks about France. Its capital is Paris.";
type Json = Record<string, any>;

/** A stream from `/models/{id}/v1/chat/completions` (these servers ignore the body's `model: "tgi"`). */
const streamText = async (model: string, extra: Json = {}) => (await streamChat(hub(), model, extra)).text();
const streamEvents = async (model: string, extra: Json = {}) => jsonEvents(await streamText(model, extra));
const answer = async (model: string) => (await postJson(chatUrl(hub(), model), { messages: QUESTION })).json();
const router = (model: string, extra: Json = {}) => routerChat(hub(), model, extra);
const reasoningOf = (events: Json[], key: string) =>
  deltasOf(events)
    .map((delta) => delta[key] ?? "")
    .join("");
const withUsage = (extra: Json) => ({ stream_options: { include_usage: true, ...extra } });

describe("vLLM", () => {
  it.each([
    ["hfkit/vllm-0.10", ["reasoning_content"]],
    ["hfkit/vllm-0.11", ["reasoning", "reasoning_content"]],
    ["hfkit/vllm", ["reasoning"]],
  ])("%s streams the reasoning in exactly %j, then the answer, then [DONE]", async (model, keys) => {
    const text = await streamText(model);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const events = jsonEvents(text);
    expectChunkEnvelopes(events, model);
    expect(deltasOf(events).slice(0, 2)).toEqual([
      { role: "assistant", content: "" },
      Object.fromEntries(keys.map((key) => [key, "The"])),
    ]);
    for (const key of keys) expect(reasoningOf(events, key)).toBe(REASONING);
    for (const key of ["reasoning", "reasoning_content"].filter((name) => !keys.includes(name)))
      expect(text).not.toContain(`"${key}"`);
    expect(contentOf(text)).toBe(TEXT);
    expect(events.at(-1)?.choices[0]).toMatchObject({ delta: { content: "" }, finish_reason: "stop" });
    expect(events.some((event) => "usage" in event)).toBe(false);
  });

  it.each([
    ["hfkit/vllm-0.10", { reasoning_content: REASONING }],
    ["hfkit/vllm-0.11", { reasoning: REASONING, reasoning_content: REASONING }],
    ["hfkit/vllm", { reasoning: REASONING }],
  ])("%s answers a non-streamed message with %j beside the content", async (model, reasoning) => {
    const body = await answer(model);
    expect(body).toMatchObject({
      object: "chat.completion",
      model,
      usage: { prompt_tokens: 9, completion_tokens: 16, total_tokens: 25 },
    });
    expect(body.choices[0]).toMatchObject({
      message: { role: "assistant", content: TEXT, ...reasoning },
      finish_reason: "stop",
    });
    expect(Object.keys(body.choices[0].message)).toEqual(["role", "content", ...Object.keys(reasoning)]);
  });

  it("a mid-stream error is a 200 data: {error: {message, type, code}} followed by [DONE]", async () => {
    hub().inject({ type: "overloadedInStream", afterChunks: 2 }, { model: "hfkit/vllm" });
    const response = await streamChat(hub(), "hfkit/vllm");
    expect(response.status).toBe(200);
    const payloads = dataPayloads(await response.text());
    expect(payloads).toHaveLength(4);
    expect(JSON.parse(payloads[1] ?? "").choices[0].delta).toEqual({ reasoning: "The" });
    expect(payloads.slice(2)).toEqual([
      JSON.stringify({ error: { message: "Model is overloaded", type: "BadRequestError", code: 400 } }),
      "[DONE]",
    ]);
  });

  it("include_usage adds a last chunk with choices [] and the usage; continuous_usage_stats puts usage on every chunk", async () => {
    const usage = await streamEvents("my-vllm", withUsage({}));
    expect(usage.at(-1)).toEqual({
      ...usage[0],
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
    });
    expect(usage.slice(0, -1).some((event) => "usage" in event)).toBe(false);
    const continuous = await streamEvents("my-vllm", withUsage({ continuous_usage_stats: true }));
    expect(
      continuous.map((event) => [event.choices.length, event.usage.completion_tokens, event.usage.prompt_tokens]),
    ).toEqual([
      [1, 0, 9],
      [1, 1, 9],
      [1, 2, 9],
      [0, 2, 9],
    ]);
    // vLLM counts continuously only when include_usage is on too.
    const alone = await streamEvents("my-vllm", { stream_options: { continuous_usage_stats: true } });
    expect(alone.some((event) => "usage" in event)).toBe(false);
  });

  it("takes sampling parameters TGI would refuse", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/vllm"), {
      messages: QUESTION,
      top_p: 0,
      temperature: 0,
      frequency_penalty: 5,
      max_tokens: 1,
    });
    expect(response.status).toBe(200);
    expect((await response.json()).choices[0]).toMatchObject({ message: { content: "The" }, finish_reason: "length" });
  });
});

describe("SGLang", () => {
  it("reasoning chunks carry role: null, content: null, reasoning_content; then the content", async () => {
    const text = await streamText("hfkit/sglang");
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const events = jsonEvents(text);
    expectChunkEnvelopes(events, "hfkit/sglang");
    const all = deltasOf(events);
    expect(all[0]).toEqual({ role: "assistant", content: "", reasoning_content: null });
    expect(all[1]).toEqual({ role: null, content: null, reasoning_content: "The" });
    expect(all.slice(1, 10).every((delta) => delta.role === null && delta.content === null)).toBe(true);
    expect(all[10]).toEqual({ role: null, content: "The", reasoning_content: null });
    expect(reasoningOf(events, "reasoning_content")).toBe(REASONING);
    expect(contentOf(text)).toBe(TEXT);
    expect(events.every((event) => event.usage === null)).toBe(true);
  });

  it("continuous_usage_stats alone puts usage on every chunk; include_usage adds the usage chunk", async () => {
    const continuous = await streamEvents("hfkit/sglang", {
      max_tokens: 1,
      stream_options: { continuous_usage_stats: true },
    });
    expect(continuous.map((event) => event.usage.completion_tokens)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10]);
    const usage = await streamEvents("hfkit/sglang", withUsage({}));
    expect(usage.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 9, completion_tokens: 16, total_tokens: 25 },
    });
  });

  it("a non-streamed answer has reasoning_content beside content", async () => {
    expect((await answer("hfkit/sglang")).choices[0].message).toEqual({
      role: "assistant",
      content: TEXT,
      reasoning_content: REASONING,
    });
  });
});

describe("llama.cpp server", () => {
  it("the last chunk, with finish_reason, carries a top-level timings object", async () => {
    const events = await streamEvents("hfkit/llamacpp", { max_tokens: 3 });
    expectChunkEnvelopes(events, "hfkit/llamacpp");
    expect(events[0]?.system_fingerprint).toMatch(/^b6000-[0-9a-f]{7}$/);
    expect(deltasOf(events)[0]).toEqual({ role: "assistant", content: null });
    expect(events.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: "length" });
    expect(events.at(-1)?.timings).toMatchObject({
      prompt_n: 9,
      prompt_ms: 18,
      predicted_n: 3,
      predicted_ms: 60,
      predicted_per_second: 50,
    });
    expect(events.slice(0, -1).some((event) => "timings" in event)).toBe(false);
  });

  it("return_progress sends prompt_progress chunks with choices [] first", async () => {
    const events = await streamEvents("hfkit/llamacpp", { return_progress: true });
    expect(events.slice(0, 2).map((event) => [event.choices, event.prompt_progress])).toEqual([
      [[], { total: 9, cache: 0, processed: 4, time_ms: 8 }],
      [[], { total: 9, cache: 0, processed: 9, time_ms: 18 }],
    ]);
    expect(events.slice(2).some((event) => "prompt_progress" in event)).toBe(false);
    const plain = await streamText("hfkit/llamacpp");
    expect([plain.includes("prompt_progress"), contentOf(plain)]).toEqual([false, TEXT]);
  });
});

describe("where these servers answer", () => {
  it.each([
    ["hfkit/vllm", "{not json", "JSON decode error: the body must be a JSON object", "BadRequestError"],
    ["hfkit/vllm", { model: "hfkit/vllm" }, "Field required: messages", "BadRequestError"],
    ["hfkit/sglang", {}, "Field required: messages", "BadRequestError"],
    ["hfkit/llamacpp", {}, "Field required: messages", "invalid_request_error"],
  ])("%s refuses %j with a 400 {error: {message, type, code}}", async (model, body, message, type) => {
    const response = await postJson(chatUrl(hub(), model), body);
    expect([response.status, await response.json()]).toEqual([400, { error: { message, type, code: 400 } }]);
  });

  it("on a dedicated endpoint, with the model in the body, and under /models/{id}", async () => {
    const urls = [
      `${hub().url}/endpoints/my-vllm/v1/chat/completions`,
      `${hub().url}/v1/chat/completions`,
      chatUrl(hub(), "my-vllm"),
    ];
    for (const url of urls) {
      const body = await (await postJson(url, { model: "my-vllm", messages: QUESTION })).json();
      expect(body).toMatchObject({
        object: "chat.completion",
        model: "my-vllm",
        choices: [{ message: { content: "Bonjour." } }],
      });
      expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    }
    const org = await (
      await postJson(`${hub().url}/endpoints/hfkit/vllm/v1/chat/completions`, { messages: QUESTION })
    ).json();
    expect(org.model).toBe("hfkit/vllm");
  });

  it("GET /v1/models lists the served model; the router's lists models with their providers", async () => {
    const served = await (await fetch(`${hub().url}/endpoints/my-vllm/v1/models`)).json();
    expect(served).toEqual({
      object: "list",
      data: [{ id: "my-vllm", object: "model", created: 1735689600, owned_by: "vllm" }],
    });
    const listed = (await (await fetch(`${hub().url}/v1/models`)).json()).data as Json[];
    expect(
      listed.find((model) => model.id === "hfkit/router-multi")?.providers.map((entry: Json) => entry.provider),
    ).toEqual(["together", "novita", "hf-inference"]);
    expect(listed.some((model) => model.id === "hfkit/router-none")).toBe(false);
  });
});

describe("the HF router", () => {
  it.each([
    ["hfkit/router-multi", "together"],
    ["hfkit/router-multi:fastest", "together"],
    ["hfkit/router-multi:cheapest", "together"],
    ["hfkit/router-multi:preferred", "together"],
    ["hfkit/router-multi:novita", "novita"],
    ["hfkit/router-multi:hf-inference", "hf-inference"],
  ])("%s is served by %s in the model's dialect", async (model, provider) => {
    const response = await router(model);
    expect([response.status, response.headers.get("x-inference-provider")]).toEqual([200, provider]);
    expect(response.headers.get("x-request-id")).toMatch(/^mock-\d+$/);
    expect(await response.json()).toMatchObject({
      model: "hfkit/router-multi",
      choices: [{ message: { content: TEXT }, stop_reason: null }],
    });
  });

  it("a stream from a router provider starts with a chunk whose choices are []", async () => {
    const response = await router("hfkit/router-multi:novita", { stream: true });
    expect(response.headers.get("x-inference-provider")).toBe("novita");
    const text = await response.text();
    const events = jsonEvents(text);
    expectChunkEnvelopes(events, "hfkit/router-multi");
    expect([events[0]?.choices, events[1]?.choices[0].delta]).toEqual([[], { role: "assistant", content: "" }]);
    expect([contentOf(text), text.endsWith("data: [DONE]\n\n")]).toEqual([TEXT, true]);
  });

  it("a provider not serving the model: 400 with a bare-string error", async () => {
    const response = await router("hfkit/router-multi:together-not");
    expect([response.status, response.headers.get("x-inference-provider")]).toEqual([400, "together-not"]);
    expect(response.headers.get("x-request-id")).toMatch(/^mock-\d+$/);
    expect(await response.json()).toEqual({ error: "Model not supported by provider together-not" });
    const tgi = await router("hfkit/tgi-3.2:together");
    expect([tgi.status, await tgi.json()]).toEqual([400, { error: "Model not supported by provider together" }]);
  });

  it("a model no provider serves: 400 model_not_supported", async () => {
    const response = await router("hfkit/router-none:fastest");
    expect([response.status, response.headers.get("x-request-id")]).toEqual([400, expect.stringMatching(/^mock-\d+$/)]);
    const message = "The requested model 'hfkit/router-none' is not supported by any provider you have enabled.";
    expect(await response.json()).toEqual({
      error: { message, type: "invalid_request_error", param: "model", code: "model_not_supported" },
    });
  });

  it("an unknown model with a provider: a plain-text 404 naming the provider", async () => {
    const response = await router("acme/unknown:together");
    expect([response.status, response.headers.get("x-inference-provider")]).toEqual([404, "together"]);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("Not Found");
  });

  it("`tgi` or an unknown model without a provider: the default chat route as before", async () => {
    const tgi = await router("tgi");
    expect([tgi.headers.get("x-inference-provider"), (await tgi.json()).model]).toEqual([null, "hfkit/tgi-3.2"]);
    const unknown = await router("acme/unknown");
    expect([unknown.headers.get("x-inference-provider"), (await unknown.json()).model]).toEqual([null, "acme/unknown"]);
    const tgiModel = await router("hfkit/tgi-2.0");
    expect([tgiModel.headers.get("x-inference-provider"), (await tgiModel.json()).object]).toEqual([
      "hf-inference",
      "text_completion",
    ]);
  });

  it("the proxy faults still apply, with the provider header", async () => {
    hub().inject({ type: "loading", estimatedTime: 5 }, { model: "hfkit/router-multi", times: 1 });
    hub().inject({ type: "rateLimit", retryAfter: 2 }, { model: "hfkit/router-multi", times: 1 });
    const loading = await router("hfkit/router-multi:novita");
    const body = { error: "Model hfkit/router-multi is currently loading", estimated_time: 5 };
    expect([loading.status, loading.headers.get("x-inference-provider"), await loading.json()]).toEqual([
      503,
      "novita",
      body,
    ]);
    const limited = await router("hfkit/router-multi");
    expect([limited.status, limited.headers.get("retry-after"), limited.headers.get("x-inference-provider")]).toEqual([
      429,
      "2",
      "together",
    ]);
    expect((await router("hfkit/router-multi")).status).toBe(200);
  });
});

describe("reasoning inline as <think>…</think>", () => {
  it("TGI 3.2 streams <think> + reasoning + </think> in content, the tags cut across chunks (whole when not streamed)", async () => {
    const text = await streamText("hfkit/think-inline");
    const pieces = jsonEvents(text).map((event) => event.choices[0].delta.content as string);
    expect(pieces.slice(0, 3)).toEqual(["<thi", "nk>", "The"]);
    expect(pieces.slice(pieces.indexOf("</th"), pieces.indexOf("</th") + 3)).toEqual(["</th", "ink>", "The"]);
    expect(pieces.some((piece) => piece.includes("<think>") || piece.includes("</think>"))).toBe(false);
    expect(contentOf(text)).toBe(`<think>${REASONING}</think>${TEXT}`);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    expect((await answer("hfkit/think-inline")).choices[0].message.content).toBe(`<think>${REASONING}</think>${TEXT}`);
  });

  it("on vLLM, thinkInline sends no reasoning field", async () => {
    const text = await streamText("acme/vllm-inline");
    expect(contentOf(text)).toBe(`<think>Short thought.</think>${TEXT}`);
    expect(text).not.toContain('"reasoning"');
  });
});
