import { afterEach, describe, expect, it, vi } from "vitest";
import { createMockHub, type MockHubCore } from "../src/index.js";
import {
  QUESTION,
  TIMEOUT,
  contentOf,
  dataPayloads,
  jsonEvents,
  readOrTimeout,
  readUntil,
  streamChat,
  useHub,
  waitFor,
} from "./helpers.js";

const hub = useHub();
const MODEL = "hfkit/tgi-3.2";
const countEvents = (text: string) => text.split("\n\n").length - 1;

describe("stream faults seen from the client", () => {
  it("linger: after [DONE] the body stays open until the client cancels; openStreams() returns to 0", async () => {
    hub().inject({ type: "linger" });
    const reader = (await streamChat(hub(), MODEL)).body!.getReader();
    const text = await readUntil(reader, (sofar) => sofar.endsWith("data: [DONE]\n\n"));
    expect(contentOf(text)).toBe("The capital of France is Paris.");
    expect(await readOrTimeout(reader, 150)).toBe(TIMEOUT);
    expect(hub().openStreams()).toBe(1);
    await reader.cancel();
    await waitFor(() => hub().openStreams() === 0);
  });

  it("linger on a 2.1 stream (no [DONE]): a client waiting for [DONE] would hang", async () => {
    hub().inject({ type: "linger" }, { model: "hfkit/tgi-2.1" });
    const reader = (await streamChat(hub(), "hfkit/tgi-2.1")).body!.getReader();
    const text = await readUntil(reader, (sofar) => sofar.includes('"finish_reason":"stop"'));
    expect(text).not.toContain("[DONE]");
    expect(await readOrTimeout(reader, 150)).toBe(TIMEOUT);
    await reader.cancel();
    await waitFor(() => hub().openStreams() === 0);
  });

  it("stall: after N chunks nothing more comes, the socket stays open", async () => {
    hub().inject({ type: "stall", afterChunks: 2 });
    const reader = (await streamChat(hub(), MODEL)).body!.getReader();
    const text = await readUntil(reader, (sofar) => countEvents(sofar) >= 2);
    expect(await readOrTimeout(reader, 150)).toBe(TIMEOUT);
    expect(jsonEvents(text).map((event) => event.choices[0].delta.content)).toEqual(["The", " capital"]);
    await reader.cancel();
    await waitFor(() => hub().openStreams() === 0);
  });

  it.each([1, 3, 5])(
    "drop after %i chunks: exactly that many events arrive, flushed, then the socket is destroyed mid-body",
    async (afterChunks) => {
      hub().inject({ type: "drop", afterChunks });
      const response = await streamChat(hub(), MODEL);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const failure = await (async () => {
        for (;;) {
          const read = await reader.read();
          if (read.done) return undefined;
          text += decoder.decode(read.value, { stream: true });
        }
      })().catch((error: unknown) => error as Error);
      expect(failure?.message).toBe("terminated");
      expect(jsonEvents(text).map((event) => event.choices[0].delta.content)).toEqual(
        ["The", " capital", " of", " France", " is"].slice(0, afterChunks),
      );
      expect(text.endsWith("\n\n")).toBe(true);
      expect(text).not.toContain('finish_reason":"');
      await waitFor(() => hub().openStreams() === 0);
    },
  );

  it("truncate: the body ends cleanly after N chunks, without a finish_reason", async () => {
    hub().inject({ type: "truncate", afterChunks: 3 });
    const text = await (await streamChat(hub(), MODEL)).text();
    expect(countEvents(text)).toBe(3);
    expect(jsonEvents(text).every((event) => event.choices[0].finish_reason === null)).toBe(true);
  });

  it("malformed: one event after N chunks is not JSON, the rest follows", async () => {
    hub().inject({ type: "malformed", afterChunks: 1 });
    const payloads = dataPayloads(await (await streamChat(hub(), MODEL)).text());
    expect(() => JSON.parse(payloads[1] ?? "")).toThrow();
    expect(payloads.filter((payload) => payload !== "[DONE]")).toHaveLength(8);
    expect(payloads.at(-1)).toBe("[DONE]");
  });

  it("keepAlive: `:` comments keep a stalled stream talking", async () => {
    hub().inject({ type: "stall", afterChunks: 1 });
    hub().inject({ type: "keepAlive", intervalMs: 20 });
    const reader = (await streamChat(hub(), MODEL)).body!.getReader();
    const text = await readUntil(reader, (sofar) => sofar.split(":\n\n").length > 3);
    expect(text.startsWith("data: {")).toBe(true);
    expect(text.endsWith(":\n\n")).toBe(true);
    await reader.cancel();
  });

  it("overloadedInStream: 200, then TGI's overload error as the first event", async () => {
    hub().inject({ type: "overloadedInStream" }, { model: "hfkit/tgi-2.0" });
    expect(await (await streamChat(hub(), "hfkit/tgi-2.0")).text()).toBe(
      'data:{"error":"Model is overloaded","error_type":"overloaded"}\n\n',
    );
    hub().inject({ type: "overloadedInStream" }, { model: MODEL });
    expect(await (await streamChat(hub(), MODEL)).text()).toBe(
      'data: {"error":{"message":"Model is overloaded","http_status_code":429}}\n\ndata: [DONE]\n\n',
    );
  });
});

