/**
 * Each OpenAI-protocol server's dialect, through loopback HTTP against @hfkit/mock-hub: reasoning
 * under its several names, chunks without choices, an error followed by `[DONE]`, usage on every
 * chunk, llama.cpp's timings and progress, inline `<think>`, and the router's providers and errors.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ChatCompletionStreamOutput,
  collectStream,
  HttpError,
  InferenceClient,
  NotFoundError,
  type Options,
  ValidationError,
} from "../src/index";
import { USAGE_GRACE_MS } from "../src/tasks/chatCompletionStream";
import { consume, QUESTION, recordTimers, Timeline } from "./faults/support";
import { chunked, startRawServer, whole } from "./faults/raw-server";

const TEXT = "The capital of France is Paris.";
const REASONING = "The user asks about France. Its capital is Paris.";
const ROUTER = "https://router.huggingface.co";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());

/** A client on the hub's hf-inference routes (`/models/{id}/v1/chat/completions`). */
const onHub = (options: Options = {}): InferenceClient =>
  new InferenceClient("hf_dialects", { baseUrl: hub.url, maxRetries: 0, ...options });

/** A client on the router's URL, which this fetch sends to the hub (no network). */
function onRouter(options: Options = {}): { client: InferenceClient; bodies: Array<Record<string, unknown>> } {
  const bodies: Array<Record<string, unknown>> = [];
  const client = new InferenceClient("hf_dialects", {
    maxRetries: 0,
    fetch: (url, init) => {
      bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return fetch(url.replace(ROUTER, hub.url), init);
    },
    ...options,
  });
  return { client, bodies };
}

const joined = (chunks: ChatCompletionStreamOutput[], field: "content" | "reasoning"): string =>
  chunks.map((c) => c.choices[0]?.delta?.[field] ?? "").join("");

describe("reasoning, whichever name the server uses", () => {
  it.each([
    ["hfkit/vllm-0.10", "reasoning_content"],
    ["hfkit/vllm-0.11", "reasoning"],
    ["hfkit/vllm", "reasoning"],
    ["hfkit/sglang", "reasoning_content"],
  ])("%s: yielded as delta.reasoning (its own %s kept), the answer as content", async (model, own) => {
    const run = await consume(onHub({ backend: "openai" }).chatCompletionStream({ model, messages: QUESTION }));
    expect(run.error).toBeUndefined();
    expect(joined(run.chunks, "reasoning")).toBe(REASONING);
    expect(run.chunks.map((c) => c.choices[0]?.delta?.[own] ?? "").join("")).toBe(REASONING);
    expect(joined(run.chunks, "content")).toBe(TEXT);
  });

  it.each(["hfkit/vllm-0.10", "hfkit/vllm", "hfkit/sglang"])(
    "%s: collectStream and chatCompletion give message.reasoning",
    async (model) => {
      const collected = await collectStream(
        onHub({ backend: "openai" }).chatCompletionStream({ model, messages: QUESTION }),
      );
      expect(collected.choices[0]?.message).toMatchObject({ content: TEXT, reasoning: REASONING });
      const whole = await onHub({ backend: "openai" }).chatCompletion({ model, messages: QUESTION });
      expect(whole.choices[0]?.message).toMatchObject({ content: TEXT, reasoning: REASONING });
    },
  );

  it("SGLang's `role: null, content: null` chunks while it reasons do not break a consumer or collectStream", async () => {
    const chunks: ChatCompletionStreamOutput[] = [];
    for await (const chunk of onHub({ backend: "openai" }).chatCompletionStream({
      model: "hfkit/sglang",
      messages: QUESTION,
    }))
      chunks.push(chunk);
    expect(chunks.some((c) => c.choices[0]?.delta?.content === null)).toBe(true);
    const out = await collectStream(
      onHub({ backend: "openai" }).chatCompletionStream({ model: "hfkit/sglang", messages: QUESTION }),
    );
    expect(out.choices[0]?.message).toMatchObject({ role: "assistant", content: TEXT });
  });
});

describe("inline <think>…</think>", () => {
  it("off by default: content as the server sent it", async () => {
    const run = await consume(onHub().chatCompletionStream({ model: "hfkit/think-inline", messages: QUESTION }));
    expect(joined(run.chunks, "content")).toBe(`<think>${REASONING}</think>${TEXT}`);
  });

  it("splitThinking: reasoning out of content across the cut tags, in a stream and in a whole answer", async () => {
    const run = await consume(
      onHub({ splitThinking: true }).chatCompletionStream({ model: "hfkit/think-inline", messages: QUESTION }),
    );
    expect(run.error).toBeUndefined();
    expect(joined(run.chunks, "content")).toBe(TEXT);
    expect(joined(run.chunks, "reasoning")).toBe(REASONING);
    const whole = await onHub({ splitThinking: true }).chatCompletion({
      model: "hfkit/think-inline",
      messages: QUESTION,
    });
    expect(whole.choices[0]?.message).toMatchObject({ content: TEXT, reasoning: REASONING });
  });
});

