/** Tool calls, streamed and not, and tool results sent back, through the AI SDK against the mock hub's TGI. */
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { chatRequests, lastBody, onHub, settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();

const citySchema = jsonSchema<{ city: string }>({
  type: "object",
  properties: { city: { type: "string", description: "The city" } },
  required: ["city"],
});

const tools = {
  weather: tool({
    description: "The weather in a city",
    inputSchema: citySchema,
    execute: async ({ city }) => ({ city, temperatureC: 21 }),
  }),
  population: tool({ description: "How many people live in a city", inputSchema: citySchema }),
};

describe("tools", () => {
  it("generateText: the tool definitions sent as `tools`, the call made, executed and sent back", async () => {
    const result = await within(
      generateText({
        model: onHub(ctx.hub)("hfkit/tgi-3.2"),
        prompt: "Weather in Paris?",
        tools,
        stopWhen: stepCountIs(2),
      }),
    );
    const [first, second] = chatRequests(ctx.hub).map((r) => r.body as Record<string, unknown>);
    expect(first?.tools).toEqual([
      {
        type: "function",
        function: {
          name: "weather",
          description: "The weather in a city",
          parameters: expect.objectContaining({ required: ["city"] }),
        },
      },
      {
        type: "function",
        function: { name: "population", description: "How many people live in a city", parameters: expect.any(Object) },
      },
    ]);
    const step = result.steps[0]!;
    expect(step.finishReason).toBe("tool-calls");
    expect(step.toolCalls).toEqual([expect.objectContaining({ toolName: "weather", input: { city: "Paris" } })]);
    expect(step.toolResults).toEqual([
      expect.objectContaining({ toolName: "weather", output: { city: "Paris", temperatureC: 21 } }),
    ]);
    const callId = step.toolCalls[0]!.toolCallId;
    expect(second?.messages).toEqual([
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: callId, type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: callId, content: '{"city":"Paris","temperatureC":21}' },
    ]);
  });

  it.each(["hfkit/tgi-2.4.1", "hfkit/tgi-3.1", "hfkit/tgi-3.2"])(
    "streamText on %s: tool-input parts, then the whole call",
    async (model) => {
      const result = streamText({ model: onHub(ctx.hub)(model), prompt: "Weather in Paris?", tools });
      const types: string[] = [];
      let input = "";
      for await (const part of result.fullStream) {
        types.push(part.type);
        if (part.type === "tool-input-delta") input += part.delta;
      }
      expect(JSON.parse(input)).toEqual({ city: "Paris" });
      expect(types.indexOf("tool-input-start")).toBeLessThan(types.indexOf("tool-input-end"));
      expect(types.indexOf("tool-input-end")).toBeLessThan(types.indexOf("tool-call"));
      expect(types).toContain("tool-result");
      expect(await result.toolCalls).toEqual([
        expect.objectContaining({ toolName: "weather", input: { city: "Paris" } }),
      ]);
      expect(await result.finishReason).toBe("tool-calls");
      expect(await settled(ctx.hub)).toBe(0);
    },
  );

  it("toolChoice: a named tool is sent as {type: function, function: {name}} and is the one called", async () => {
    const result = streamText({
      model: onHub(ctx.hub)("hfkit/tgi-3.2"),
      prompt: "How many people in Paris?",
      tools,
      toolChoice: { type: "tool", toolName: "population" },
    });
    expect(await within(result.toolCalls)).toEqual([
      expect.objectContaining({ toolName: "population", input: { city: "Paris" } }),
    ]);
    expect(lastBody(ctx.hub).tool_choice).toEqual({ type: "function", function: { name: "population" } });
  });

  it("toolChoice none and required are sent as they are; none answers in text", async () => {
    const none = await within(
      generateText({ model: onHub(ctx.hub)("hfkit/tgi-3.2"), prompt: "Hi", tools, toolChoice: "none" }),
    );
    expect(none.text).toBe(TEXT);
    expect(none.toolCalls).toEqual([]);
    expect(lastBody(ctx.hub).tool_choice).toBe("none");
    const required = await within(
      generateText({ model: onHub(ctx.hub)("hfkit/tgi-3.2"), prompt: "Hi", tools, toolChoice: "required" }),
    );
    expect(required.toolCalls).toHaveLength(1);
    expect(lastBody(ctx.hub).tool_choice).toBe("required");
  });

  it("streamText runs the tool and a second step with its result (stopWhen)", async () => {
    const result = streamText({
      model: onHub(ctx.hub)("hfkit/tgi-3.2"),
      prompt: "Weather in Paris?",
      tools,
      stopWhen: stepCountIs(2),
    });
    const steps = await within(result.steps);
    expect(steps).toHaveLength(2);
    expect(chatRequests(ctx.hub)).toHaveLength(2);
    const messages = (chatRequests(ctx.hub)[1]?.body as { messages: Array<{ role: string }> }).messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });
});
