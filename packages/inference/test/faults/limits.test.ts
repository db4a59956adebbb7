/**
 * The limits whose point is time itself (idle, keep-alives, a wait longer than idleTimeout, a slow
 * consumer), on a fake clock with bodies the test feeds: the SDK's timers and `Date` move only when the
 * test advances them, so a loaded machine (a process that stalls longer than a limit) changes nothing.
 * Over loopback, a stall longer than idleTimeout is a real silence to the SDK; here silence is scripted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { chatCompletionStream, type ChatCompletionStreamOutput, type Options, type RetryEvent } from "../../src/index";
import { chunk, controlledBody, event, json, messages, recordingFetch, sse } from "../helpers";
import { consume } from "./support";

const endpointUrl = "http://tgi.test";
const WORDS = ["The", " capital", " of", " France", " is", " Paris."];
const answerEvent = (i: number): string => event(chunk(WORDS[i] ?? "", i === WORDS.length - 1 ? "stop" : null));
const DONE = "data: [DONE]\n\n";

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A stream whose body the test feeds; `seen` counts the requests. */
function fed(options: Options = {}, respond?: (n: number) => Response | Promise<Response>) {
  const body = controlledBody();
  const { fetch, seen } = recordingFetch((_req, n) => respond?.(n) ?? sse(body.stream));
  const stream = chatCompletionStream({ messages }, { endpointUrl, fetch, ...options });
  return { body, seen, stream };
}

/** A pending `next()` that records whether it settled. */
function pending(stream: AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown>) {
  const state: { settled: boolean; result: Promise<IteratorResult<ChatCompletionStreamOutput, undefined>> } = {
    settled: false,
    result: stream.next(),
  };
  state.result.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

describe("idle: silence between bytes, keep-alives included", () => {
  it("keep-alive comments every 200 ms outlive idleTimeout 250 ms through 800 ms without data; the answer completes", async () => {
    const { body, stream } = fed({ idleTimeout: 250 });
    body.push(answerEvent(0));
    expect((await stream.next()).value?.choices[0]?.delta.content).toBe("The");
    const next = pending(stream);
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(200);
      body.push(": keep-alive\n\n");
    }
    await vi.advanceTimersByTimeAsync(200);
    expect(next.settled).toBe(false);
    for (let i = 1; i < WORDS.length; i++) body.push(answerEvent(i));
    body.push(DONE);
    expect((await next.result).value?.choices[0]?.delta.content).toBe(" capital");
    const rest = await consume(stream);
    expect(rest.error).toBeUndefined();
    expect(rest.tokens).toEqual(WORDS.slice(2));
  });

  it("the same silence without keep-alives → TimeoutError idle at 250 ms, not before (control)", async () => {
    const { body, stream } = fed({ idleTimeout: 250 });
    body.push(answerEvent(0));
    await stream.next();
    const next = pending(stream);
    await vi.advanceTimersByTimeAsync(249);
    expect(next.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(next.result).rejects.toMatchObject({ name: "TimeoutError", kind: "idle", timeoutMs: 250 });
    expect(body.cancelled).toBe(true);
  });

  it("headers after 600 ms with idleTimeout 200 ms → answers (idle does not run before the body)", async () => {
    const body = controlledBody();
    for (let i = 0; i < WORDS.length; i++) body.push(answerEvent(i));
    body.push(DONE);
    const headers = (): Promise<Response> => new Promise((resolve) => setTimeout(() => resolve(sse(body.stream)), 600));
    const { stream, seen } = fed({ idleTimeout: 200 }, headers);
    const run = consume(stream);
    await vi.advanceTimersByTimeAsync(600);
    const { error, tokens } = await run;
    expect(error).toBeUndefined();
    expect(tokens).toEqual(WORDS);
    expect(seen).toHaveLength(1);
  });

  it("a slow consumer (400 ms per chunk) of a brisk stream (50 ms/event), idleTimeout 300 ms → answers", async () => {
    const { body, stream } = fed({ idleTimeout: 300 });
    WORDS.forEach((_, i) => setTimeout(() => body.push(answerEvent(i) + (i === WORDS.length - 1 ? DONE : "")), 50 * i));
    const tokens: string[] = [];
    const run = (async () => {
      for await (const c of stream) {
        tokens.push(c.choices[0]?.delta.content ?? "");
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    })();
    await vi.advanceTimersByTimeAsync(400 * WORDS.length + 1000);
    await run;
    expect(tokens).toEqual(WORDS);
  });
});

describe("waits", () => {
  it("a 429 whose retry-after-ms (600) is longer than idleTimeout 300 ms → waits it out, retries, answers (no idle clock while waiting)", async () => {
    const retries: RetryEvent[] = [];
    const body = controlledBody();
    for (let i = 0; i < WORDS.length; i++) body.push(answerEvent(i));
    body.push(DONE);
    const respond = (n: number): Response =>
      n === 1 ? json({ error: "Rate limit reached" }, 429, { "retry-after-ms": "600" }) : sse(body.stream);
    const { stream, seen } = fed({ idleTimeout: 300, maxRetries: 1, onRetry: (e) => void retries.push(e) }, respond);
    const run = consume(stream);
    await vi.advanceTimersByTimeAsync(0);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 2, status: 429, reason: "rate-limit" });
    const delay = Math.floor(retries[0]?.delayMs ?? 0);
    expect(delay).toBeGreaterThanOrEqual(600);
    // the retry comes when the wait announced is over, not a millisecond before
    await vi.advanceTimersByTimeAsync(delay - 1);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const { error, tokens } = await run;
    expect(error).toBeUndefined();
    expect(tokens).toEqual(WORDS);
    expect(seen).toHaveLength(2);
  });
});
