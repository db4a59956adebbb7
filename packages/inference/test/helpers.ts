import type { FetchLike } from "../src/types";

const encoder = new TextEncoder();

/** A response body the test feeds by hand, recording whether and when the client cancelled it. */
export function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  let onCancel!: () => void;
  const cancelledPromise = new Promise<void>((resolve) => (onCancel = resolve));
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      cancelled = true;
      onCancel();
    },
  });
  return {
    stream,
    push(data: string | Uint8Array) {
      controller.enqueue(typeof data === "string" ? encoder.encode(data) : data);
    },
    end() {
      controller.close();
    },
    fail(error: unknown) {
      controller.error(error);
    },
    get cancelled() {
      return cancelled;
    },
    whenCancelled: cancelledPromise,
  };
}

export interface SeenRequest {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A fetch that answers from `respond` and records every request. */
export function recordingFetch(respond: (req: SeenRequest, n: number) => Response | Promise<Response>) {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req = { url, init, headers, body: JSON.parse(String(init.body)) as Record<string, unknown> };
    seen.push(req);
    init.signal?.throwIfAborted();
    return respond(req, seen.length);
  };
  return { fetch, seen };
}

export function sse(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", ...headers } });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** A TGI-style chunk. */
export function chunk(content: string, finish: string | null = null, extra: Record<string, unknown> = {}) {
  return {
    id: "",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    system_fingerprint: "3.2.0",
    choices: [{ index: 0, delta: { role: "assistant", content }, logprobs: null, finish_reason: finish }],
    usage: null,
    ...extra,
  };
}

export const event = (data: unknown, prefix = "data: "): string =>
  `${prefix}${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

export const messages = [{ role: "user", content: "Hi" }];

export async function collectContent(stream: AsyncIterable<{ choices: Array<{ delta?: { content?: string } }> }>) {
  let text = "";
  for await (const c of stream) text += c.choices[0]?.delta?.content ?? "";
  return text;
}

/** Settles `promise` or fails the test after `ms` (a hang is a failure, not a timeout of the runner). */
export function within<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
    }),
  ]);
}

/** Cuts `bytes` at `cuts` (each taken modulo its length + 1), in order: the pieces of a body read that way. */
export function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    if (p > last) out.push(bytes.slice(last, p));
    last = Math.max(last, p);
  }
  return out;
}

/** `partial` is a part of `full` (a partial JSON value of it): strings are prefixes, arrays and objects hold parts of the full ones. */
export function grows(partial: unknown, full: unknown): boolean {
  if (typeof partial === "string") return typeof full === "string" && full.startsWith(partial);
  if (Array.isArray(partial))
    return Array.isArray(full) && partial.length <= full.length && partial.every((p, i) => grows(p, full[i]));
  if (partial !== null && typeof partial === "object") {
    return (
      full !== null &&
      typeof full === "object" &&
      !Array.isArray(full) &&
      Object.entries(partial).every(
        ([k, p]) => Object.hasOwn(full, k) && grows(p, (full as Record<string, unknown>)[k]),
      )
    );
  }
  return partial === full;
}
