/**
 * Round four on the core's readers and errors, through real HTTP on loopback (raw `node:net` servers): keep-alives are
 * never progress, on a whole call as on a stream (a server that answers with an event stream of comments and nothing
 * else ends the call at its first-chunk limit, or its stall limit when there is none, whichever way it is read); and
 * no error's message is longer than MAX_MESSAGE_CHARS, whatever a server put in it.
 */
import { describe, expect, it } from "vitest";
import { HttpError, InferenceClient, InferenceError, MalformedEventError, TimeoutError } from "../../src/index";
import { MAX_MESSAGE_CHARS } from "../../src/core/errors";
import { backendMemory } from "../../src/targets/endpoints/detect";
import { chunked, type RawReply } from "../faults/raw-server";
import { within } from "../faults/support";
import { expectNoSecret, HF_SECRET, useRawServer } from "./support";

const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];
const QUESTION = [{ role: "user" as const, content: "hi" }];
const hub = useRawServer(() => {
  backendMemory.clear();
  backendMemory.detections.clear();
});

/** A 200 event stream of keep-alive comments (and blank lines) every 20 ms, until the client goes away. */
function keepAlivesForever(headers: Array<[string, string]> = SSE): void {
  hub.server.handle(async (_req, reply: RawReply) => {
    const body = chunked(reply, 200, headers);
    while (!reply.closed) {
      body.chunk(": keep-alive\n\n");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
}

/** Limits under which a hang is told from an end: the one under test short, the others far away. */
const FIRST_CHUNK = { firstChunkTimeout: 400, stallTimeout: 60_000, idleTimeout: 60_000, maxRetries: 0 };
const STALL = { firstChunkTimeout: Infinity, stallTimeout: 400, idleTimeout: 60_000, maxRetries: 0 };

const settle = (p: Promise<unknown>, what: string): Promise<unknown> =>
  within(
    p.then(
      (v) => v,
      (e: unknown) => e,
    ),
    20_000,
    what,
  );

function expectTimeout(error: unknown, kind: TimeoutError["kind"]): void {
  expect(error).toBeInstanceOf(TimeoutError);
  expect((error as TimeoutError).kind).toBe(kind);
}

describe("keep-alive comments are not progress on a whole call", { timeout: 60_000 }, () => {
  it("chatCompletion answered with an event stream of comments: TimeoutError first-chunk, as streamed", async () => {
    keepAlivesForever();
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai", ...FIRST_CHUNK });
    expectTimeout(await settle(client.chatCompletion({ messages: QUESTION }), "the whole call"), "first-chunk");
    const streamed = client.chatCompletionStream({ messages: QUESTION }).next();
    expectTimeout(await settle(streamed, "the stream"), "first-chunk");
  });

  it("with no first-chunk limit, both end at the stall limit", async () => {
    keepAlivesForever();
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai", ...STALL });
    expectTimeout(await settle(client.chatCompletion({ messages: QUESTION }), "the whole call"), "stall");
    expectTimeout(await settle(client.chatCompletionStream({ messages: QUESTION }).next(), "the stream"), "stall");
  });

  it("textGeneration (TGI's generate, a whole answer) too", async () => {
    keepAlivesForever();
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "tgi", ...FIRST_CHUNK });
    expectTimeout(await settle(client.textGeneration({ inputs: "hi" }), "the whole call"), "first-chunk");
  });

  it("a task's answer (featureExtraction) under text/event-stream is read as text, not an endless Blob", async () => {
    keepAlivesForever();
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, ...FIRST_CHUNK });
    expectTimeout(await settle(client.featureExtraction({ inputs: "hi" }), "the task"), "first-chunk");
    const stalled = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, ...STALL });
    expectTimeout(await settle(stalled.featureExtraction({ inputs: "hi" }), "the task"), "stall");
  });

  it("a task's JSON under text/event-stream is its value; an event stream, a MalformedEventError", async () => {
    hub.server.handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk("\n[0.5, 1.5]");
      body.end();
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, maxRetries: 0 });
    expect(await client.featureExtraction({ inputs: "hi" })).toEqual([0.5, 1.5]);
    hub.server.handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(': ping\n\ndata: {"x": 1}\n\n');
      body.end();
    });
    const error = await client.featureExtraction({ inputs: "hi" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toContain(': ping\n\ndata: {"x": 1}');
  });

  it("a JSON answer's bytes are progress: its first byte meets the first-chunk limit, the rest later", async () => {
    const choices = [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }];
    const answer = JSON.stringify({ id: "a", object: "chat.completion", created: 1, model: "m", choices });
    hub.server.handle(async (_req, reply) => {
      const body = chunked(reply, 200, [["Content-Type", "application/json"]]);
      body.chunk(answer.slice(0, 1));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      body.chunk(answer.slice(1));
      body.end();
    });
    const options = { endpointUrl: hub.server.url, backend: "openai" as const, firstChunkTimeout: 1000, maxRetries: 0 };
    const client = new InferenceClient(HF_SECRET, options);
    const out = await within(client.chatCompletion({ messages: QUESTION }), 20_000, "the slow answer");
    expect(out.choices[0]?.message.content).toBe("ok");
  });
});

describe("every error's message is bounded where errors are made", () => {
  it("an error event of 1 MB inside a 200 stream: the typed error, its message cut to 4 096 characters", async () => {
    const words = `The model failed: ${HF_SECRET} ${"because ".repeat(131_072)}`;
    hub.server.handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(`data: ${JSON.stringify({ error: words, error_type: "generation" })}\n\n`);
      body.end();
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai", maxRetries: 0 });
    const error = await settle(client.chatCompletionStream({ messages: QUESTION }).next(), "the stream");
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toHaveLength(MAX_MESSAGE_CHARS + 1);
    expect((error as Error).message).toMatch(/^The model failed: \[redacted\] because because .*…$/);
    expectNoSecret(error, HF_SECRET);
  });

  it("a message at the bound is kept whole; past it, cut and marked; a token across the cut redacted", () => {
    expect(MAX_MESSAGE_CHARS).toBe(4096);
    const at = "m".repeat(MAX_MESSAGE_CHARS);
    expect(new InferenceError(at).message).toBe(at);
    expect(new InferenceError(`${at}x`).message).toBe(`${at}…`);
    const across = new InferenceError(`${"m".repeat(MAX_MESSAGE_CHARS - 7)} ${HF_SECRET}`).message;
    expect(across).toBe(`${"m".repeat(MAX_MESSAGE_CHARS - 7)} [redac…`);
    expect(String(new MalformedEventError(`${"m".repeat(10_000)}`, "").message)).toHaveLength(MAX_MESSAGE_CHARS + 1);
  });
});
