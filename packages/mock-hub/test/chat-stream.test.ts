import { describe, expect, it } from "vitest";
import { contentOf, dataPayloads, jsonEvents, streamChat, useHub } from "./helpers.js";

const hub = useHub();

const envelope202 =
  '{"id":"","object":"text_completion","created":1735689600,"model":"hfkit/tgi-2.0","system_fingerprint":"2.0.2-sha-dccab72","choices":';
const envelope32 = (fingerprint: string) =>
  `{"object":"chat.completion.chunk","id":"","created":1735689600,"model":"hfkit/tgi-3.2","system_fingerprint":"${fingerprint}","choices":`;
const choice = (content: string, finish: string | null) =>
  `[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]`;

describe("TGI chat stream framing", () => {
  it("2.0.x: data: without a space, text_completion, never [DONE]", async () => {
    const response = await streamChat(hub(), "hfkit/tgi-2.0", { max_tokens: 2 });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe(
      `data:${envelope202}${choice("The", null)}}\n\n` + `data:${envelope202}${choice(" capital", "length")}}\n\n`,
    );
  });

  it("3.2: data: with a space, chat.completion.chunk, usage null, then [DONE]", async () => {
    const response = await streamChat(hub(), "hfkit/tgi-3.2", { max_tokens: 2 });
    const head = envelope32(`3.2.0-sha-${await fingerprintSha(hub().url)}`);
    expect(await response.text()).toBe(
      `data: ${head}${choice("The", null)},"usage":null}\n\n` +
        `data: ${head}${choice(" capital", "length")},"usage":null}\n\n` +
        "data: [DONE]\n\n",
    );
  });

  it.each([
    ["hfkit/tgi-2.0", "data:", false, "text_completion", false],
    ["hfkit/tgi-2.1", "data: ", false, "chat.completion.chunk", false],
    ["hfkit/tgi-2.2", "data: ", true, "chat.completion.chunk", false],
    ["hfkit/tgi-2.4.0", "data: ", true, "chat.completion.chunk", true],
    ["hfkit/tgi-2.4.1", "data: ", true, "chat.completion.chunk", true],
    ["hfkit/tgi-3.1", "data: ", true, "chat.completion.chunk", true],
    ["hfkit/tgi-3.2", "data: ", true, "chat.completion.chunk", true],
  ])("%s: prefix %j, [DONE] %s, object %s, usage key %s", async (model, prefix, done, object, usageKey) => {
    const text = await (await streamChat(hub(), model)).text();
    const blocks = text.split("\n\n");
    expect(blocks.pop()).toBe("");
    for (const block of blocks) expect(block.startsWith(prefix) && !block.startsWith(`${prefix} `)).toBe(true);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(done);
    const events = jsonEvents(text);
    expect(events.every((event) => event.object === object)).toBe(true);
    expect(events.every((event) => "usage" in event)).toBe(usageKey);
  });

  it("streams the fixed answer one word-token per chunk; a natural end adds the EOS chunk", async () => {
    const text = await (await streamChat(hub(), "hfkit/tgi-3.2")).text();
    const events = jsonEvents(text);
    expect(events.map((event) => event.choices[0].delta.content)).toEqual([
      "The",
      " capital",
      " of",
      " France",
      " is",
      " Paris.",
      "",
    ]);
    expect(events.map((event) => event.choices[0].finish_reason)).toEqual([null, null, null, null, null, null, "stop"]);
    expect(contentOf(text)).toBe("The capital of France is Paris.");
  });

  it("before 2.1 the EOS token's text shows and the finish reason is eos_token", async () => {
    const events = jsonEvents(await (await streamChat(hub(), "hfkit/tgi-2.0")).text());
    expect(events.at(-1)?.choices[0]).toMatchObject({ delta: { content: "</s>" }, finish_reason: "eos_token" });
  });

  it("a stop sequence ends the answer: stop_sequence before 2.1, stop after", async () => {
    const old = jsonEvents(await (await streamChat(hub(), "hfkit/tgi-2.0", { stop: ["France"] })).text());
    expect(old.at(-1)?.choices[0]).toMatchObject({ delta: { content: " France" }, finish_reason: "stop_sequence" });
    const text = await (await streamChat(hub(), "hfkit/tgi-3.2", { stop: ["France"] })).text();
    expect(contentOf(text)).toBe("The capital of France");
    expect(jsonEvents(text).at(-1)?.choices[0].finish_reason).toBe("stop");
  });

  it("include_usage (>= 2.3) adds a chunk with empty choices and the usage before [DONE]", async () => {
    const text = await (await streamChat(hub(), "hfkit/tgi-3.2", { stream_options: { include_usage: true } })).text();
    const payloads = dataPayloads(text);
    expect(payloads.at(-1)).toBe("[DONE]");
    const usageChunk = JSON.parse(payloads.at(-2) ?? "{}");
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual({ prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 });
    expect(
      jsonEvents(text)
        .slice(0, -1)
        .every((event) => event.usage === null),
    ).toBe(true);
  });

  it("include_usage is ignored before 2.3", async () => {
    const text = await (await streamChat(hub(), "hfkit/tgi-2.2", { stream_options: { include_usage: true } })).text();
    expect(jsonEvents(text).every((event) => event.choices.length === 1)).toBe(true);
  });
});

describe("TGI tool-call streams", () => {
  const tools = [
    {
      type: "function",
      function: {
        name: "get_weather",
        parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
      },
    },
  ];

  it("up to 3.1 delta.tool_calls is one object", async () => {
    const events = jsonEvents(await (await streamChat(hub(), "hfkit/tgi-3.1", { tools, tool_choice: "auto" })).text());
    const first = events[0]?.choices[0].delta.tool_calls;
    expect(Array.isArray(first)).toBe(false);
    expect(first).toMatchObject({ index: 0, id: "", type: "function", function: { name: "get_weather" } });
    const args = events.map((event) => event.choices[0].delta.tool_calls.function.arguments).join("");
    expect(JSON.parse(args)).toEqual({ location: "Paris" });
    expect(events.at(-1)?.choices[0].finish_reason).toBe("stop");
  });

  it("from 3.2 delta.tool_calls is an array", async () => {
    const events = jsonEvents(await (await streamChat(hub(), "hfkit/tgi-3.2", { tools, tool_choice: "auto" })).text());
    expect(Array.isArray(events[0]?.choices[0].delta.tool_calls)).toBe(true);
    const args = events.map((event) => event.choices[0].delta.tool_calls[0].function.arguments).join("");
    expect(JSON.parse(args)).toEqual({ location: "Paris" });
  });

  it("tool_choice none answers text", async () => {
    const text = await (await streamChat(hub(), "hfkit/tgi-3.2", { tools, tool_choice: "none" })).text();
    expect(contentOf(text)).toBe("The capital of France is Paris.");
  });
});

async function fingerprintSha(url: string): Promise<string> {
  const info = (await (await fetch(`${url}/models/hfkit/tgi-3.2/info`)).json()) as { sha: string };
  return info.sha;
}
