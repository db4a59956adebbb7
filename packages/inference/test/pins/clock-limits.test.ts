/**
 * The call's four clocks as a caller meets them, over real HTTP on loopback with the SDK's timers and `Date`
 * on a fake clock: each limit fires at its value to the millisecond (not before, not later), `Infinity` turns
 * off only the limit it is given for, durations longer than a timer holds are held, and the caller's signal
 * ends the call with its reason and leaves no listener behind.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, type ChatCompletionStreamOutput, type Options, TimeoutError } from "../../src/index";
import { MAX_TIMER_MS } from "../../src/core/call";
import { chunked, type RawReply, whole } from "../faults/raw-server";
import {
  answerJson,
  chunkEvent,
  clientOn,
  DONE,
  holdNextRequest,
  pieceByPieceFetch,
  QUESTION,
  SSE,
  useRawServer,
} from "./stream-support";

const raw = useRawServer();
afterEach(() => void vi.useRealTimers());

const fakeClock = (): void => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

type Stream = AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown>;

/** A `next()` that records whether it has settled, and how. */
function pending(stream: Stream) {
  const state = { settled: false, error: undefined as unknown };
  const result = stream.next().then(
    (r) => ((state.settled = true), r),
    (e: unknown) => {
      state.settled = true;
      state.error = e;
    },
  );
  return { state, result };
}

/** A stream on the fake clock whose first chunk, A, has been taken at time 0; the server keeps the socket open and writes what the test says. */
async function afterFirst(options: Options) {
  const held = holdNextRequest(raw());
  const stream = clientOn(raw(), options).chatCompletionStream({ messages: QUESTION });
  const first = stream.next();
  const reply = await held;
  const body = chunked(reply, 200, SSE);
  body.chunk(chunkEvent("A"));
  expect((await first).value?.choices[0]?.delta?.content).toBe("A");
  return { stream, reply, body };
}

/** Moves the fake clock to `ms` after its start. */
let clockAt = 0;
async function advanceTo(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms - clockAt);
  clockAt = ms;
}

/** Expects a pending read to be unsettled just before `ms` and failed with `kind` at `ms`. */
async function firesAt(
  next: ReturnType<typeof pending>,
  ms: number,
  kind: string,
  limit: number,
): Promise<TimeoutError> {
  await advanceTo(ms - 1);
  expect(next.state.settled, `settled before ${ms} ms`).toBe(false);
  await advanceTo(ms);
  await next.result;
  expect(next.state.error).toBeInstanceOf(TimeoutError);
  expect(next.state.error).toMatchObject({ kind, timeoutMs: limit });
  return next.state.error as TimeoutError;
}

describe("idle and stall are separate watchdogs", () => {
  afterEach(() => void (clockAt = 0));

  it("idleTimeout: Infinity leaves stall on: silence after A → TimeoutError stall at 1000 ms, the socket closed", async () => {
    fakeClock();
    const { stream, reply } = await afterFirst({ idleTimeout: Infinity, stallTimeout: 1000 });
    const error = await firesAt(pending(stream), 1000, "stall", 1000);
    expect(error.message).toBe("The server sent no data for longer than stallTimeout (1000 ms), only keep-alives");
    await reply.closedPromise;
  });

  it("stallTimeout: Infinity leaves idle on: silence after A → TimeoutError idle at 1000 ms, the socket closed", async () => {
    fakeClock();
    const { stream, reply } = await afterFirst({ idleTimeout: 1000, stallTimeout: Infinity });
    const error = await firesAt(pending(stream), 1000, "idle", 1000);
    expect(error.message).toBe("The server sent nothing for longer than idleTimeout (1000 ms)");
    await reply.closedPromise;
  });

  it("both finite, silence after A → idle at idleTimeout (400 ms), stall (1000 ms) not waited for", async () => {
    fakeClock();
    const { stream } = await afterFirst({ idleTimeout: 400, stallTimeout: 1000 });
    await firesAt(pending(stream), 400, "idle", 400);
  });

  it("idle counts from when the client began waiting: A taken at 0, next() at 600 → idle at 1600, not at 1000 or 2000", async () => {
    fakeClock();
    const { stream } = await afterFirst({ idleTimeout: 1000 });
    await advanceTo(600);
    await firesAt(pending(stream), 1600, "idle", 1000);
  });

  it("stall counts from the last data however keep-alives reset idle: comments at 250, 500, 750 → stall at 1000", async () => {
    fakeClock();
    const { fetch, taken } = pieceByPieceFetch();
    const { stream, body } = await afterFirst({ fetch, idleTimeout: 400, stallTimeout: 1000 });
    const next = pending(stream);
    for (const [at, n] of [
      [250, 2],
      [500, 3],
      [750, 4],
    ] as const) {
      await advanceTo(at);
      body.chunk(": keep-alive\n\n");
      await taken(n);
    }
    await firesAt(next, 1000, "stall", 1000);
  });

  it("keep-alives alone: idle 400 ms is kept alive by a comment every 300 ms, until stall (900 ms)", async () => {
    fakeClock();
    const { fetch, taken } = pieceByPieceFetch();
    const { stream, body } = await afterFirst({ fetch, idleTimeout: 400, stallTimeout: 900 });
    const next = pending(stream);
    for (const [at, n] of [
      [300, 2],
      [600, 3],
    ] as const) {
      await advanceTo(at);
      body.chunk(": keep-alive\n\n");
      await taken(n);
    }
    await firesAt(next, 900, "stall", 900);
  });

  it("data resets stall: a chunk at 800 moves stall (1000) to 1800", async () => {
    fakeClock();
    const { fetch, taken } = pieceByPieceFetch();
    const { stream, body } = await afterFirst({ fetch, idleTimeout: Infinity, stallTimeout: 1000 });
    await advanceTo(800);
    const second = stream.next();
    body.chunk(chunkEvent("B"));
    await taken(2);
    expect((await second).value?.choices[0]?.delta?.content).toBe("B");
    await firesAt(pending(stream), 1800, "stall", 1000);
  });
});

