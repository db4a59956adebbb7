/**
 * One bare JSON value under `text/event-stream` (servers that ignore `stream: true` but keep the type),
 * through real HTTP on loopback: told from events by its first non-blank byte, however the body is cut;
 * an answer is yielded as chunks, an error body is the typed error, an array is read by the task's rules,
 * anything else is a MalformedEventError by its text; past 32 MB, reading stops.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ChatCompletionStreamOutput,
  MalformedEventError,
  streamingRequest,
  textGenerationStream,
  ValidationError,
} from "../../src/index";
import { chunked, type RawReply, whole } from "../faults/raw-server";
import { consume, within } from "../faults/support";
import { answerJson, clientOn, pieceByPieceFetch, QUESTION, SSE, useRawServer } from "./stream-support";

const raw = useRawServer();

/** What the consumer of a chat stream saw. */
async function chatOf(options: Parameters<typeof clientOn>[1] = {}) {
  return within(
    consume(clientOn(raw(), options).chatCompletionStream({ messages: QUESTION })),
    undefined,
    "the stream",
  );
}

/** Serves `pieces` as an event-stream body, each piece written once the client has taken the one before. */
function servePieces(
  pieces: Array<string | Uint8Array>,
  taken: (n: number) => Promise<void>,
  headers: Array<[string, string]> = [],
): void {
  raw().handle(async (_req, reply: RawReply) => {
    const body = chunked(reply, 200, [...SSE, ...headers]);
    for (let i = 0; i < pieces.length; i++) {
      body.chunk(pieces[i]!);
      await taken(i + 1);
    }
    body.end();
  });
}

/** The bytes of `text` cut at `cuts` (each taken modulo the length + 1): a cut may fall inside a UTF-8 sequence. */
function cut(text: string, cuts: number[]): Uint8Array[] {
  const bytes = Buffer.from(text);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))]
    .filter((p) => p > 0 && p < bytes.length)
    .sort((a, b) => a - b);
  return [0, ...points].map((from, i) => bytes.subarray(from, points[i] ?? bytes.length));
}

/** What the consumer of a chat stream saw of `text` served cut at `cuts`. */
function chatOfPieces(text: string, cuts: number[], headers: Array<[string, string]> = []) {
  const { fetch, taken } = pieceByPieceFetch();
  servePieces(cut(text, cuts), taken, headers);
  return chatOf({ fetch });
}

const PARIS = "Paris, café 東京 🚀";
const MB = 1048576;

/** The two chunks a whole answer is yielded as: role and content, then the finish with the usage. */
function expectAnswerChunks(chunks: ChatCompletionStreamOutput[]): void {
  expect(chunks).toHaveLength(2);
  expect(chunks[0]).toMatchObject({ id: "a1", created: 7, model: "m", object: "chat.completion.chunk" });
  expect(chunks[0]?.choices).toEqual([{ index: 0, delta: { role: "assistant", content: PARIS } }]);
  expect(chunks[1]?.choices).toEqual([{ index: 0, delta: { role: "assistant" }, finish_reason: "stop" }]);
  expect(chunks[1]?.usage?.total_tokens).toBe(2);
}

describe("a whole chat answer under text/event-stream", () => {
  it("after a piece of blanks alone (its type not yet known), the answer in the next piece: yielded as chunks", async () => {
    const { fetch, taken } = pieceByPieceFetch();
    servePieces(["\r\n \t\n", answerJson(PARIS)], taken);
    const run = await chatOf({ fetch });
    expect(run.error).toBeUndefined();
    expectAnswerChunks(run.chunks);
  });

  it("after a leading newline, in one piece", async () => {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", `\n${answerJson(PARIS)}`));
    const run = await chatOf();
    expect(run.error).toBeUndefined();
    expectAnswerChunks(run.chunks);
  });

  it("any cut of its bytes, a BOM and blanks before it, gives the same chunks (property)", async () => {
    const text = `\uFEFF \r\n${answerJson(PARIS)}\n`;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
        const run = await chatOfPieces(text, cuts);
        expect(run.error).toBeUndefined();
        expectAnswerChunks(run.chunks);
      }),
      { numRuns: 60 },
    );
  });

  it('an "error": null field is no error: the answer is yielded', async () => {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", answerJson(PARIS, { error: null })));
    const run = await chatOf();
    expect(run.error).toBeUndefined();
    expectAnswerChunks(run.chunks);
  });
});