describe("chunks without choices", () => {
  it("the router provider's leading `choices: []` chunk is not yielded; every yielded chunk has choices", async () => {
    const { client } = onRouter();
    const run = await consume(client.chatCompletionStream({ model: "hfkit/router-multi:novita", messages: QUESTION }));
    expect(run.error).toBeUndefined();
    expect(run.chunks.length).toBeGreaterThan(0);
    expect(run.chunks.every((c) => c.choices.length > 0)).toBe(true);
    expect(joined(run.chunks, "content")).toBe(TEXT);
  });

  it("the usage-only last chunk (include_usage) is yielded, with choices [] and the usage", async () => {
    const run = await consume(
      onHub({ backend: "openai" }).chatCompletionStream({
        model: "hfkit/vllm",
        messages: QUESTION,
        stream_options: { include_usage: true },
      }),
    );
    const last = run.chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(joined(run.chunks, "content")).toBe(TEXT);
  });

  it("continuous_usage_stats: usage on every chunk passes through, the stream still ends at the usage chunk", async () => {
    const timeline = new Timeline();
    recordTimers(timeline);
    const run = await consume(
      onHub({ backend: "openai" }).chatCompletionStream({
        model: "hfkit/vllm",
        messages: QUESTION,
        stream_options: { include_usage: true, continuous_usage_stats: true },
      } as never),
    ).finally(() => vi.unstubAllGlobals());
    expect(run.error).toBeUndefined();
    expect(run.chunks.filter((c) => c.choices.length > 0).every((c) => c.usage != null)).toBe(true);
    expect(joined(run.chunks, "content")).toBe(TEXT);
    // ended by the chunks themselves: the usage grace never ran out (the timeline saw the SDK's timers)
    expect(timeline.entries.some((e) => e.startsWith("sdk set "))).toBe(true);
    expect(timeline.entries).not.toContain(`sdk fired ${USAGE_GRACE_MS}`);
  });

  it("llama.cpp: prompt_progress chunks are yielded with choices [], timings pass through, the answer completes", async () => {
    const run = await consume(
      onHub({ backend: "openai" }).chatCompletionStream({
        model: "hfkit/llamacpp",
        messages: QUESTION,
        return_progress: true,
      } as never),
    );
    expect(run.error).toBeUndefined();
    const progress = run.chunks.filter((c) => c.prompt_progress !== undefined);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((c) => c.choices.length === 0)).toBe(true);
    expect(run.chunks.at(-1)?.timings).toMatchObject({ predicted_n: expect.any(Number) });
    expect(joined(run.chunks, "content")).toBe(TEXT);
  });
});

describe("errors in the stream and from the router", () => {
  it("vLLM: an error object in a 200 stream is the typed error, even though [DONE] follows it", async () => {
    hub.inject({ type: "overloadedInStream", afterChunks: 2 }, { model: "hfkit/vllm", times: 1 });
    const run = await consume(
      onHub({ backend: "openai" }).chatCompletionStream({ model: "hfkit/vllm", messages: QUESTION }),
    );
    expect(run.error).toBeInstanceOf(HttpError);
    expect((run.error as HttpError).message).toMatch(/overloaded/);
    expect((run.error as HttpError).message).toMatch(/inside the stream/);
  });

  it("a provider that does not serve the model: ValidationError naming the provider", async () => {
    const { client } = onRouter();
    const error = await client
      .chatCompletion({ model: "hfkit/router-multi:together-not", messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, provider: "together-not" });
    expect((error as Error).message).toMatch(
      /Model not supported by provider together-not \(HTTP 400 from provider together-not, request id mock-\d+\)/,
    );
  });

  it("no enabled provider: the error says what to do", async () => {
    const { client } = onRouter();
    const error = await client
      .chatCompletion({ model: "hfkit/router-none", messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/not supported by any provider you have enabled/);
    expect((error as Error).message).toMatch(/settings\/inference-providers/);
  });

  it("the router's plain-text 404: NotFoundError naming the provider", async () => {
    const { client } = onRouter();
    const error = await client
      .chatCompletion({ model: "acme/unknown:together", messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, provider: "together", body: "Not Found" });
    expect((error as Error).message).toMatch(/from provider together/);
  });

  it.each([
    "hfkit/router-multi:fastest",
    "hfkit/router-multi:cheapest",
    "hfkit/router-multi:preferred",
    "hfkit/router-multi:novita",
  ])("the suffix of %s is sent untouched, and answered", async (model) => {
    const { client, bodies } = onRouter();
    const out = await client.chatCompletion({ model, messages: QUESTION });
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(bodies.map((b) => b.model)).toEqual([model]);
  });
});

describe("null where the types say absent", () => {
  it("`usage: null` on chunks and `logprobs: null` on choices (vLLM sends both) are absent, streamed and whole", async () => {
    const base = { id: "x", created: 1, model: "m", object: "chat.completion.chunk" };
    const raw = await startRawServer((req, reply) => {
      if (!(JSON.parse(req.body) as { stream?: boolean }).stream) {
        const answer = {
          ...base,
          object: "chat.completion",
          choices: [
            { index: 0, message: { role: "assistant", content: "Paris" }, finish_reason: "stop", logprobs: null },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        };
        whole(reply, 200, "application/json", JSON.stringify(answer));
        return;
      }
      const out = chunked(reply, 200, [["Content-Type", "text/event-stream"]]);
      out.chunk(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: "Paris" }, logprobs: null, finish_reason: null }], usage: null })}\n\n`,
      );
      out.chunk(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }], usage: null })}\n\ndata: [DONE]\n\n`,
      );
      out.end();
    });
    try {
      const client = new InferenceClient("hf_dialects", { endpointUrl: raw.url, backend: "openai", maxRetries: 0 });
      const run = await consume(client.chatCompletionStream({ messages: QUESTION }));
      expect(run.chunks).toHaveLength(2);
      for (const chunk of run.chunks) {
        expect(chunk.usage).toBeUndefined();
        expect(chunk.choices[0]?.logprobs).toBeUndefined();
        expect(JSON.stringify(chunk)).not.toMatch(/"(usage|logprobs)":null/);
      }
      const answer = await client.chatCompletion({ messages: QUESTION });
      expect(answer.choices[0]?.logprobs).toBeUndefined();
      expect(answer.choices[0]?.message.content).toBe("Paris");
    } finally {
      await raw.close();
    }
  });
});
