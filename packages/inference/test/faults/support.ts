/**
 * Shared pieces of the fault-injection suite: loopback mock hub, stream consumption, request counting,
 * a timeline of the SDK's and the hub's timers, and the few fetch wrappers a scenario needs.
 */
import { createServer } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { MockHub, RecordedRequest } from "@hfkit/mock-hub";
import { expect, vi } from "vitest";
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

/** How long a test waits for what must happen before calling it a hang: a failure, never a speed. */
export const HANG_MS = 10_000;

/** Polls `hub.openStreams()` until it is 0 or `ms` pass; answers the last count seen. */
export async function openStreamsAfter(hub: MockHub, ms = HANG_MS): Promise<number> {
  const deadline = Date.now() + ms;
  while (hub.openStreams() > 0 && Date.now() < deadline) await sleep(10);
  return hub.openStreams();
}

export class Hang extends Error {
  override name = "Hang";
}

/** Settles with `promise`, or rejects with a Hang after `ms` (a hang is a failure, not a runner timeout). */
export function within<T>(promise: Promise<T>, ms = HANG_MS, what = "the call"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Hang(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

/** Resolves once `condition()` holds (polled), or rejects with a Hang. */
export async function until(condition: () => boolean, what: string, ms = HANG_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Hang(`${what}: not within ${ms} ms`);
    await sleep(5);
  }
}

/** One macrotask turn: what is pending on I/O or timers stays pending, what was queued has run. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * What happened, in order: `sdk set 300`, `sdk fired 300`, `hub set 5000`... for the timers the SDK
 * (its src/ or its build) and the mock hub set, with the marks a test adds (`fetch`, `abort`, `settled`). A wait or a
 * limit is checked by what fired before what, never by a clock.
 */
export class Timeline {
  readonly entries: string[] = [];
  private readonly waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];

  mark(entry: string): void {
    this.entries.push(entry);
    for (const waiter of this.waiters.filter((w) => w.pattern.test(entry))) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  /** Resolves at the first entry that matches, past or future. */
  when(pattern: RegExp): Promise<void> {
    if (this.entries.some((e) => pattern.test(e))) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ pattern, resolve }));
  }

  /** The entries after the first `from`, up to the first `to` after it. */
  between(from: string, to: string): string[] {
    const rest = this.entries.slice(this.entries.indexOf(from) + 1);
    return rest.slice(0, rest.includes(to) ? rest.indexOf(to) : undefined);
  }

  /** The entries after each `mark`, up to the next one. */
  after(mark: string): string[][] {
    const parts: string[][] = [];
    for (const entry of this.entries) {
      if (entry === mark) parts.push([]);
      else parts.at(-1)?.push(entry);
    }
    return parts;
  }

  /** The ms of each SDK timer that fired, in order. */
  firedBySdk(): number[] {
    return this.entries.filter((e) => e.startsWith("sdk fired ")).map((e) => Number(e.slice("sdk fired ".length)));
  }
}

/** Each announced wait was a timer of exactly that delay, set after the try it follows and fired before the next (tries = `mark`s). */
export function expectWaitsKept(timeline: Timeline, delays: number[], mark = "fetch"): void {
  const tries = timeline.after(mark);
  delays.forEach((delay, i) => {
    const set = tries[i]?.indexOf(`sdk set ${delay}`) ?? -1;
    expect(set, `wait ${i + 1} (${delay} ms) began after try ${i + 1}`).toBeGreaterThanOrEqual(0);
    if (tries[i + 1])
      expect(tries[i]?.indexOf(`sdk fired ${delay}`), `wait ${i + 1} ended before try ${i + 2}`).toBeGreaterThan(set);
  });
}

/** Where the code whose timers a timeline records lives, by the name its entries carry. */
const SOURCES: Record<string, RegExp> = { sdk: /[\\/]inference[\\/](src|dist)[\\/]/, hub: /mock-hub/ };

/** Logs the timers the SDK and the hub (and `more` sources) set and fire into `timeline`, until `vi.unstubAllGlobals()`. */
export function recordTimers(timeline: Timeline, more: Record<string, RegExp> = {}): void {
  const sources = Object.entries({ ...SOURCES, ...more });
  const real = globalThis.setTimeout;
  const stub = (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    // The stack's third line is the direct caller of setTimeout.
    const caller = new Error().stack?.split("\n")[2] ?? "";
    const source = sources.find(([, pattern]) => pattern.test(caller))?.[0];
    if (!source) return real(fn, ms, ...args);
    timeline.mark(`${source} set ${ms}`);
    return real(() => {
      timeline.mark(`${source} fired ${ms}`);
      fn(...args);
    }, ms);
  };
  vi.stubGlobal("setTimeout", stub as unknown as typeof setTimeout);
}

/** What a consumer saw of one stream. */
export interface Run {
  chunks: ChatCompletionStreamOutput[];
  /** Non-empty `delta.content` of each chunk, in order. */
  tokens: string[];
  /** The error the iteration threw, undefined when it completed. */
  error: unknown;
}

export const contentOf = (chunk: ChatCompletionStreamOutput): string => chunk.choices[0]?.delta?.content ?? "";

/** A run being recorded: push chunks, then `settle`. */
export function recorder() {
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
      };
    },
  };
}

/** Consumes a whole stream with for-await. */
export async function consume(stream: AsyncIterable<ChatCompletionStreamOutput>): Promise<Run> {
  const rec = recorder();
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
    return new Response(res.body.pipeThrough(inject), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/** `global.gc` when exposed, else one obtained through V8's flag (no runner option needed). */
export function getGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