describe("an error body under text/event-stream", () => {
  it("is the typed error, however its bytes are cut (property), naming the provider and the request id", async () => {
    const text = `\n${JSON.stringify({ error: "Input validation error: `top_p` must be < 1", error_type: "validation" })}`;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 8 }), async (cuts) => {
        const run = await chatOfPieces(text, cuts, [
          ["X-Request-Id", "rid-7"],
          ["X-Inference-Provider", "together"],
        ]);
        expect(run.error).toBeInstanceOf(ValidationError);
        expect((run.error as Error).message).toBe(
          "Input validation error: `top_p` must be < 1 (inside the stream from provider together, request id rid-7)",
        );
        expect(run.error).toMatchObject({
          status: 422,
          requestId: "rid-7",
          provider: "together",
          httpResponse: { status: 200, requestId: "rid-7" },
        });
      }),
      { numRuns: 25 },
    );
  });
});

describe("an error body under text/event-stream, whatever the task's rules", () => {
  it("streamingRequest (whose rules yield any value): the typed error, not a value", async () => {
    raw().handle((_req, reply) =>
      whole(reply, 200, "text/event-stream", JSON.stringify({ error: "Tool error: x", error_type: "tool_error" })),
    );
    const values: unknown[] = [];
    const stream = streamingRequest(
      { inputs: "x" },
      { endpointUrl: raw().url, logger: { warn: () => {} }, maxRetries: 0 },
    );
    const error = await (async () => {
      for await (const v of stream) values.push(v);
    })().catch((e: unknown) => e);
    expect(values).toEqual([]);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe("Tool error: x (inside the stream)");
  });
});

describe("a bare JSON array under text/event-stream", () => {
  it("textGenerationStream: TGI's [{generated_text}] is the one final event", async () => {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", ` [{"generated_text":"Paris"}]`));
    const events: unknown[] = [];
    for await (const e of textGenerationStream(
      { inputs: "x" },
      { endpointUrl: raw().url, backend: "tgi", maxRetries: 0 },
    ))
      events.push(e);
    expect(events).toEqual([
      { index: 1, token: { id: 0, text: "Paris", logprob: 0, special: false }, generated_text: "Paris", details: null },
    ]);
  });

  it("streamingRequest: the array is the one value", async () => {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", "[1,2]"));
    const values: unknown[] = [];
    for await (const v of streamingRequest({ inputs: "x" }, { endpointUrl: raw().url, logger: { warn: () => {} } }))
      values.push(v);
    expect(values).toEqual([[1, 2]]);
  });

  it("chat: not a chat completion, the error says what came", async () => {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", '[{"id":"x"}]'));
    const run = await chatOf();
    expect(run.error).toBeInstanceOf(MalformedEventError);
    expect((run.error as Error).message).toBe('Expected a chat completion, the server answered: [{"id":"x"}]');
  });
});

describe("a bare JSON value that is no answer", () => {
  it("an object the task's rules refuse: their error as it is", async () => {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", '{"foo":1}'));
    const run = await chatOf();
    expect(run.error).toBeInstanceOf(MalformedEventError);
    expect((run.error as Error).message).toBe('Expected a chat completion, the server answered: {"foo":1}');
    expect((run.error as MalformedEventError).data).toBe('{"foo":1}');
  });

  it("an object the rules trip over: a MalformedEventError quoting it, the rules' failure as its cause", async () => {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", '{"choices":[null]}'));
    const run = await chatOf();
    expect(run.error).toBeInstanceOf(MalformedEventError);
    expect((run.error as Error).message).toBe('Unexpected answer: {"choices":[null]}');
    expect((run.error as MalformedEventError).data).toBe('{"choices":[null]}');
    expect((run.error as Error).cause).toBeInstanceOf(TypeError);
  });

  it("past 32 MB, reading stops: the error says so and the server is not read to its end", async () => {
    raw().handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(`{"pad":"`);
      const piece = "z".repeat(MB);
      for (let i = 0; i < 48 && !reply.closed; i++) if (!body.chunk(piece)) await reply.drained();
      if (!reply.closed) body.chunk(`"}`);
      body.end();
    });
    const run = await within(
      consume(clientOn(raw()).chatCompletionStream({ messages: QUESTION })),
      60_000,
      "the endless answer",
    );
    expect(run.error).toBeInstanceOf(MalformedEventError);
    expect((run.error as Error).message).toBe("An event of the stream is larger than 32 MB; reading stopped there");
    expect((run.error as MalformedEventError).data).toMatch(/^\{"pad":"z+$/);
    expect((run.error as MalformedEventError).data).toHaveLength(64 * 1024);
    expect(raw().written[0]).toBeLessThan(40 * MB);
  });
});
