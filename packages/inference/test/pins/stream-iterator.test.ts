/**
 * The stream iterator's life, through real HTTP on loopback: nothing is sent before the first `next()`;
 * `return()`, `throw()` and `Symbol.asyncDispose` end the request or the body at once (the server sees its
 * socket close); overlapping `next()` calls are answered in order, a value already read at once; an
 * error ends the stream after the values read before it, and closes the socket the server left open.
 */
import { describe, expect, it } from "vitest";
import { type ChatCompletionStreamOutput, InputError, MalformedEventError } from "../../src/index";
import { chunked } from "../faults/raw-server";
import { turn, within } from "../faults/support";
import { chunkEvent, clientOn, DONE, gate, holdNextRequest, QUESTION, SSE, useRawServer } from "./stream-support";

const raw = useRawServer();

type Stream = AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown>;
const content = (r: IteratorResult<ChatCompletionStreamOutput, undefined>): string | undefined =>
  r.value?.choices[0]?.delta?.content;

/** A stream whose fetch calls are counted: a request never sent is one fetch never called. */
function counted(): { stream: Stream; fetches: string[] } {
  const fetches: string[] = [];
  const stream = clientOn(raw(), {
    fetch: (input, init) => (fetches.push(input), fetch(input, init)),
  }).chatCompletionStream({ messages: QUESTION });
  return { stream, fetches };
}

/** A stream whose server sends `first` and then keeps the socket open, silent; `closed` settles when the socket closes. */
async function heldAfter(first: string): Promise<{ stream: Stream; closed: Promise<void> }> {
  const held = holdNextRequest(raw());
  const stream = clientOn(raw()).chatCompletionStream({ messages: QUESTION });
  const started = stream.next();
  const reply = await held;
  chunked(reply, 200, SSE).chunk(first);
  expect(content(await started)).toBe("A");
  return { stream, closed: reply.closedPromise };
}

const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
const dispose = (stream: Stream): Promise<unknown> =>
  (stream as unknown as Record<symbol, () => Promise<unknown>>)[asyncDispose as symbol]!.call(stream);

describe("before the first next()", () => {
  it("the stream is its own async iterator, and nothing is sent yet", async () => {
    const { stream, fetches } = counted();
    expect(stream[Symbol.asyncIterator]()).toBe(stream);
    await turn();
    expect(fetches).toEqual([]);
  });

  it("return() resolves {done: true} and sends no request, then or later", async () => {
    const { stream, fetches } = counted();
    expect(await stream.return(undefined)).toEqual(DONE);
    expect(await stream.next()).toEqual(DONE);
    expect(await stream.return(undefined)).toEqual(DONE);
    expect(fetches).toEqual([]);
  });

  it("once done, every next() is a promise of done, however many are asked for", async () => {
    const { stream } = counted();
    await stream.return(undefined);
    const answers = [stream.next(), stream.next(), stream.next()];
    for (const answer of answers) expect(answer).toBeInstanceOf(Promise);
    expect(await Promise.all(answers)).toEqual([DONE, DONE, DONE]);
  });

  it("throw(e) rejects with e itself and sends no request", async () => {
    const { stream, fetches } = counted();
    const reason = new Error("the consumer gave up");
    await expect(stream.throw(reason)).rejects.toBe(reason);
    expect(await stream.next()).toEqual(DONE);
    expect(fetches).toEqual([]);
  });

  it("Symbol.asyncDispose resolves undefined and sends no request", async () => {
    const { stream, fetches } = counted();
    expect(await dispose(stream)).toBeUndefined();
    expect(await stream.next()).toEqual(DONE);
    expect(fetches).toEqual([]);
  });

  it("bad input is an InputError from the first next() only; the stream is then done, and nothing was sent", async () => {
    const fetches: string[] = [];
    const c = clientOn(raw(), { fetch: (input, init) => (fetches.push(input), fetch(input, init)) });
    const stream = c.chatCompletionStream({ messages: QUESTION, top_p: 2 });
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("top_p");
    expect(await stream.next()).toEqual(DONE);
    expect(fetches).toEqual([]);
  });
});

describe("while the request waits for its response", () => {
  it("return() aborts it: the pending next() and return() resolve done, the server sees the socket close", async () => {
    const held = holdNextRequest(raw());
    const stream = clientOn(raw()).chatCompletionStream({ messages: QUESTION });
    const pending = stream.next();
    const reply = await held;
    expect(await stream.return(undefined)).toEqual(DONE);
    expect(await within(pending, undefined, "the pending next()")).toEqual(DONE);
    await within(reply.closedPromise, undefined, "the socket closing");
    expect(await stream.next()).toEqual(DONE);
  });

  it("return() aborts the request with an AbortError saying the consumer closed the stream (what a custom fetch is told)", async () => {
    const held = holdNextRequest(raw());
    let signal: AbortSignal | undefined;
    const stream = clientOn(raw(), {
      fetch: (url, init) => {
        signal = init?.signal ?? undefined;
        return fetch(url, init);
      },
    }).chatCompletionStream({ messages: QUESTION });
    const pending = stream.next();
    await held;
    expect(await stream.return(undefined)).toEqual(DONE);
    expect(await within(pending, undefined, "the pending next()")).toEqual(DONE);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toMatchObject({ name: "AbortError", message: "The stream was closed by its consumer" });
  });

  it("throw(e) rejects with e and aborts it: the server sees the socket close", async () => {
    const held = holdNextRequest(raw());
    const stream = clientOn(raw()).chatCompletionStream({ messages: QUESTION });
    const pending = stream.next();
    const reply = await held;
    const reason = new Error("leaving");
    await expect(stream.throw(reason)).rejects.toBe(reason);
    expect(await within(pending, undefined, "the pending next()")).toEqual(DONE);
    await within(reply.closedPromise, undefined, "the socket closing");
  });
});

