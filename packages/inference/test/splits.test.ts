import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chatCompletionStream } from "../src/index";
import type { ChatCompletionStreamOutput } from "../src/types";
import { chunk, cut, event, messages, recordingFetch, sse } from "./helpers";

const encoder = new TextEncoder();

// Multi-byte text (2-, 3- and 4-byte UTF-8 sequences) so splits land inside characters.
const tokens = ["Le", " café", " 東京", " 🚀", " fin"];
const chunks = tokens.map((t, i) => chunk(t, i === tokens.length - 1 ? "stop" : null));
/** What is yielded: the chunks as sent, their `usage: null` and `logprobs: null` made absent. */
const yielded = chunks.map(({ usage: _usage, ...rest }) => ({
  ...rest,
  choices: rest.choices.map(({ logprobs: _logprobs, ...choice }) => choice),
}));

function render(lineEnding: string, prefix: string, bom: boolean, withDone: boolean): Uint8Array {
  let text = ": keep-alive" + lineEnding + lineEnding;
  for (const c of chunks) text += `${prefix}${JSON.stringify(c)}${lineEnding}${lineEnding}`;
  if (withDone) text += `${prefix}[DONE]${lineEnding}${lineEnding}`;
  return encoder.encode((bom ? "\uFEFF" : "") + text);
}

function bodyIn(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const pieces = cut(bytes, cuts);
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function parse(body: ReadableStream<Uint8Array>): Promise<ChatCompletionStreamOutput[]> {
  const { fetch } = recordingFetch(() => sse(body));
  const out: ChatCompletionStreamOutput[] = [];
  for await (const c of chatCompletionStream({ messages }, { endpointUrl: "http://tgi.test", fetch })) out.push(c);
  return out;
}

const framings = fc.record({
  lineEnding: fc.constantFrom("\n", "\r\n", "\r"),
  prefix: fc.constantFrom("data:", "data: "),
  bom: fc.boolean(),
  withDone: fc.boolean(),
});

describe("any split of the bytes gives exactly the same chunks", () => {
  it("for every framing and every way of cutting the bytes (property)", async () => {
    await fc.assert(
      fc.asyncProperty(framings, fc.array(fc.nat(), { maxLength: 40 }), async (f, cuts) => {
        const got = await parse(bodyIn(render(f.lineEnding, f.prefix, f.bom, f.withDone), cuts));
        expect(got).toEqual(yielded);
      }),
      { numRuns: 300 },
    );
  });

  it("at every single split point, including inside UTF-8 sequences and CRLF pairs", async () => {
    const bytes = render("\r\n", "data:", true, false);
    for (let at = 0; at <= bytes.length; at++) {
      expect(await parse(bodyIn(bytes, [at]))).toEqual(yielded);
    }
  });

  it("one byte at a time", async () => {
    const bytes = render("\r\n", "data: ", false, true);
    const cuts = Array.from({ length: bytes.length }, (_, i) => i);
    expect(await parse(bodyIn(bytes, cuts))).toEqual(yielded);
  });

  it("the events without the framing differ (the property can fail)", async () => {
    const broken = encoder.encode(event(chunks[0]) + event(chunks[1]).replace("café", "cafe"));
    const got = await parse(bodyIn(broken, [])).catch(() => []);
    expect(got).not.toEqual(yielded);
  });
});
