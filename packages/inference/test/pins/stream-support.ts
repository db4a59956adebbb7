/**
 * What the pins share: one raw loopback server per file, a client pointed at it, the wire texts of chat
 * events and answers, and a fetch that tells the server when the client has taken each piece of a body
 * (so a test decides where the body is cut, not the TCP stack).
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { InferenceClient, type FetchLike, type Options } from "../../src/index";
import { type RawReply, type RawServer, startRawServer } from "../faults/raw-server";

export const SECRET = "hf_PinsSecretToken1234567890abcdef";
export const QUESTION = [{ role: "user", content: "hi" }];
export const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];
export const DONE = { done: true, value: undefined };

/** Starts a raw server for the file; `raw()` is it. Requests are forgotten after each test. */
export function useRawServer(): () => RawServer {
  let raw: RawServer | undefined;
  beforeAll(async () => void (raw = await startRawServer()));
  afterAll(() => raw?.close());
  afterEach(() => {
    if (raw) raw.requests.length = raw.written.length = 0;
  });
  return () => {
    if (!raw) throw new Error("the raw server is not started");
    return raw;
  };
}

/** A chat client on `raw` as an OpenAI-protocol endpoint (no detection), with no retries unless asked. */
export const clientOn = (raw: RawServer, options: Options = {}): InferenceClient =>
  new InferenceClient(SECRET, {
    endpointUrl: raw.url,
    backend: "openai",
    maxRetries: 0,
    logger: { warn: () => {} },
    ...options,
  });

/** One chat chunk as an event. */
export const chunkEvent = (content: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }] })}\n\n`;

/** A whole chat answer, as JSON text. */
export const answerJson = (content: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    id: "a1",
    object: "chat.completion",
    created: 7,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    ...extra,
  });

/** A promise the test resolves when it says so. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Resolves with the reply of the next request the server gets, left unanswered for the test to write. */
export function holdNextRequest(raw: RawServer): Promise<RawReply> {
  return new Promise((resolve) => raw.handle((_req, reply) => resolve(reply)));
}

/**
 * The global fetch, with each response body passed through piece by piece; `taken(n)` resolves once the
 * client has taken `n` pieces. A server that waits for it before writing more cuts the body where it wrote.
 */
export function pieceByPieceFetch(): { fetch: FetchLike; taken: (n: number) => Promise<void> } {
  let count = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const fetchPieces: FetchLike = async (input, init) => {
    const res = await fetch(input, init);
    if (!res.body) return res;
    const seen = new TransformStream<Uint8Array, Uint8Array>({
      transform(piece, controller) {
        controller.enqueue(piece);
        count++;
        for (const w of waiters.filter((x) => x.n <= count)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      },
    });
    return new Response(res.body.pipeThrough(seen), { status: res.status, headers: res.headers });
  };
  const taken = (n: number): Promise<void> =>
    count >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }));
  return { fetch: fetchPieces, taken };
}
