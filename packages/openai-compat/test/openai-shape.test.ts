import { request } from "node:http";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHfFetch, startProxy } from "../src/index";
import { messages, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const COMPLETION_ID = /^chatcmpl-[0-9a-f]{32}$/;
const CALL_ID = /^call_[0-9a-f]{24}$/;
const tools = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

const clientFor = (model: string) =>
  new OpenAI({ baseURL: `${ctx.hub.url}/models/${model}/v1`, apiKey: "k", fetch: createHfFetch({ maxRetries: 0 }) });

async function chunksOf(model: string, extra: Record<string, unknown> = {}): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  const stream = await clientFor(model).chat.completions.create({ model, messages, stream: true, ...extra });
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('answers as OpenAI sends them, from TGI 2.0 (object text_completion, ids "")', () => {
  it('a whole answer: object "chat.completion" and a chatcmpl- id', async () => {
    const out = await clientFor("hfkit/tgi-2.0").chat.completions.create({ model: "hfkit/tgi-2.0", messages });
    expect(out.object).toBe("chat.completion");
    expect(out.id).toMatch(COMPLETION_ID);
    expect(Object.keys(out).slice(0, 2)).toEqual(["id", "object"]);
    expect(out.choices[0]?.finish_reason).toBe("stop");
  });

  it('a stream: object "chat.completion.chunk" and one id on every chunk, another for the next stream', async () => {
    const [first, second] = [await within(chunksOf("hfkit/tgi-2.0")), await within(chunksOf("hfkit/tgi-2.0"))];
    expect(first.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toContain(TEXT);
    expect(new Set(first.map((c) => c.object))).toEqual(new Set(["chat.completion.chunk"]));
    const ids = new Set(first.map((c) => c.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(COMPLETION_ID);
    expect(second[0]?.id).not.toBe(first[0]?.id);
  });

  it('a whole answer with tool calls: finish_reason "tool_calls", the call\'s id kept', async () => {
    for (const model of ["hfkit/tgi-2.0", "hfkit/tgi-3.2"]) {
      const out = await clientFor(model).chat.completions.create({ model, messages, tools });
      const choice = out.choices[0]!;
      expect(choice.finish_reason).toBe("tool_calls");
      expect(choice.message.tool_calls?.[0]?.id).toBeTruthy();
      expect(choice.message.tool_calls?.[0]).toMatchObject({
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      });
    }
  });

  it.each(["hfkit/tgi-2.0", "hfkit/tgi-3.1", "hfkit/tgi-3.2"])(
    'a streamed tool call (%s): one id on every delta of the call (made up where TGI sends none), finish_reason "tool_calls"',
    async (model) => {
      const chunks = await within(chunksOf(model, { tools }));
      const calls = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
      expect(calls.length).toBeGreaterThan(1);
      const ids = new Set(calls.map((c) => c.id));
      expect(ids.size).toBe(1);
      // TGI up to 3.1 sends `id: ""`: one is made up; 3.2 numbers its calls ("0"): kept as sent.
      expect([...ids][0]).toMatch(model === "hfkit/tgi-3.2" ? /^0$/ : CALL_ID);
      expect(calls.map((c) => c.function?.arguments ?? "").join("")).toBe('{"city":"Paris"}');
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
      expect(chunks.filter((c) => c.choices[0]?.finish_reason).length).toBe(1);
    },
  );

  it("the openai package's stream helper assembles the call with its id", async () => {
    const model = "hfkit/tgi-2.0";
    const final = await within(
      clientFor(model).chat.completions.stream({ model, messages, tools }).finalChatCompletion(),
    );
    expect(final.choices[0]?.message.tool_calls?.[0]?.id).toMatch(CALL_ID);
    expect(final.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("a server's own ids are kept (vLLM)", async () => {
    const chunks = await within(chunksOf("hfkit/vllm", { max_tokens: 2 }));
    const ids = new Set(chunks.map((c) => c.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^chatcmpl-/);
    const served = ctx.hub.requests.at(-1);
    expect(served?.path).toBe("/models/hfkit/vllm/v1/chat/completions");
  });
});

describe("the same through the proxy", () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  beforeAll(async () => {
    proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
  });
  afterAll(() => proxy.close());

  function post(body: unknown): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${proxy.url}/v1/chat/completions`,
        { method: "POST", headers: { "content-type": "application/json" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (c: string) => (text += c));
          res.on("end", () => resolve(text));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  }

  it("objects, ids, tool-call ids and finish reasons on the wire", async () => {
    const whole = JSON.parse(await post({ model: "hfkit/tgi-2.0", messages, tools })) as Record<string, any>;
    expect(whole).toMatchObject({ object: "chat.completion", choices: [{ finish_reason: "tool_calls" }] });
    expect(whole.id).toMatch(COMPLETION_ID);
    const text = await within(post({ model: "hfkit/tgi-2.0", messages, tools, stream: true }));
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const chunks = text
      .split("\n\n")
      .filter((e) => e.startsWith("data: {"))
      .map((e) => JSON.parse(e.slice(6)) as Chunk);
    expect(new Set(chunks.map((c) => `${c.object} ${c.id}`)).size).toBe(1);
    expect(chunks[0]?.object).toBe("chat.completion.chunk");
    expect(new Set(chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []).map((c) => c.id)).size).toBe(1);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });
});
