/**
 * `keepEventText` and `eventText(chunk)`: over loopback HTTP, a chunk hfkit left as sent keeps the text the
 * server wrote for it; any chunk something changed (a dialect fix, split thinking, a failover's `served`, a schema's
 * `partial`) has none, nor has any chunk of a call that did not ask.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ChatCompletionStreamOutput, chatCompletionStream, eventText, type Options } from "../src/index";
import { chunked, type RawServer, startRawServer } from "./faults/raw-server";

const messages = [{ role: "user", content: "Hi" }];
/** What the raw server streams for the next call: each event's text (`data:` lines as written). */
let events: string[] = [];

const vllm = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}],"usage":null}`;

let raw: RawServer;
let hub: MockHub;
beforeAll(async () => {
  raw = await startRawServer((_req, out) => {
    const stream = chunked(out, 200, [["Content-Type", "text/event-stream"]]);
    for (const event of events) stream.chunk(`${event}\n\n`);
    stream.chunk("data: [DONE]\n\n");
    stream.end();
  });
  hub = await startMockHub();
});
afterAll(async () => {
  raw.close();
  await hub.close();
});
beforeEach(() => hub.reset());

const endpoint: Options = { endpointUrl: "", backend: "openai", maxRetries: 0, keepEventText: true };

async function chunks(sent: string[], options: Options = {}): Promise<ChatCompletionStreamOutput[]> {
  events = sent;
  const out: ChatCompletionStreamOutput[] = [];
  for await (const chunk of chatCompletionStream(
    { accessToken: "hf_event_text", messages },
    { ...endpoint, endpointUrl: raw.url, ...options },
  ))
    out.push(chunk);
  return out;
}

describe("eventText", () => {
  it("a chunk left as sent keeps the server's text, `null`s and spacing as written", async () => {
    const spaced = `  { "id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [ { "index": 0, "delta": { "content": "caf\\u00e9" } } ] }`;
    const sent = [vllm({ role: "assistant", content: "Par" }), spaced, vllm({ content: "is" }, "stop")];
    const out = await chunks(sent.map((text) => `data:${text}`));
    // The one space after `data:` is the field's separator; the rest is the text.
    expect(out.map(eventText)).toEqual([sent[0], spaced.slice(1), sent[2]]);
    expect(out.map((c) => c.choices[0]?.delta?.content)).toEqual(["Par", "café", "is"]);
  });

  it("none unless the call asks (`keepEventText`)", async () => {
    const out = await chunks([`data: ${vllm({ content: "a" }, "stop")}`], { keepEventText: undefined });
    expect(out).toHaveLength(1);
    expect(eventText(out[0]!)).toBeUndefined();
  });

  it("none for a chunk a dialect rule changed: TGI's finish reasons and EOS text, reasoning_content, tool calls, no choices", async () => {
    const out = await chunks([
      `data: ${vllm({ reasoning_content: "hm" })}`,
      `data: ${vllm({ tool_calls: [{ index: 0, id: 7, type: "function", function: { name: "f", arguments: {} } }] })}`,
      `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","usage":{"prompt_tokens":1}}`,
      `data: ${vllm({ content: "" }, "stop_sequence")}`,
    ]);
    expect(out).toHaveLength(4);
    expect(out.map(eventText)).toEqual([undefined, undefined, undefined, undefined]);
    expect(out[3]?.choices[0]?.finish_reason).toBe("stop");
    const eos = await chunks([`data: ${vllm({ content: "</s>" }, "eos_token")}`]);
    expect(eos[0]?.choices[0]?.delta?.content).toBe("");
    expect(eventText(eos[0]!)).toBeUndefined();
  });

  it("a server's finish reason named like an object's own property is its own word, kept as sent", async () => {
    const out = await chunks([`data: ${vllm({ content: "a" }, "toString")}`]);
    expect(out[0]?.choices[0]?.finish_reason).toBe("toString");
    expect(eventText(out[0]!)).toBe(vllm({ content: "a" }, "toString"));
  });

  it("none for an event whose data came on several lines (it could not be written back as one)", async () => {
    const text = vllm({ content: "a" }, "stop");
    const cut = text.indexOf('"object"');
    const out = await chunks([`data: ${text.slice(0, cut)}\ndata: ${text.slice(cut)}`]);
    expect(out[0]?.choices[0]?.delta?.content).toBe("a");
    expect(eventText(out[0]!)).toBeUndefined();
  });

  it("none with split thinking, which changes contents", async () => {
    const out = await chunks([`data: ${vllm({ content: "<think>x</think>a" }, "stop")}`], { splitThinking: true });
    expect(out[0]?.choices[0]?.delta).toMatchObject({ content: "a", reasoning: "x" });
    expect(eventText(out[0]!)).toBeUndefined();
  });

  it("none for a call that fails over: each chunk says who served it", async () => {
    const stream = chatCompletionStream(
      { accessToken: "hf_event_text", model: "hfkit/router-multi", provider: ["together", "novita"], messages },
      { routerUrl: hub.url, maxRetries: 0, keepEventText: true },
    );
    const out: ChatCompletionStreamOutput[] = [];
    for await (const chunk of stream) out.push(chunk);
    expect(out.length).toBeGreaterThan(1);
    expect(out.every((c) => c.served?.provider === "together")).toBe(true);
    expect(out.map(eventText).filter((t) => t !== undefined)).toEqual([]);
    // The same call on one provider keeps them.
    const one: ChatCompletionStreamOutput[] = [];
    for await (const chunk of chatCompletionStream(
      { accessToken: "hf_event_text", model: "hfkit/router-multi", provider: "together", messages },
      { routerUrl: hub.url, maxRetries: 0, keepEventText: true },
    ))
      one.push(chunk);
    expect(one.some((c) => eventText(c) !== undefined)).toBe(true);
  });

  it("none for a structured stream: each choice's `partial` is added", async () => {
    const answer = '{"city":"Paris"}';
    const sent = [vllm({ content: answer.slice(0, 8) }), vllm({ content: answer.slice(8) }, "stop")];
    // Without a schema, the same chunks keep their texts.
    expect((await chunks(sent.map((text) => `data: ${text}`))).map(eventText)).toEqual(sent);
    const structured: ChatCompletionStreamOutput[] = [];
    for await (const chunk of chatCompletionStream(
      {
        accessToken: "hf_event_text",
        messages,
        response_format: {
          type: "json_schema",
          json_schema: { name: "place", schema: { type: "object", properties: { city: { type: "string" } } } },
        },
      },
      { ...endpoint, endpointUrl: raw.url },
    ))
      structured.push(chunk);
    expect(structured.at(-1)?.choices[0]?.parsed).toEqual({ city: "Paris" });
    expect(structured.map(eventText)).toEqual([undefined, undefined]);
  });
});
