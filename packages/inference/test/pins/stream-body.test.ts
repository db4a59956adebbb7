/**
 * How the body of a stream is read, through real HTTP on loopback: a body that is not a web stream is
 * refused; a dropped connection, a limit or an abort ends the read even when fetch ignores the abort signal;
 * an error before the first chunk is retried, after it never; a bare JSON answer's first byte is its first
 * chunk; the grace after the finish is not cut by idleTimeout, and a usage chunk ends it at once; and the
 * 32 MB bound counts one event at a time.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  ConnectionError,
  type FetchLike,
  InferenceError,
  MalformedEventError,
  RateLimitError,
  type RetryEvent,
  TimeoutError,
} from "../../src/index";
import { chunked, type RawReply } from "../faults/raw-server";
import { consume, recordTimers, Timeline, within } from "../faults/support";
import {
  answerJson,
  chunkEvent,
  clientOn,
  gate,
  holdNextRequest,
  pieceByPieceFetch,
  QUESTION,
  SSE,
  useRawServer,
} from "./stream-support";

const raw = useRawServer();
const MB = 1048576;
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A chat stream on `raw` with `options`, consumed; the reply of its (first) request, which the test writes. */
async function started(options: Parameters<typeof clientOn>[1] = {}) {
  const held = holdNextRequest(raw());
  const run = consume(clientOn(raw(), options).chatCompletionStream({ messages: QUESTION }));
  return { run, reply: await held };
}

/** A chat stream on `raw` whose first chunk, A, has been taken; its server keeps the socket open. */
async function afterFirst(options: Parameters<typeof clientOn>[1] = {}) {
  const held = holdNextRequest(raw());
  const stream = clientOn(raw(), options).chatCompletionStream({ messages: QUESTION });
  const first = stream.next();
  const reply = await held;
  chunked(reply, 200, SSE).chunk(chunkEvent("A"));
  expect((await first).value?.choices[0]?.delta?.content).toBe("A");
  return { stream, reply };
}

/** The global fetch, its request's signal withheld: what a fetch that does not support aborting does. */
const deafFetch: FetchLike = (input, init) => fetch(input, { ...init, signal: null });

describe("what the body is", () => {
  it("a body that is not a web ReadableStream (node-fetch's): an InferenceError that says so, nothing retried", async () => {
    const fetches: string[] = [];
    const nodeStyle: FetchLike = async (input, init) => {
      fetches.push(input);
      const res = await fetch(input, init);
      await res.body?.cancel();
      return { ok: true, status: 200, headers: res.headers, body: { pipe: () => {} } } as unknown as Response;
    };
    raw().handle((_req, reply) => void chunked(reply, 200, SSE).chunk(chunkEvent("A")));
    const run = await within(
      consume(clientOn(raw(), { fetch: nodeStyle, maxRetries: 2 }).chatCompletionStream({ messages: QUESTION })),
    );
    expect(run.error).toBeInstanceOf(InferenceError);
    expect((run.error as Error).constructor).toBe(InferenceError);
    expect((run.error as Error).message).toBe(
      "The response body is not a web ReadableStream (node-fetch?): pass a WHATWG fetch as `fetch`",
    );
    expect(fetches).toHaveLength(1);
  });
});

describe("what ends a read", () => {
  it("the connection dropped mid-body: a ConnectionError naming the host, after the chunk", async () => {
    const { stream, reply } = await afterFirst();
    const pending = stream.next();
    reply.socket.destroy();
    const error = await within(pending.catch((e: unknown) => e));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(
      new RegExp(`^Connection to 127\\.0\\.0\\.1:${new URL(raw().url).port} failed: `),
    );
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it("idleTimeout with a fetch that ignores the abort signal: TimeoutError idle all the same, and the socket closed", async () => {
    const { run, reply } = await started({ fetch: deafFetch, idleTimeout: 50 });
    chunked(reply, 200, SSE).chunk(chunkEvent("A"));
    const { error, tokens } = await within(run);
    expect(tokens).toEqual(["A"]);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "idle", timeoutMs: 50 });
    await within(reply.closedPromise, undefined, "the socket closing");
  });

  it("the caller's abort with a fetch that ignores the signal: AbortError with its reason, the socket closed", async () => {
    const controller = new AbortController();
    const { stream, reply } = await afterFirst({ fetch: deafFetch, signal: controller.signal });
    const pending = stream.next();
    const reason = new Error("the user pressed stop");
    controller.abort(reason);
    const error = await within(pending.catch((e: unknown) => e));
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
    await within(reply.closedPromise, undefined, "the socket closing");
  });
});

describe("retries", () => {
  const overloaded = `data: ${JSON.stringify({ error: "Model is overloaded", error_type: "overloaded" })}\n\n`;

  it("an error before any chunk is retried: its socket closed first, the second answer streamed", async () => {
    const replies: RawReply[] = [];
    raw().handle((_req, reply) => {
      replies.push(reply);
      const body = chunked(reply, 200, SSE);
      if (replies.length === 1) return void body.chunk(overloaded); // and the socket stays open
      body.chunk(chunkEvent("A", "stop") + "data: [DONE]\n\n");
      body.end();
    });
    const retries: RetryEvent[] = [];
    const run = await within(
      consume(
        clientOn(raw(), { maxRetries: 1, onRetry: (e) => void retries.push(e) }).chatCompletionStream({
          messages: QUESTION,
        }),
      ),
    );
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["A"]);
    expect(retries).toMatchObject([{ attempt: 2, status: 429 }]);
    expect(raw().requests).toHaveLength(2);
    await within(replies[0]!.closedPromise, undefined, "the first socket closing");
  });

  it("the same error after a chunk is the caller's, never retried", async () => {
    const { run, reply } = await started({ maxRetries: 2 });
    chunked(reply, 200, SSE).chunk(chunkEvent("A") + overloaded);
    const { error, tokens } = await within(run);
    expect(tokens).toEqual(["A"]);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(raw().requests).toHaveLength(1);
  });
});

