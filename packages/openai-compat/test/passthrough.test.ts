/**
 * The relay writes a chunk hfkit left as sent as the server's own text (`eventText`), not serialised again: over
 * real HTTP on loopback, an upstream's OpenAI chunks come out byte for byte (`null`s, spacing and escapes kept),
 * TGI's with the stream's id in place of `""`, and every chunk that needs a change is still changed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startProxy } from "../src/index";
import { messages, within } from "./helpers";
import { chunk, chunkedHead, LAST_CHUNK, rawUpstream } from "./raw-http";

const COMPLETION_ID = /^chatcmpl-[0-9a-f]{32}$/;
const DONE = "data: [DONE]\n\n";
const SSE_HEAD = chunkedHead(200, "text/event-stream");

/** vLLM's chunk, as it writes it. */
const vllm = (content: string, finish: string | null = null, id = "chatcmpl-7f3a"): string =>
  `{"id":"${id}","object":"chat.completion.chunk","created":1735689600,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":${JSON.stringify(finish)},"stop_reason":null}]}`;
/** TGI 3.2's chunk, as it writes it: `object` first, the id empty. */
const tgi = (content: string, finish: string | null = null): string =>
  `{"object":"chat.completion.chunk","id":"","created":1735689600,"model":"m","system_fingerprint":"3.2.0-native","choices":[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}],"usage":null}`;

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** The `data` of each event the proxy sent for a stream whose upstream wrote `events` (each `data:` text). */
async function relayed(events: string[], raw = events.map((e) => `data: ${e}\n\n`).join("")): Promise<string[]> {
  const up = await rawUpstream(({ socket }) => void socket.write(SSE_HEAD + chunk(raw + DONE) + LAST_CHUNK));
  const proxy = await startProxy({ target: up.url, maxRetries: 0 });
  cleanup.push(
    () => up.close(),
    () => proxy.close(),
  );
  const res = await fetch(`${proxy.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages, stream: true }),
  });
  const text = await within(res.text());
  expect(text.endsWith(DONE)).toBe(true);
  return text
    .slice(0, -DONE.length - 2)
    .split("\n\n")
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

describe("the relay passes chunks through as sent", { timeout: 20_000 }, () => {
  it("an OpenAI chunk comes out byte for byte: its nulls, spacing and escapes as the server wrote them", async () => {
    const spaced = `{ "id" : "chatcmpl-7f3a", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [ { "index": 0, "delta": { "content": "caf\\u00e9 \\"quoted\\"" }, "finish_reason": null } ] }`;
    const sent = [vllm("The"), spaced, vllm(" end", "stop")];
    expect(await relayed(sent)).toEqual(sent);
  });

  it("TGI's chunks: the text as sent, one generated id in place of each empty one", async () => {
    const sent = [tgi("The"), tgi(" capital"), tgi("", "stop")];
    const out = await relayed(sent);
    const id = (JSON.parse(out[0]!) as { id: string }).id;
    expect(id).toMatch(COMPLETION_ID);
    expect(out).toEqual(sent.map((text) => text.replace('"id":""', `"id":"${id}"`)));
  });

  it('a TGI chunk whose text holds another "id" is serialised: the stream\'s id still on it', async () => {
    const out = await relayed([tgi("The"), tgi('say "id'), tgi("", "stop")]);
    const ids = out.map((text) => (JSON.parse(text) as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    expect(out[1]).not.toContain('"usage":null');
    expect(JSON.parse(out[1]!)).toMatchObject({ id: ids[0], choices: [{ delta: { content: 'say "id' } }] });
  });

  it("a chunk with another id than the stream's first is serialised with the first", async () => {
    const out = await relayed([vllm("a", null, "chatcmpl-1"), vllm("b", null, "chatcmpl-2"), vllm("", "stop")]);
    expect(out.map((text) => (JSON.parse(text) as { id: string }).id)).toEqual([
      "chatcmpl-1",
      "chatcmpl-1",
      "chatcmpl-1",
    ]);
    expect(out[0]).toBe(vllm("a", null, "chatcmpl-1"));
  });

  it("every chunk that needs a change is changed: old finish reasons, reasoning_content, tool calls, object", async () => {
    const eos = tgi("</s>", "eos_token");
    const reasoning = `{"id":"chatcmpl-7f3a","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":"hm"},"finish_reason":null}]}`;
    const call = `{"id":"chatcmpl-7f3a","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}`;
    const oldObject = vllm("x").replace('"chat.completion.chunk"', '"text_completion"');
    const [r, c, o, e] = (await relayed([reasoning, call, oldObject, eos])).map((text) => JSON.parse(text));
    expect(r).toMatchObject({ choices: [{ delta: { reasoning: "hm", reasoning_content: "hm" } }] });
    expect(c.choices[0].delta.tool_calls[0].id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(o.object).toBe("chat.completion.chunk");
    // "stop" (TGI's "eos_token" in OpenAI's words) after a tool call is "tool_calls".
    expect(e.choices[0]).toMatchObject({ delta: { content: "" }, finish_reason: "tool_calls" });
  });

  it("TGI < 2.1's last chunk is changed: the EOS token's text dropped, its finish reasons in OpenAI's words", async () => {
    const out = await relayed([tgi("a"), tgi("</s>", "eos_token")]);
    expect(out[0]).toBe(tgi("a").replace('"id":""', `"id":"${(JSON.parse(out[0]!) as { id: string }).id}"`));
    expect(JSON.parse(out[1]!).choices[0]).toMatchObject({ delta: { content: "" }, finish_reason: "stop" });
    const [, last] = await relayed([tgi("a"), tgi("", "stop_sequence")]);
    expect(JSON.parse(last!).choices[0]).toMatchObject({ finish_reason: "stop" });
  });

  it("an event whose data came on two lines goes out as one line", async () => {
    const text = vllm("a");
    const cut = text.indexOf('"object"'); // between two members: the "\n" joining the lines is whitespace there
    const out = await relayed([], `data: ${text.slice(0, cut)}\ndata: ${text.slice(cut)}\n\n`);
    expect(out).toHaveLength(1);
    expect(out[0]).not.toContain("\n");
    expect(JSON.parse(out[0]!)).toMatchObject({ id: "chatcmpl-7f3a", choices: [{ delta: { content: "a" } }] });
  });
});
