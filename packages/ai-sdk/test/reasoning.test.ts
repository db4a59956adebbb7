/** Reasoning parts from the reasoning deltas of the mock hub's vLLM and SGLang, through the AI SDK. */
import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { onHub, QUESTION, REASONING, settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();

describe("reasoning", () => {
  it("streamText on vLLM: reasoning-start/delta/end, then the text; usage from the usage chunk", async () => {
    const result = streamText({ model: onHub(ctx.hub, { backend: "openai" })("hfkit/vllm"), prompt: QUESTION });
    const types: string[] = [];
    let reasoning = "";
    let text = "";
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === "reasoning-delta") reasoning += part.text;
      if (part.type === "text-delta") text += part.text;
    }
    expect(reasoning).toBe(REASONING);
    expect(text).toBe(TEXT);
    expect(types.indexOf("reasoning-start")).toBeLessThan(types.indexOf("reasoning-delta"));
    expect(types.indexOf("reasoning-end")).toBeLessThan(types.indexOf("text-start"));
    expect(await result.reasoningText).toBe(REASONING);
    expect((await result.usage).outputTokens).toBeGreaterThan(7);
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("generateText on vLLM: a reasoning part before the text", async () => {
    const result = await within(
      generateText({ model: onHub(ctx.hub, { backend: "openai" })("hfkit/vllm"), prompt: QUESTION }),
    );
    expect(result.reasoningText).toBe(REASONING);
    expect(result.text).toBe(TEXT);
    expect(result.content.map((part) => part.type)).toEqual(["reasoning", "text"]);
  });

  it.each(["hfkit/vllm-0.10", "hfkit/sglang"])("%s (reasoning_content) gives the same reasoning", async (model) => {
    const result = streamText({ model: onHub(ctx.hub, { backend: "openai" })(model), prompt: QUESTION });
    expect(await within(result.text)).toBe(TEXT);
    expect(await result.reasoningText).toBe(REASONING);
  });

  it("earlier reasoning is not sent back in the conversation", async () => {
    await within(
      generateText({
        model: onHub(ctx.hub, { backend: "openai" })("hfkit/vllm"),
        messages: [
          { role: "user", content: QUESTION },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "Thinking." },
              { type: "text", text: "Paris." },
            ],
          },
          { role: "user", content: "And of Italy?" },
        ],
      }),
    );
    const body = ctx.hub.requests.at(-1)?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: "user", content: QUESTION },
      { role: "assistant", content: "Paris." },
      { role: "user", content: "And of Italy?" },
    ]);
  });
});