describe("the deadline and the first-chunk limit", () => {
  afterEach(() => void (clockAt = 0));

  it("timeout 1000 while the server holds the head → TimeoutError deadline at 1000 ms, its message, the socket closed", async () => {
    fakeClock();
    const held = holdNextRequest(raw());
    const stream = clientOn(raw(), { timeout: 1000 }).chatCompletionStream({ messages: QUESTION });
    const next = pending(stream);
    const reply = await held;
    const error = await firesAt(next, 1000, "deadline", 1000);
    expect(error.message).toBe("The call did not complete within its timeout of 1000 ms");
    await reply.closedPromise;
  });

  it("timeout runs through the body too: A at 0, silence → deadline at 1000 ms (idle and stall far off)", async () => {
    fakeClock();
    const { stream } = await afterFirst({ timeout: 1000 });
    await firesAt(pending(stream), 1000, "deadline", 1000);
  });

  it("firstChunkTimeout 1000 with only comments → TimeoutError first-chunk at 1000 ms, its message", async () => {
    fakeClock();
    const held = holdNextRequest(raw());
    const stream = clientOn(raw(), { firstChunkTimeout: 1000, idleTimeout: Infinity }).chatCompletionStream({
      messages: QUESTION,
    });
    const next = pending(stream);
    const body = chunked(await held, 200, SSE);
    body.chunk(": waiting\n\n");
    const error = await firesAt(next, 1000, "first-chunk", 1000);
    expect(error.message).toBe("No answer arrived within firstChunkTimeout (1000 ms)");
  });

  it("the first chunk meets firstChunkTimeout: 5 s of silence after it is no first-chunk error, and the stream then completes", async () => {
    fakeClock();
    const { stream, body } = await afterFirst({
      firstChunkTimeout: 1000,
      idleTimeout: Infinity,
      stallTimeout: Infinity,
    });
    const next = pending(stream);
    await advanceTo(5000);
    expect(next.state.settled).toBe(false);
    body.chunk(chunkEvent("B", "stop") + "data: [DONE]\n\n");
    expect((await next.result)?.value?.choices[0]?.delta?.content).toBe("B");
    expect(await stream.next()).toEqual(DONE);
  });

  it("timeout and firstChunkTimeout Infinity are no limit: a head held for longer than a timer holds fires nothing; the caller's abort ends it", async () => {
    fakeClock();
    const controller = new AbortController();
    const held = holdNextRequest(raw());
    const options = { timeout: Infinity, firstChunkTimeout: Infinity, signal: controller.signal };
    const next = pending(clientOn(raw(), options).chatCompletionStream({ messages: QUESTION }));
    await held;
    await advanceTo(MAX_TIMER_MS + 1);
    expect(next.state.settled).toBe(false);
    controller.abort();
    await next.result;
    expect(next.state.error).toBeInstanceOf(AbortError);
  });
});

describe("durations longer than a timer holds are held, not fired at once", () => {
  afterEach(() => void (clockAt = 0));

  it.each<[string, Options, string]>([
    ["timeout", { timeout: 3e9, firstChunkTimeout: Infinity }, "deadline"],
    ["firstChunkTimeout", { firstChunkTimeout: 3e9 }, "first-chunk"],
  ])("%s 3e9 → fires at 2^31−1 ms (not at 1 ms), as that limit", async (_name, options, kind) => {
    fakeClock();
    const held = holdNextRequest(raw());
    const next = pending(clientOn(raw(), options).chatCompletionStream({ messages: QUESTION }));
    await held;
    await firesAt(next, MAX_TIMER_MS, kind, MAX_TIMER_MS);
  });

  it.each<[string, Options, string]>([
    ["idleTimeout", { idleTimeout: 3e9, stallTimeout: Infinity }, "idle"],
    ["stallTimeout", { idleTimeout: Infinity, stallTimeout: 3e9 }, "stall"],
  ])("%s 3e9 in the body → fires at 2^31−1 ms (not at 1 ms)", async (_name, options, kind) => {
    fakeClock();
    const { stream } = await afterFirst({ ...options, firstChunkTimeout: Infinity });
    await firesAt(pending(stream), MAX_TIMER_MS, kind, MAX_TIMER_MS);
  });
});