describe("time", () => {
  it("a bare JSON answer's first byte meets firstChunkTimeout: the rest may come after it", async () => {
    const { fetch, taken } = pieceByPieceFetch();
    const rest = gate();
    const text = answerJson("Paris");
    raw().handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(text.slice(0, 20));
      await rest.opened;
      body.chunk(text.slice(20));
      body.end();
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const run = consume(
      clientOn(raw(), { fetch, firstChunkTimeout: 1000, idleTimeout: Infinity }).chatCompletionStream({
        messages: QUESTION,
      }),
    );
    await taken(1);
    vi.advanceTimersByTime(5000);
    rest.open();
    const { error, tokens } = await within(run);
    expect(error).toBeUndefined();
    expect(tokens).toEqual(["Paris"]);
  });

  it("blanks inside a bare JSON answer are not data: trickled, they do not keep a stalled stream alive (stall)", async () => {
    const { fetch, taken } = pieceByPieceFetch();
    const blanks: Array<() => void> = [];
    raw().handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(`{"id":"a1","choices":`);
      for (let i = 0; i < 10; i++) {
        await new Promise<void>((resolve) => blanks.push(resolve));
        body.chunk(" ");
      }
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const c = clientOn(raw(), { fetch, stallTimeout: 1000, idleTimeout: Infinity, firstChunkTimeout: Infinity });
    let settled = false;
    const run = consume(c.chatCompletionStream({ messages: QUESTION })).finally(() => void (settled = true));
    await taken(1);
    // a blank every 300 ms: nothing but blanks for longer than stallTimeout
    for (let i = 0; i < 10 && !settled; i++) {
      await vi.advanceTimersByTimeAsync(300);
      if (settled) break;
      while (blanks.length === 0) await new Promise((resolve) => setImmediate(resolve));
      blanks.shift()!();
      await Promise.race([taken(i + 2), run]);
    }
    expect(settled, "the stream ended").toBe(true);
    const { error } = await run;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "stall", timeoutMs: 1000 });
  });

  it("the grace after the finish is not cut by idleTimeout: the server's silence then is no error, and the socket is closed", async () => {
    const { run, reply } = await started({ idleTimeout: 50 });
    chunked(reply, 200, SSE).chunk(chunkEvent("A", "stop"));
    const { error, tokens } = await within(run);
    expect(error).toBeUndefined();
    expect(tokens).toEqual(["A"]);
    await within(reply.closedPromise, undefined, "the socket closing");
  });

  it("a usage chunk in the same piece as the finish is yielded: the grace keeps reading", async () => {
    const usage = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`;
    const { run, reply } = await started();
    chunked(reply, 200, SSE).chunk(chunkEvent("A", "stop") + usage);
    const { error, chunks } = await within(run);
    expect(error).toBeUndefined();
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(2);
  });

  it("with include_usage, the usage chunk ends the stream at once: no grace timer fires, the socket is closed", async () => {
    const timeline = new Timeline();
    recordTimers(timeline);
    const usage = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`;
    const held = holdNextRequest(raw());
    const run = consume(
      clientOn(raw()).chatCompletionStream({ messages: QUESTION, stream_options: { include_usage: true } }),
    );
    const reply = await held;
    chunked(reply, 200, SSE).chunk(chunkEvent("A", "stop") + usage);
    const { error, chunks } = await within(run);
    expect(error).toBeUndefined();
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(2);
    await within(reply.closedPromise, undefined, "the socket closing");
    expect(timeline.firedBySdk()).toEqual([]);
  });
});

describe("the 32 MB bound is per event", () => {
  it("40 events of 1 MB each (40 MB in all) stream whole: the count starts again at each event", async () => {
    raw().handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      for (let i = 0; i < 40 && !reply.closed; i++) if (!body.chunk(chunkEvent("x".repeat(MB)))) await reply.drained();
      body.chunk(chunkEvent("", "stop"));
      body.end();
    });
    const run = await within(
      consume(clientOn(raw()).chatCompletionStream({ messages: QUESTION })),
      60_000,
      "40 MB of events",
    );
    expect(run.error).toBeUndefined();
    expect(run.tokens).toHaveLength(40);
  });

  it("one event past 32 MB: the error says so; what is kept of it is its start", async () => {
    raw().handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(`data: {"pad":"`);
      const piece = "y".repeat(MB);
      for (let i = 0; i < 40 && !reply.closed; i++) if (!body.chunk(piece)) await reply.drained();
      if (!reply.closed) body.end();
    });
    const run = await within(
      consume(clientOn(raw()).chatCompletionStream({ messages: QUESTION })),
      60_000,
      "the endless event",
    );
    expect(run.error).toBeInstanceOf(MalformedEventError);
    expect((run.error as Error).message).toBe("An event of the stream is larger than 32 MB; reading stopped there");
    const { data } = run.error as MalformedEventError;
    expect(data).toMatch(/^y+$/);
    expect(data.length).toBeLessThanOrEqual(64 * 1024);
  });
});