describe("delays, on the hub's own clock (the core with fake timers)", () => {
  afterEach(() => void vi.useRealTimers());
  const streamOn = (core: MockHubCore, extra: Record<string, unknown> = {}) =>
    core.handle(
      new Request(`http://hub.test/models/${MODEL}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messages: QUESTION, stream: true, ...extra }),
      }),
    );
  /** A promise and whether it has settled yet. */
  const watched = <T>(promise: Promise<T>) => {
    const state = { settled: false, promise };
    void promise.then(() => (state.settled = true));
    return state;
  };

  it("slow: each event after the first waits `delayMs`, not a millisecond less", async () => {
    vi.useFakeTimers();
    const core = createMockHub();
    core.inject({ type: "slow", delayMs: 40 });
    const reader = (await streamOn(core, { max_tokens: 4 })).body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    while (countEvents(text) < 5) {
      const read = watched(reader.read());
      await vi.advanceTimersByTimeAsync(39);
      expect(read.settled, `event ${countEvents(text) + 1} before its delay`).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      text += decoder.decode((await read.promise).value);
    }
    expect(countEvents(text)).toBe(5);
    expect((await reader.read()).done).toBe(true);
  });

  it("headersDelay: the status line waits `delayMs`", async () => {
    vi.useFakeTimers();
    const core = createMockHub();
    core.inject({ type: "headersDelay", delayMs: 120 });
    const response = watched(streamOn(core));
    await vi.advanceTimersByTimeAsync(119);
    expect(response.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await response.promise).status).toBe(200);
    await (await response.promise).text();
  });
});

describe("wire format faults", () => {
  const plain = async () => new Uint8Array(await (await streamChat(hub(), MODEL)).arrayBuffer());

  it("bodyChunking: the same bytes cut into small writes, inside UTF-8 sequences too", async () => {
    hub().setModel(MODEL, { text: "Café déjà vu — ok" });
    const expected = await plain();
    hub().inject({ type: "bodyChunking", bytes: 5, delayMs: 1 }, { times: 1 });
    const reader = (await streamChat(hub(), MODEL)).body!.getReader();
    const pieces: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(read.value);
    expect(Buffer.concat(pieces).equals(Buffer.from(expected))).toBe(true);
    expect(pieces.length).toBeGreaterThan(countEvents(new TextDecoder().decode(expected)));
    expect(contentOf(new TextDecoder().decode(expected))).toBe("Café déjà vu — ok");
  });

  it.each([
    ["\r\n", "data: [DONE]\r\n\r\n"],
    ["\r", "data: [DONE]\r\r"],
  ] as const)("lineEnding %j", async (ending, last) => {
    hub().inject({ type: "lineEnding", ending });
    const text = await (await streamChat(hub(), MODEL)).text();
    expect(text.endsWith(last)).toBe(true);
    expect(text).not.toContain("\n\n");
    expect(text.split(`${ending}${ending}`).filter(Boolean)).toHaveLength(8);
  });

  it("bom: the body starts with a UTF-8 byte order mark", async () => {
    hub().inject({ type: "bom" });
    const bytes = new Uint8Array(await (await streamChat(hub(), MODEL)).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(3)).startsWith("data: {")).toBe(true);
  });
});

describe("the Node server", () => {
  it("close() ends a lingering stream and frees the client", async () => {
    hub().inject({ type: "linger" });
    const reader = (await streamChat(hub(), MODEL)).body!.getReader();
    await readUntil(reader, (sofar) => sofar.endsWith("data: [DONE]\n\n"));
    await hub().close();
    await expect(readUntil(reader, () => false)).rejects.toThrow();
    expect(hub().openStreams()).toBe(0);
  });

  it("a client that aborts mid-stream cancels the body and its timers", async () => {
    hub().inject({ type: "slow", delayMs: 50 });
    const controller = new AbortController();
    const response = await fetch(`${hub().url}/models/${MODEL}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    expect(hub().openStreams()).toBe(1);
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    await waitFor(() => hub().openStreams() === 0);
  });
});
