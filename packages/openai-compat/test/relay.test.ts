/**
 * The proxy relays the events it reads in one tick as one write: over real HTTP on loopback, every event
 * still arrives whole, once and in order, the stream's end is flushed with the last events, and an error
 * after tokens still follows them.
 */
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startProxy } from "../src/index";
import { messages, within } from "./helpers";
import { chunk, chunkedHead, LAST_CHUNK, rawUpstream } from "./raw-http";

const token = (content: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: "", object: "chat.completion.chunk", created: 1, model: "tgi", system_fingerprint: "3.2.0-native", choices: [{ index: 0, delta: { role: "assistant", content }, logprobs: null, finish_reason: finish }], usage: null })}\n\n`;
const words = (n: number): string[] => Array.from({ length: n }, (_, i) => ` w${i}`);
const DONE = "data: [DONE]\n\n";
const OVERLOADED = 'data: {"error":"Model is overloaded","error_type":"overloaded"}\n\n';
const SSE_HEAD = chunkedHead(200, "text/event-stream");
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A proxy in front of an upstream that answers every chat with `script`. */
async function proxyFor(script: (socket: Socket) => Promise<void> | void): Promise<number> {
  const up = await rawUpstream(({ socket }) => script(socket));
  const proxy = await startProxy({ target: up.url, maxRetries: 0 });
  cleanup.push(
    () => up.close(),
    () => proxy.close(),
  );
  return Number(new URL(proxy.url).port);
}

/** The chunks of a chunked body, as sent; undefined until its last chunk arrived. */
function chunksOf(raw: Buffer): string[] | undefined {
  const parts: string[] = [];
  for (let at = 0; ;) {
    const eol = raw.indexOf("\r\n", at);
    if (eol < 0) return undefined;
    const size = parseInt(raw.subarray(at, eol).toString("latin1"), 16);
    if (size === 0) return parts;
    if (raw.length < eol + 2 + size + 2) return undefined;
    parts.push(raw.subarray(eol + 2, eol + 2 + size).toString("utf8"));
    at = eol + 2 + size + 2;
  }
}

/** A streamed chat over a raw socket: the HTTP chunks of the answer's body, once it ended. */
async function streamedChunks(port: number): Promise<string[]> {
  const socket = connect(port, "127.0.0.1");
  cleanup.push(() => socket.destroy());
  await once(socket, "connect");
  const body = JSON.stringify({ model: "tgi", messages, stream: true });
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
  );
  let raw = Buffer.alloc(0);
  return within(
    new Promise<string[]>((resolve) => {
      socket.on("data", (c: Buffer) => {
        raw = Buffer.concat([raw, c]);
        const head = raw.indexOf("\r\n\r\n");
        const chunks = head < 0 ? undefined : chunksOf(raw.subarray(head + 4));
        if (chunks) resolve(chunks);
      });
    }),
    10_000,
  );
}

/** Each event's `data`, parsed (`[DONE]` as is); throws if the body is not whole `data: …` events. */
function eventsOf(chunks: string[]): unknown[] {
  const text = chunks.join("");
  expect(text.endsWith("\n\n")).toBe(true);
  return text
    .slice(0, -2)
    .split("\n\n")
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      const data = event.slice("data: ".length);
      return data === "[DONE]" ? data : JSON.parse(data);
    });
}

const contentOf = (event: unknown): unknown =>
  (event as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;

describe("the proxy's relay", { timeout: 20_000 }, () => {
  it("sends the events read in one tick as one write: each event whole, once and in order", async () => {
    const sent = words(200);
    const port = await proxyFor(
      (socket) =>
        void socket.write(SSE_HEAD + chunk(sent.map((w) => token(w)).join("") + token("", "stop") + DONE) + LAST_CHUNK),
    );
    const chunks = await streamedChunks(port);
    const events = eventsOf(chunks);
    expect(events.slice(0, -2).map(contentOf)).toEqual(sent);
    expect(events.at(-2)).toMatchObject({ choices: [{ finish_reason: "stop" }] });
    expect(events.at(-1)).toBe("[DONE]");
    // 202 events, read from one upstream write: far fewer writes to the client.
    expect(chunks.length).toBeLessThan(20);
  });

  it("also as one write when each event came in an HTTP chunk of its own, all in one upstream write", async () => {
    const sent = words(200);
    const events = sent.map((w) => chunk(token(w))).join("") + chunk(token("", "stop")) + chunk(DONE);
    const port = await proxyFor((socket) => void socket.write(SSE_HEAD + events + LAST_CHUNK));
    const chunks = await streamedChunks(port);
    expect(eventsOf(chunks).slice(0, -2).map(contentOf)).toEqual(sent);
    expect(chunks.length).toBeLessThan(20);
  });

  it("keeps events apart and in order when the upstream cuts them anywhere, across ticks", async () => {
    const sent = words(60);
    const text = sent.map((w) => token(w)).join("") + token("", "stop") + DONE;
    const port = await proxyFor(async (socket) => {
      socket.write(SSE_HEAD);
      // Pieces of 1 to 400 bytes, cut inside events and inside `data:`, some in the same tick, some 5 ms apart.
      for (let at = 0, i = 0; at < text.length; i++) {
        const size = 1 + ((i * 97) % 400);
        socket.write(chunk(text.slice(at, at + size)));
        at += size;
        if (i % 3 === 0) await sleep(5);
      }
      // The socket stays open: the proxy ends the answer on [DONE].
    });
    const events = eventsOf(await streamedChunks(port));
    expect(events.slice(0, -2).map(contentOf)).toEqual(sent);
    expect(events.at(-1)).toBe("[DONE]");
  });

  it("flushes the end with the last events: the events of the final read and [DONE], then the body's end", async () => {
    const port = await proxyFor(async (socket) => {
      socket.write(SSE_HEAD + chunk(token(" first")));
      await sleep(20);
      // The last events, [DONE] and nothing after it (the socket stays open).
      socket.write(chunk(token(" second") + token(" third") + token("", "stop") + DONE));
    });
    const events = eventsOf(await streamedChunks(port));
    expect(events.map(contentOf)).toEqual([" first", " second", " third", "", undefined]);
    expect(events.at(-1)).toBe("[DONE]");
  });

  it("sends an error after tokens read in the same tick after those tokens, then ends the body", async () => {
    const sent = words(50);
    const port = await proxyFor(
      (socket) => void socket.write(SSE_HEAD + chunk(sent.map((w) => token(w)).join("") + OVERLOADED) + LAST_CHUNK),
    );
    const events = eventsOf(await streamedChunks(port));
    expect(events.slice(0, -1).map(contentOf)).toEqual(sent);
    expect(events.at(-1)).toEqual({
      error: expect.objectContaining({
        message: expect.stringContaining("Model is overloaded"),
        type: "rate_limit_error",
      }),
    });
  });
});
