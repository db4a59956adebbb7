/** Chat under each AI SDK major (5, 6, 7): text, a streamed tool call, errors as the major's own classes. */
import { describe, expect, it } from "vitest";
import { chatRequests, QUESTION, settled, TEXT, useHub, within } from "./helpers";
import { type Major, MAJORS } from "./majors";

const ctx = useHub();
const on = (major: Major, settings = {}) =>
  major.create({ baseUrl: ctx.hub.url, accessToken: "hf_ai_sdk_test", maxRetries: 0, ...settings });

describe.each(MAJORS)("$name", (major) => {
  it(`its models follow specification ${major.spec}`, () => {
    const hf = on(major);
    expect([
      hf("m").specificationVersion,
      hf.embeddingModel("m").specificationVersion,
      hf.speechModel("m").specificationVersion,
    ]).toEqual([major.spec, major.spec, major.spec]);
  });

  it("the major logs no warning at all for our models (no compatibility mode)", async () => {
    const logged: unknown[] = [];
    const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
    global.AI_SDK_LOG_WARNINGS = (warnings: unknown) => logged.push(warnings);
    try {
      const hf = on(major);
      await within(major.generateText({ model: hf("hfkit/tgi-3.2"), prompt: QUESTION }));
      await within(major.embed({ model: hf.embeddingModel("hfkit/feature-extraction"), value: "Paris" }));
      await within(major.generateImage({ model: hf.imageModel("hfkit/text-to-image"), prompt: "a cat" }));
    } finally {
      global.AI_SDK_LOG_WARNINGS = false;
    }
    expect(logged).toEqual([]);
  });

  it("generateText: the answer, its usage and finish reason in the major's shapes", async () => {
    const result = await within(
      major.generateText({ model: on(major)("hfkit/tgi-3.2"), prompt: QUESTION, maxOutputTokens: 50 }),
    );
    expect(result.text).toBe(TEXT);
    expect(result.finishReason).toBe("stop");
    expect(result.usage.outputTokens).toBe(7);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe((result.usage.inputTokens ?? 0) + 7);
    expect(chatRequests(ctx.hub)[0]?.body).toMatchObject({ max_tokens: 50 });
  });

  it("streamText with a tool: the call streamed, executed, its result sent back in a second step", async () => {
    const weather = major.tool({
      description: "The weather in a city",
      inputSchema: major.jsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
      execute: async ({ city }: { city: string }) => ({ city, temperatureC: 21 }),
    });
    const result = major.streamText({
      model: on(major)("hfkit/tgi-3.2"),
      prompt: "Weather in Paris?",
      tools: { weather },
      stopWhen: major.stepCountIs(2),
    });
    const types: string[] = [];
    let text = "";
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === "text-delta")
        text += (part as { text?: string; delta?: string }).text ?? (part as { delta?: string }).delta ?? "";
    }
    expect(types.indexOf("tool-input-start")).toBeLessThan(types.indexOf("tool-call"));
    expect(types.indexOf("tool-call")).toBeLessThan(types.indexOf("tool-result"));
    const steps = await result.steps;
    expect(steps[0]?.toolCalls).toEqual([expect.objectContaining({ toolName: "weather", input: { city: "Paris" } })]);
    expect(steps[0]?.finishReason).toBe("tool-calls");
    expect(steps[0]?.usage.outputTokens).toBeGreaterThan(0);
    expect(text).toMatch(/^From the tools: weather: .*"temperatureC":21/);
    const second = chatRequests(ctx.hub)[1]?.body as { messages: Array<{ role: string; content?: unknown }> };
    expect(second.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(second.messages[2]?.content).toBe('{"city":"Paris","temperatureC":21}');
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("images in the prompt, as a URL and as bytes, are image_url parts in the major's prompt format", async () => {
    const png = Uint8Array.from(
      atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
      (c) => c.charCodeAt(0),
    );
    const content = [
      { type: "text" as const, text: "Which is bigger?" },
      { type: "file" as const, data: new URL("https://example.com/cat.png"), mediaType: "image/png" },
      { type: "file" as const, data: png, mediaType: "image/png" },
    ];
    await within(major.generateText({ model: on(major)("hfkit/tgi-3.2"), messages: [{ role: "user", content }] }));
    const sent = (chatRequests(ctx.hub)[0]?.body as { messages: Array<{ content: unknown }> }).messages[0]?.content;
    expect(sent).toEqual([
      { type: "text", text: "Which is bigger?" },
      { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
      { type: "image_url", image_url: { url: `data:image/png;base64,${btoa(String.fromCharCode(...png))}` } },
    ]);
  });

  it("an unsupported setting is the major's warning", async () => {
    const result = await within(major.generateText({ model: on(major)("hfkit/tgi-3.2"), prompt: QUESTION, topK: 40 }));
    const warning = result.warnings?.[0] as Record<string, unknown> | undefined;
    expect(warning).toMatchObject(
      major.spec === "v2" ? { type: "unsupported-setting", setting: "topK" } : { type: "unsupported", feature: "topK" },
    );
  });

  it("an HTTP error is the major's APICallError (its own isInstance), the token nowhere in it", async () => {
    const hf = on(major, { provider: "hf-inference", accessToken: "hf_secret_do_not_show" });
    const error = await within(
      major.generateText({ model: hf("org/does-not-exist"), prompt: QUESTION, maxRetries: 0 }).catch((e: unknown) => e),
    );
    expect(major.errors.APICallError.isInstance(error)).toBe(true);
    expect(major.errors.AISDKError.isInstance(error)).toBe(true);
    const e = error as InstanceType<typeof major.errors.APICallError>;
    expect([e.statusCode, e.isRetryable, (e.cause as Error).name]).toEqual([404, false, "NotFoundError"]);
    expect(
      JSON.stringify({ message: e.message, body: e.responseBody, url: e.url, request: e.requestBodyValues }),
    ).not.toContain("hf_secret_do_not_show");
  });

  it("a bad option of @hfkit/inference is the major's InvalidArgumentError naming it, before any request", async () => {
    const error = await within(
      major
        .generateText({ model: on(major, { timeout: -1 })("hfkit/tgi-3.2"), prompt: QUESTION })
        .catch((e: unknown) => e),
    );
    expect(major.errors.InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as { argument: string }).argument).toBe("timeout");
    expect(ctx.hub.requests).toEqual([]);
  });
});

describe("a model of another specification is refused by the major, not run", () => {
  it("ai 5 with @hfkit/ai-sdk (v3): UnsupportedModelVersionError, no request", async () => {
    const [ai5, ai6] = [MAJORS[0]!, MAJORS[1]!];
    const error = await Promise.resolve()
      .then(() => ai5.generateText({ model: ai6.create({ baseUrl: ctx.hub.url })("hfkit/tgi-3.2"), prompt: QUESTION }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AI_UnsupportedModelVersionError", version: "v3" });
    expect(ctx.hub.requests).toEqual([]);
  });
});
