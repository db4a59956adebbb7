/**
 * Shared pieces of the fault-injection suite: loopback mock hub, stream consumption with timing,
 * request counting, and the few fetch wrappers a scenario needs.
 */
import { createServer } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { MockHub, RecordedRequest } from "@hfkit/mock-hub";
import type { ChatCompletionStreamOutput, FetchLike } from "../../src/index";

export const ANSWER = "The capital of France is Paris.";
export const TOKENS = ["The", " capital", " of", " France", " is", " Paris."];
export const QUESTION = [{ role: "user", content: "What is the capital of France?" }];

export const chatPath = (model: string): string => `/models/${model}/v1/chat/completions`;

/** The chat requests the hub saw for `model`. */
export function requestsTo(hub: MockHub, model: string): RecordedRequest[] {
  return hub.requests.filter((r) => r.path === chatPath(model));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `hub.openStreams()` until it is 0 or `ms` pass; answers the last count seen. */
export async function openStreamsAfter(hub: MockHub, ms = 1000): Promise<number> {
  const deadline = Date.now() + ms;
  while (hub.openStreams() > 0 && Date.now() < deadline) await sleep(10);
  return hub.openStreams();
}

export class Hang extends Error {
  override name = "Hang";
}

/** Settles with `promise`, or rejects with a Hang after `ms` (a hang is a failure, not a runner timeout). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Hang(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

/** What a consumer saw of one stream. */
export interface Run {
  chunks: ChatCompletionStreamOutput[];
  /** Non-empty `delta.content` of each chunk, in order. */
  tokens: string[];
  /** The error the iteration threw, undefined when it completed. */
  error: unknown;
  /** From the call to the settlement of the iteration. */
  elapsedMs: number;
}

export const contentOf = (chunk: ChatCompletionStreamOutput): string => chunk.choices[0]?.delta?.content ?? "";

/** A run being recorded: push chunks, then `settle`. */
export function recorder(startedAt = Date.now()) {
  const chunks: ChatCompletionStreamOutput[] = [];
  return {
    chunks,
    push(chunk: ChatCompletionStreamOutput) {
      chunks.push(chunk);
    },
    settle(error: unknown): Run {
      return {
        chunks,
        tokens: chunks.map(contentOf).filter((t) => t !== ""),
        error,
        elapsedMs: Date.now() - startedAt,
      };
    },
  };
}

/** Consumes a whole stream with for-await. */
export async function consume(stream: AsyncIterable<ChatCompletionStreamOutput>, startedAt = Date.now()): Promise<Run> {
  const rec = recorder(startedAt);
  try {
    for await (const chunk of stream) rec.push(chunk);
  } catch (error) {
    return rec.settle(error);
  }
  return rec.settle(undefined);
}

/** A loopback port with nothing listening: bind port 0, read it, close. */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Rejects the way undici's fetch does when a host name does not resolve; never touches a network. */
export const unresolvableHostFetch: FetchLike = async (input) => {
  const hostname = new URL(input).hostname;
  const cause = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
    errno: -3008,
    code: "ENOTFOUND",
    syscall: "getaddrinfo",
    hostname,
  });
  throw new TypeError("fetch failed", { cause });
};

/**
 * Wraps a fetch so that an event-stream body gets `event` right after its first event; the rest of
 * the server's body is read and dropped. Cancelling the result cancels the server's body.
 */
export function withEventAfterFirst(inner: FetchLike, event: string): FetchLike {
  return async (input, init) => {
    const res = await inner(input, init);
    if (!res.body || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) return res;
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let text = "";
    let injected = false;
    const inject = new TransformStream<Uint8Array, Uint8Array>({
      transform(bytes, controller) {
        if (injected) return;
        text += decoder.decode(bytes, { stream: true });
        const end = text.indexOf("\n\n");
        if (end < 0) return;
        injected = true;
        controller.enqueue(encoder.encode(text.slice(0, end + 2) + event));
      },
    });
    return new Response(res.body.pipeThrough(inject), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** `global.gc` when exposed, else one obtained through V8's flag (no runner option needed). */
export function getGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