describe("while the body is open and silent", () => {
  it("throw(e) rejects with e itself, the pending next() is done, the server sees the socket close", async () => {
    const { stream, closed } = await heldAfter(chunkEvent("A"));
    const pending = stream.next();
    const reason = new Error("leaving");
    await expect(stream.throw(reason)).rejects.toBe(reason);
    expect(await within(pending, undefined, "the pending next()")).toEqual(DONE);
    await within(closed, undefined, "the socket closing");
    expect(await stream.next()).toEqual(DONE);
  });

  it("Symbol.asyncDispose (what `await using` calls) resolves undefined and closes the socket", async () => {
    const { stream, closed } = await heldAfter(chunkEvent("A"));
    expect(await dispose(stream)).toBeUndefined();
    await within(closed, undefined, "the socket closing");
    expect(await stream.next()).toEqual(DONE);
  });
});

describe("overlapping next() calls", () => {
  it("three calls made before any byte are answered in order, each by the piece the server sends when the test says", async () => {
    const held = holdNextRequest(raw());
    const stream = clientOn(raw()).chatCompletionStream({ messages: QUESTION });
    const calls = [stream.next(), stream.next(), stream.next()];
    const order: number[] = [];
    calls.forEach((call, i) => void call.then(() => order.push(i)));
    const body = chunked(await held, 200, SSE);
    body.chunk(chunkEvent("A"));
    expect(content(await within(calls[0]!))).toBe("A");
    body.chunk(chunkEvent("B"));
    expect(content(await within(calls[1]!))).toBe("B");
    body.chunk(chunkEvent("C", "stop") + "data: [DONE]\n\n");
    expect(content(await within(calls[2]!))).toBe("C");
    expect(order).toEqual([0, 1, 2]);
    expect(await within(stream.next())).toEqual(DONE);
  });

  it("a value already read is answered without more bytes from the server", async () => {
    const more = gate();
    const held = holdNextRequest(raw());
    const stream = clientOn(raw()).chatCompletionStream({ messages: QUESTION });
    const first = stream.next();
    const body = chunked(await held, 200, SSE);
    body.chunk(chunkEvent("A") + chunkEvent("B"));
    void more.opened.then(() => body.chunk(chunkEvent("C", "stop") + "data: [DONE]\n\n"));
    expect(content(await first)).toBe("A");
    // the server sends nothing more until B is in hand
    expect(content(await within(stream.next(), undefined, "B, already read"))).toBe("B");
    const third = stream.next();
    more.open();
    expect(content(await within(third))).toBe("C");
    expect(await within(stream.next())).toEqual(DONE);
  });

  it("two calls pending on a silent server are both answered by one piece holding two events", async () => {
    const held = holdNextRequest(raw());
    const stream = clientOn(raw()).chatCompletionStream({ messages: QUESTION });
    const first = stream.next();
    const body = chunked(await held, 200, SSE);
    body.chunk(chunkEvent("A"));
    expect(content(await first)).toBe("A");
    const [b, c] = [stream.next(), stream.next()];
    await turn();
    body.chunk(chunkEvent("B") + chunkEvent("C"));
    // nothing more comes: C must be answered from the piece already read
    expect([content(await within(b)), content(await within(c, undefined, "C, already read"))]).toEqual(["B", "C"]);
    await stream.return(undefined);
  });

  it("a next() made as the first is answered, while a second is pending, waits behind the second", async () => {
    const held = holdNextRequest(raw());
    const stream = clientOn(raw()).chatCompletionStream({ messages: QUESTION });
    const first = stream.next();
    const body = chunked(await held, 200, SSE);
    body.chunk(chunkEvent("A"));
    await first;
    const b = stream.next();
    let d: Promise<IteratorResult<ChatCompletionStreamOutput, undefined>> | undefined;
    const madeInTime = b.then(() => void (d = stream.next()));
    const c = stream.next();
    body.chunk(chunkEvent("B") + chunkEvent("C") + chunkEvent("D"));
    await within(madeInTime);
    const answers = await within(Promise.all([b, c, d!]));
    expect(answers.map(content)).toEqual(["B", "C", "D"]);
    await stream.return(undefined);
  });

  it("return() settles every pending next() with done", async () => {
    const { stream, closed } = await heldAfter(chunkEvent("A"));
    const [b, c] = [stream.next(), stream.next()];
    expect(await stream.return(undefined)).toEqual(DONE);
    expect([await within(b), await within(c)]).toEqual([DONE, DONE]);
    await within(closed, undefined, "the socket closing");
  });
});

describe("an error ends the stream", () => {
  it("after the values read before it; next() rejects (never throws), then is done; the socket left open is closed", async () => {
    const { stream, closed } = await heldAfter(chunkEvent("A") + chunkEvent("B") + "data: null\n\n");
    expect(content(await stream.next())).toBe("B");
    let failed: Promise<unknown> | undefined;
    expect(() => void (failed = stream.next().catch((e: unknown) => e))).not.toThrow();
    const error = await within(failed!);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toBe("Unexpected event in the stream: null");
    expect(await stream.next()).toEqual(DONE);
    await within(closed, undefined, "the socket closing");
  });
});
