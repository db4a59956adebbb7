// @langchain/openai's ChatOpenAI through the fetch adapter and through the proxy: streamed tool calls
// (LangChain drops a tool-call chunk without an id, and TGI sends "id": ""), whole tool calls and
// plain streamed text, on TGI 2.0 / 3.x and the transformers pipeline.
import type { AIMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHfFetch, startProxy } from "../src/index";
import { TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const question = [{ role: "user", content: "What is the weather in Paris?" }];
// The schema as JSON Schema: LangChain passes it on as the function's parameters.
const getWeather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "The weather in a city",
  schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

let proxy: Awaited<ReturnType<typeof startProxy>>;
beforeAll(async () => {
  proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
});
afterAll(() => proxy.close());

const THROUGH = {
  adapter: (model: string) => ({
    baseURL: `${ctx.hub.url}/models/${model}/v1`,
    fetch: createHfFetch({ maxRetries: 0 }),
  }),
  proxy: () => ({ baseURL: `${proxy.url}/v1` }),
};

function chat(through: keyof typeof THROUGH, model: string): ChatOpenAI {
  return new ChatOpenAI({ model, apiKey: "k", maxRetries: 0, configuration: THROUGH[through](model) });
}

async function streamed(
  model: ChatOpenAI | ReturnType<ChatOpenAI["bindTools"]>,
  input = question,
): Promise<AIMessageChunk> {
  let whole: AIMessageChunk | undefined;
  for await (const chunk of await model.stream(input)) whole = whole === undefined ? chunk : whole.concat(chunk);
  if (!whole) throw new Error("the stream yielded nothing");
  return whole;
}

describe.each(["adapter", "proxy"] as const)("ChatOpenAI through the %s", (through) => {
  it.each(["hfkit/tgi-2.0", "hfkit/tgi-3.1", "hfkit/tgi-3.2"])(
    "a streamed tool call (%s) comes back whole, with an id",
    async (model) => {
      const whole = await within(streamed(chat(through, model).bindTools([getWeather])));
      expect(whole.tool_calls).toHaveLength(1);
      expect(whole.tool_calls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Paris" } });
      // TGI up to 3.1 streams an empty id: the adapter makes one up; 3.2 numbers its calls ("0"), kept as sent.
      expect(whole.tool_calls?.[0]?.id).toMatch(model === "hfkit/tgi-3.2" ? /^0$/ : /^call_[0-9a-f]{24}$/);
      expect(whole.response_metadata?.finish_reason).toBe("tool_calls");
    },
  );

  it("a whole tool call (TGI 2.0): its id and finish_reason tool_calls", async () => {
    const message = await within(chat(through, "hfkit/tgi-2.0").bindTools([getWeather]).invoke(question));
    expect(message.tool_calls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Paris" } });
    expect(message.tool_calls?.[0]?.id).toBeTruthy();
    expect(message.response_metadata?.finish_reason).toBe("tool_calls");
  });

  it.each(["hfkit/tgi-2.0", "hfkit/tgi-3.2", "hfkit/transformers-chat"])("streamed text (%s)", async (model) => {
    const whole = await within(
      streamed(chat(through, model), [{ role: "user", content: "What is the capital of France?" }]),
    );
    expect(whole.content).toBe(TEXT);
  });
});
