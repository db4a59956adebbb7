/** Text through the AI SDK's own generateText and streamText, against the mock hub over loopback HTTP. */
import { generateText, streamText } from "ai";
import { describe, expect, it, vi } from "vitest";
import { recordTimers, Timeline } from "../../inference/test/faults/support";
import { createHfkit, hfkit, USAGE_WAIT_MS } from "../src/index";
import { chatRequests, lastBody, onHub, QUESTION, settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();

async function streamed(result: ReturnType<typeof streamText>): Promise<string> {
  let text = "";
  for await (const piece of result.textStream) text += piece;
  return text;
}

describe("generateText and streamText", () => {
  it("generateText: TGI 3.2's answer, its usage and finish reason", async () => {
    const result = await within(generateText({ model: onHub(ctx.hub)("hfkit/tgi-3.2"), prompt: QUESTION }));
    expect(result.text).toBe(TEXT);
    expect(result.finishReason).toBe("stop");
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBe(7);
    expect(result.response.modelId).toBeTruthy();
    expect(chatRequests(ctx.hub)[0]?.path).toBe("/models/hfkit/tgi-3.2/v1/chat/completions");
    expect(chatRequests(ctx.hub)[0]?.headers.authorization).toBe("Bearer hf_ai_sdk_test");
  });

  it("streamText: TGI 3.2's answer streamed, usage asked for with stream_options.include_usage", async () => {
    const result = streamText({ model: onHub(ctx.hub).chat("hfkit/tgi-3.2"), prompt: QUESTION });
    expect(await within(streamed(result))).toBe(TEXT);
    const usage = await result.usage;
    expect(usage.outputTokens).toBe(7);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.totalTokens).toBe((usage.inputTokens ?? 0) + 7);
    expect(await result.finishReason).toBe("stop");
    expect(lastBody(ctx.hub)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("maxOutputTokens cuts the answer: finish reason length", async () => {
    const result = streamText({ model: onHub(ctx.hub)("hfkit/tgi-3.2"), prompt: QUESTION, maxOutputTokens: 2 });
    expect(await within(streamed(result))).toBe("The capital");
    expect(await result.finishReason).toBe("length");
  });

  it("the settings are mapped to the chat fields; topK and reasoning effort are warned about", async () => {
    const result = await within(
      generateText({
        model: onHub(ctx.hub)("hfkit/tgi-3.2"),
        system: "Answer briefly.",
        prompt: QUESTION,
        temperature: 0.5,
        topP: 0.9,
        maxOutputTokens: 50,
        stopSequences: ["\n\n"],
        seed: 7,
        frequencyPenalty: 0.25,
        presencePenalty: 0.5,
        topK: 40,
        reasoning: "high",
      }),
    );
    expect(result.text).toBe(TEXT);
    expect(lastBody(ctx.hub)).toMatchObject({
      messages: [
        { role: "system", content: "Answer briefly." },
        { role: "user", content: QUESTION },
      ],
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 50,
      stop: ["\n\n"],
      seed: 7,
      frequency_penalty: 0.25,
      presence_penalty: 0.5,
    });
    expect(lastBody(ctx.hub)).not.toHaveProperty("top_k");
    expect(result.warnings?.map((w) => (w.type === "unsupported" ? w.feature : w.type))).toEqual(
      expect.arrayContaining(["topK", "reasoning"]),
    );
  });

  it("providerOptions.hfkit.extraBody goes into the request body", async () => {
    await within(
      generateText({
        model: onHub(ctx.hub)("hfkit/tgi-3.2"),
        prompt: QUESTION,
        providerOptions: { hfkit: { extraBody: { top_k: 40 } } },
      }),
    );
    expect(lastBody(ctx.hub)).toMatchObject({ top_k: 40 });
  });

  it("a lingering socket (TGI 2.0, no [DONE], the body left open, no usage) ends the stream after the provider's usage wait", async () => {
    const model = "hfkit/tgi-2.0";
    ctx.hub.inject({ type: "linger" }, { model });
    const timeline = new Timeline();
    recordTimers(timeline, { provider: /[\\/]ai-sdk[\\/]src[\\/]/ });
    const result = streamText({ model: onHub(ctx.hub)(model), prompt: QUESTION });
    expect(await within(streamed(result)).finally(() => vi.unstubAllGlobals())).toBe(TEXT);
    expect(await result.finishReason).toBe("stop");
    // what ended it: the provider's short wait for usage, before any limit or grace of the SDK ran out
    expect(timeline.entries).toContain(`provider fired ${USAGE_WAIT_MS}`);
    expect(timeline.firedBySdk()).toEqual([]);
    expect((await result.usage).outputTokens).toBeUndefined(); // TGI 2.0 never sends usage
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("a model still loading (503, estimated_time 1 s) is waited out and answers", async () => {
    // durationMs Infinity: loading lasts until its 503 is sent, however late the request comes
    ctx.hub.inject({ type: "loading", estimatedTime: 1, durationMs: Infinity, times: 1 }, { model: "hfkit/tgi-3.2" });
    const result = streamText({
      model: onHub(ctx.hub, { maxRetries: 2 })("hfkit/tgi-3.2"),
      prompt: QUESTION,
      maxRetries: 0,
    });
    expect(await within(streamed(result), 15_000)).toBe(TEXT);
    expect(chatRequests(ctx.hub).length).toBeGreaterThanOrEqual(2);
    const loaded = await within(generateText({ model: onHub(ctx.hub)("hfkit/tgi-3.2"), prompt: QUESTION }));
    expect(loaded.text).toBe(TEXT);
  }, 30_000);

  it("a transformers-pipeline model answers generateText and streamText alike", async () => {
    const model = onHub(ctx.hub)("hfkit/transformers-chat");
    expect((await within(generateText({ model, prompt: QUESTION }))).text).toBe(TEXT);
    const result = streamText({ model, prompt: QUESTION });
    expect(await within(streamed(result))).toBe(TEXT);
    expect(await result.finishReason).toBe("stop");
    expect(ctx.hub.requests.some((r) => r.path === "/models/hfkit/transformers-chat")).toBe(true);
  });

  it("the endpoint form: hfkit.endpoint(url) and createHfkit({ endpointUrl })", async () => {
    const url = `${ctx.hub.url}/endpoints/hfkit/tgi-3.2`;
    const viaMethod = onHub(ctx.hub).endpoint(url);
    expect(viaMethod.modelId).toBe("tgi");
    expect((await within(generateText({ model: viaMethod, prompt: QUESTION }))).text).toBe(TEXT);
    expect(chatRequests(ctx.hub).at(-1)?.path).toBe("/endpoints/hfkit/tgi-3.2/v1/chat/completions");
    const viaSettings = createHfkit({ endpointUrl: url, accessToken: "", maxRetries: 0 })("tgi");
    expect(await within(streamed(streamText({ model: viaSettings, prompt: QUESTION })))).toBe(TEXT);
    expect(chatRequests(ctx.hub).at(-1)?.headers.authorization).toBeUndefined();
  });

  it("the default provider goes to the HF router with the token from HF_TOKEN", async () => {
    const bodies: unknown[] = [];
    const previous = process.env.HF_TOKEN;
    process.env.HF_TOKEN = "hf_from_environment";
    try {
      const model = hfkit("hfkit/tgi-3.2", {
        maxRetries: 0,
        fetch: (url, init) => (
          bodies.push(url),
          fetch(url.replace("https://router.huggingface.co", ctx.hub.url), init)
        ),
      });
      expect(model.provider).toBe("hfkit.chat");
      expect((await within(generateText({ model, prompt: QUESTION }))).text).toBe(TEXT);
    } finally {
      if (previous === undefined) delete process.env.HF_TOKEN;
      else process.env.HF_TOKEN = previous;
    }
    expect(bodies).toEqual(["https://router.huggingface.co/v1/chat/completions"]);
    expect(chatRequests(ctx.hub)[0]?.headers.authorization).toBe("Bearer hf_from_environment");
    expect(lastBody(ctx.hub)).toMatchObject({ model: "hfkit/tgi-3.2" });
  });

  it("every model type is offered, named as the AI SDK names them", () => {
    expect(hfkit.embeddingModel("x").provider).toBe("hfkit.embedding");
    expect(hfkit.textEmbeddingModel("x").maxEmbeddingsPerCall).toBe(32);
    expect([
      hfkit.imageModel("x").provider,
      hfkit.transcriptionModel("x").provider,
      hfkit.speechModel("x").provider,
      hfkit.rerankingModel("x").provider,
    ]).toEqual(["hfkit.image", "hfkit.transcription", "hfkit.speech", "hfkit.reranking"]);
  });
});
