import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { createHfkit } from "../src/index";
import { chatRequests, QUESTION, TEXT, useHub } from "./helpers";

const ctx = useHub();
const MODEL = "hfkit/router-multi";

/** A provider on the hub as the HF router (`routerUrl`), failing over across `provider`. */
const onRouter = (settings: Parameters<typeof createHfkit>[0] = {}) =>
  createHfkit({
    routerUrl: ctx.hub.url,
    accessToken: "hf_ai_sdk_test",
    maxRetries: 0,
    provider: ["together", "novita"],
    ...settings,
  });

const sentModels = () => chatRequests(ctx.hub).map((r) => (r.body as { model: string }).model);

describe("failover from the provider's settings", () => {
  it("generateText: a provider that fails before the answer moves the call; providerMetadata names who served", async () => {
    ctx.hub.inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
    const result = await generateText({ model: onRouter()(MODEL), prompt: QUESTION });
    expect(result.text).toBe(TEXT);
    expect(sentModels()).toEqual([`${MODEL}:together`, `${MODEL}:novita`]);
    // The same shape as the answer's `served`: cost is `{ input, output, total, currency }`.
    const cost = { input: expect.any(Number), output: expect.any(Number), total: expect.any(Number), currency: "USD" };
    expect(result.providerMetadata?.hfkit).toEqual({ model: MODEL, provider: "novita", cost });
    const { total, input, output } = (
      result.providerMetadata?.hfkit as { cost: { total: number; input: number; output: number } }
    ).cost;
    expect(total).toBeCloseTo(input + output, 12);
  });

  it("streamText: the same, the finish part carrying who served", async () => {
    ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, times: 1 });
    const result = streamText({ model: onRouter()(MODEL), prompt: QUESTION });
    let text = "";
    for await (const part of result.textStream) text += part;
    expect(text).toBe(TEXT);
    expect(sentModels()).toEqual([`${MODEL}:together`, `${MODEL}:novita`]);
    const cost = { input: expect.any(Number), output: expect.any(Number), total: expect.any(Number), currency: "USD" };
    expect((await result.providerMetadata)?.hfkit).toEqual({ model: MODEL, provider: "novita", cost });
  });

  it("fallbackModels from a model's settings are tried after its providers", async () => {
    ctx.hub.inject({ type: "serverError", status: 500 }, { model: MODEL });
    const result = await generateText({
      model: onRouter({ fallbackModels: ["hfkit/tgi-3.2"] })(MODEL),
      prompt: QUESTION,
    });
    expect(result.text).toBe(TEXT);
    expect(sentModels()).toEqual([`${MODEL}:together`, `${MODEL}:novita`, "hfkit/tgi-3.2"]);
  });

  it("one provider stays a plain call: no failover, no providerMetadata", async () => {
    const result = await generateText({ model: onRouter({ provider: "together" })(MODEL), prompt: QUESTION });
    expect(result.text).toBe(TEXT);
    expect(sentModels()).toEqual([`${MODEL}:together`]);
    expect(result.providerMetadata?.hfkit).toBeUndefined();
  });
});