describe("the caller's signal", () => {
  it("aborted while the head is awaited → AbortError with the signal's reason as cause, the socket closed", async () => {
    const controller = new AbortController();
    const held = holdNextRequest(raw());
    const call = clientOn(raw(), { signal: controller.signal })
      .chatCompletion({ messages: QUESTION })
      .catch((e: unknown) => e);
    const reply = await held;
    const reason = new Error("the user left");
    controller.abort(reason);
    const error = await call;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).message).toBe("The call was aborted by its signal");
    expect((error as AbortError).cause).toBe(reason);
    await reply.closedPromise;
  });

  it("already aborted → AbortError with its reason, nothing sent, no listener added", async () => {
    const reason = new Error("too late");
    const signal = AbortSignal.abort(reason);
    const error = await clientOn(raw(), { signal })
      .chatCompletion({ messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
    expect(raw().requests).toHaveLength(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  const listeners = (signal: AbortSignal): number => getEventListeners(signal, "abort").length;

  it.each<[string, (reply: RawReply) => void, Options]>([
    ["an answer", (reply) => whole(reply, 200, "application/json", answerJson("Paris")), {}],
    ["an error answer", (reply) => whole(reply, 400, "application/json", JSON.stringify({ error: "bad" })), {}],
    ["a dropped connection", (reply) => reply.socket.destroy(), {}],
  ])(
    "one signal shared by two calls: one listener each while they run, none once they end in %s",
    async (_name, answer, options) => {
      const signal = new AbortController().signal;
      const replies: RawReply[] = [];
      let both!: () => void;
      const arrived = new Promise<void>((resolve) => (both = resolve));
      raw().handle((_req, reply) => void (replies.push(reply) === 2 && both()));
      const c = clientOn(raw(), { signal, ...options });
      const calls = [c.chatCompletion({ messages: QUESTION }), c.chatCompletion({ messages: QUESTION })].map((p) =>
        p.catch((e: unknown) => e),
      );
      await arrived;
      expect(listeners(signal)).toBe(2);
      for (const reply of replies) answer(reply);
      await Promise.all(calls);
      expect(listeners(signal)).toBe(0);
    },
  );

  it("none once a stream completes, or is left with return(), or times out", async () => {
    const signal = new AbortController().signal;
    raw().handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunkEvent("A", "stop") + "data: [DONE]\n\n");
      body.end();
    });
    for await (const _ of clientOn(raw(), { signal }).chatCompletionStream({ messages: QUESTION }));
    expect(listeners(signal)).toBe(0);

    const { stream } = await afterFirst({ signal });
    expect(listeners(signal)).toBe(1);
    await stream.return(undefined);
    expect(listeners(signal)).toBe(0);

    const timed = await afterFirst({ signal, idleTimeout: 20 });
    await timed.stream.next().catch((e: unknown) => e);
    expect(listeners(signal)).toBe(0);
  });
});

describe("the call's timers end with it", () => {
  afterEach(() => void vi.unstubAllGlobals());

  /** The timers the SDK's source set and has neither cleared nor seen fire. */
  function sdkTimers(): Set<unknown> {
    const live = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    const set = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      // The stack's third line is the direct caller of setTimeout.
      const fromSdk = /[\\/]inference[\\/]src[\\/]/.test(new Error().stack?.split("\n")[2] ?? "");
      const timer = realSet(() => (live.delete(timer), fn(...args)), ms);
      if (fromSdk) live.add(timer);
      return timer;
    };
    vi.stubGlobal("setTimeout", set);
    vi.stubGlobal("clearTimeout", (timer?: ReturnType<typeof setTimeout>) => (live.delete(timer), realClear(timer)));
    return live;
  }

  it.each<[string, (reply: RawReply) => void]>([
    ["answered", (reply) => whole(reply, 200, "application/json", answerJson("Paris"))],
    [
      "refused (404)",
      (reply) => whole(reply, 404, "application/json", JSON.stringify({ error: "Model x does not exist" })),
    ],
  ])("a call %s leaves no timer of the SDK pending (deadline, first chunk, watchdog)", async (_name, answer) => {
    const live = sdkTimers();
    raw().handle((_req, reply) => answer(reply));
    const call = clientOn(raw(), { timeout: 60_000 })
      .chatCompletion({ messages: QUESTION })
      .catch((e: unknown) => e);
    expect(live.size).toBe(2);
    await call;
    expect(live.size).toBe(0);
  });

  it("a stream read to its end leaves none either", async () => {
    const live = sdkTimers();
    raw().handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunkEvent("A", "stop") + "data: [DONE]\n\n");
      body.end();
    });
    for await (const _ of clientOn(raw(), { timeout: 60_000 }).chatCompletionStream({ messages: QUESTION }));
    expect(live.size).toBe(0);
  });
});
