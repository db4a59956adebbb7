import { describe, expect, it } from "vitest";
import { chatCompletion, chatCompletionStream, InputError } from "../src/index";
import { chunk, event, json, messages, recordingFetch, sse } from "./helpers";

const endpointUrl = "http://tgi.test";

const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
  ["no messages", { messages: [] }, "messages", /non-empty array/],
  ["messages not an array", { messages: "hi" }, "messages", /non-empty array/],
  ["a message without role", { messages: [{ content: "x" }] }, "messages[0].role", /non-empty string/],
  [
    "a message with a number as content",
    { messages: [{ role: "user", content: 3 }] },
    "messages[0].content",
    /string or an array/,
  ],
  ["top_p above 1", { messages, top_p: 1.5 }, "top_p", /between 0 and 1 \(got 1.5\)/],
  ["top_p below 0", { messages, top_p: -0.1 }, "top_p", /between 0 and 1/],
  ["negative temperature", { messages, temperature: -1 }, "temperature", />= 0/],
  ["NaN temperature", { messages, temperature: Number.NaN }, "temperature", /finite/],
  ["infinite temperature", { messages, temperature: Infinity }, "temperature", /finite/],
  ["max_tokens 0", { messages, max_tokens: 0 }, "max_tokens", /positive integer/],
  ["fractional max_tokens", { messages, max_tokens: 1.5 }, "max_tokens", /positive integer/],
  ["frequency_penalty 3", { messages, frequency_penalty: 3 }, "frequency_penalty", /between -2 and 2/],
  ["n > 1 on TGI", { messages, n: 2 }, "n", /must be 1 for a TGI-served model/],
  ["presence_penalty -2 on TGI", { messages, presence_penalty: -2 }, "presence_penalty", /> -2/],
  ["stop not strings", { messages, stop: [1] }, "stop", /string/],
];

describe("InputError before any request", () => {
  it.each(cases)("%s", async (_name, args, field, message) => {
    const { fetch, seen } = recordingFetch(() => json({}));
    const error = await chatCompletion(args as never, { endpointUrl, fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(field.replace(/\[\d+\].*/, ""));
    expect(seen).toHaveLength(0);
  });

  it.each([
    [
      "endpointUrl with a third-party provider",
      { model: "o/m", provider: "together", endpointUrl },
      {},
      "provider",
      /Cannot use endpointUrl with a third-party provider/,
    ],
    [
      "a model given as a URL",
      { model: "https://api.example/models/o/m" },
      {},
      "model",
      /Model URLs are no longer supported. Use endpointUrl instead/,
    ],
    [
      "an openai model without its prefix",
      { model: "gpt-4o-mini", provider: "openai" },
      {},
      "model",
      /must be prefixed by "openai\/"/,
    ],
  ])("%s, as @huggingface/inference refuses it", async (_name, args, options, field, message) => {
    const { fetch, seen } = recordingFetch(() => json({}));
    const error = await chatCompletion({ ...args, messages }, { fetch, ...options }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ field });
    expect((error as Error).message).toMatch(message);
    expect(seen).toHaveLength(0);
  });

  it("an empty model where the route needs one", async () => {
    const { fetch, seen } = recordingFetch(() => json({}));
    for (const options of [{}, { provider: "hf-inference" }, { baseUrl: "http://hub.test" }]) {
      const error = await chatCompletion({ model: " ", messages }, { fetch, ...options }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe("model");
    }
    expect(seen).toHaveLength(0);
  });

  it("bad options are InputErrors too", async () => {
    const { fetch } = recordingFetch(() => json({}));
    for (const [field, value] of [
      ["timeout", -1],
      ["idleTimeout", 0],
      ["firstChunkTimeout", "x"],
      ["maxRetries", 1.5],
    ] as const) {
      const error = await chatCompletion({ messages }, { endpointUrl, fetch, [field]: value }).catch((e: unknown) => e);
      expect((error as InputError).field).toBe(field);
    }
  });

  it("chatCompletionStream throws nothing synchronously; the InputError comes from the first next()", async () => {
    const { fetch, seen } = recordingFetch(() => sse(""));
    const stream = chatCompletionStream({ messages: [] }, { endpointUrl, fetch });
    await expect(stream.next()).rejects.toBeInstanceOf(InputError);
    expect((await stream.next()).done).toBe(true);
    expect(seen).toHaveLength(0);
  });

  it("does not second-guess the server: any role, content parts, tool messages pass", async () => {
    const { fetch, seen } = recordingFetch(() => sse(event(chunk("ok", "stop"))));
    const stream = chatCompletionStream(
      {
        messages: [
          { role: "developer", content: "Be brief" },
          {
            role: "user",
            content: [
              { type: "text", text: "Hi" },
              { type: "image_url", image_url: { url: "data:," } },
            ],
          },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: "{}" } }],
          },
          { role: "tool", content: "42", tool_call_id: "1" },
        ],
        temperature: 2.5,
        n: 1,
      },
      { endpointUrl, fetch },
    );
    for await (const _ of stream);
    expect(seen).toHaveLength(1);
  });
});

describe("OpenAI ranges mapped for TGI", () => {
  async function sentBody(args: Record<string, unknown>) {
    const { fetch, seen } = recordingFetch(() => sse(event(chunk("ok", "stop"))));
    for await (const _ of chatCompletionStream({ messages, ...args }, { endpointUrl, fetch }));
    return seen[0]!.body;
  }

  it("top_p 0 is greedy: temperature 0, no top_p", async () => {
    const body = await sentBody({ top_p: 0, temperature: 0.7 });
    expect(body.top_p).toBeUndefined();
    expect(body.temperature).toBe(0);
  });

  it("top_p 1 is not sent; a top_p inside (0, 1) is", async () => {
    expect("top_p" in (await sentBody({ top_p: 1 }))).toBe(false);
    expect((await sentBody({ top_p: 0.9 })).top_p).toBe(0.9);
  });

  it("temperature 0 is sent as greedy (TGI >= 2.0.2 chat)", async () => {
    expect((await sentBody({ temperature: 0 })).temperature).toBe(0);
  });

  it("presence_penalty 0 is not sent; other values are", async () => {
    expect("presence_penalty" in (await sentBody({ presence_penalty: 0 }))).toBe(false);
    expect((await sentBody({ presence_penalty: 0.5 })).presence_penalty).toBe(0.5);
  });

  it("unset parameters are not sent; stream and model are; a string stop becomes a list", async () => {
    const body = await sentBody({ stop: "\n", max_tokens: 5, accessToken: "hf_x" });
    expect(body).toEqual({ model: "tgi", messages, stop: ["\n"], max_tokens: 5, stream: true });
  });

  it("stream_options are sent only when streaming", async () => {
    expect((await sentBody({ stream_options: { include_usage: true } })).stream_options).toEqual({
      include_usage: true,
    });
    const { fetch, seen } = recordingFetch(() =>
      json({ id: "", created: 0, model: "", system_fingerprint: "", choices: [], usage: {} }),
    );
    await chatCompletion({ messages, stream_options: { include_usage: true } }, { endpointUrl, fetch });
    expect(seen[0]!.body.stream).toBe(false);
    expect("stream_options" in seen[0]!.body).toBe(false);
  });
});
