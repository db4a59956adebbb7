/**
 * The Call itself, where the public API cannot reach a rule on its own: its waits (`sleep`, `until`) end with
 * the call and leave no cancel hook behind, the first failure wins and aborts every request, `remaining()`
 * is the nearer limit less the time spent, a request sent after the first data is watched for silence, and
 * the watchdog timers do not hold the process open. Then what fetch throws, as the caller sees it over loopback.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, ConnectionError, InferenceError, InputError, TimeoutError } from "../../src/index";
import { Call, type CallLimits, holdable, MAX_TIMER_MS } from "../../src/core/call";
import { closedPort } from "../faults/support";
import { answerJson, clientOn, QUESTION, SECRET, useRawServer } from "./stream-support";
import { whole } from "../faults/raw-server";

const raw = useRawServer();
const NONE: CallLimits = { firstChunkTimeout: Infinity, idleTimeout: Infinity, stallTimeout: Infinity };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const fakeClock = (): void => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
/** The call's cancel hooks: what a failure would still reach (a leak if it outlives the wait that added it). */
const hooks = (call: Call): number => (call as unknown as { cancelHooks: Set<unknown> }).cancelHooks.size;
const settledState = <T>(p: Promise<T>) => {
  const s = { done: false, value: undefined as unknown, error: undefined as unknown };
  p.then(
    (v) => Object.assign(s, { done: true, value: v }),
    (e: unknown) => Object.assign(s, { done: true, error: e }),
  );
  return s;
};

describe("holdable", () => {
  it("Infinity stays (no limit), a duration past 2^31−1 is held at it, a negative one is 0", () => {
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    expect(holdable(Infinity)).toBe(Infinity);
    expect(holdable(3e9)).toBe(MAX_TIMER_MS);
    expect(holdable(MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
    expect(holdable(MAX_TIMER_MS - 1)).toBe(MAX_TIMER_MS - 1);
    expect(holdable(1500)).toBe(1500);
    expect(holdable(-5)).toBe(0);
  });
});

describe("sleep", () => {
  it("resolves after its wait, not before, and leaves no cancel hook", async () => {
    fakeClock();
    const call = new Call(NONE);
    const s = settledState(call.sleep(500));
    expect(hooks(call)).toBe(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(s.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(s).toMatchObject({ done: true, error: undefined });
    expect(hooks(call)).toBe(0);
  });

  it("a wait longer than a timer holds is held, not fired at once", async () => {
    fakeClock();
    const call = new Call(NONE);
    const s = settledState(call.sleep(3e9));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS - 1);
    expect(s.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.done).toBe(true);
  });

  it("rejects with the call's failure as soon as it fails, its timer cleared", async () => {
    fakeClock();
    const call = new Call(NONE);
    const s = settledState(call.sleep(10_000));
    const failure = new AbortError("stop");
    call.fail(failure);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.error).toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("on a call that has failed: rejects at once, no timer set", async () => {
    fakeClock();
    const call = new Call(NONE);
    const failure = new AbortError("stop");
    call.fail(failure);
    await expect(call.sleep(100)).rejects.toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("until", () => {
  it("answers what the promise answers, and leaves no hook, whether it resolves or rejects", async () => {
    const call = new Call(NONE);
    await expect(call.until(Promise.resolve(42))).resolves.toBe(42);
    const boom = new Error("boom");
    await expect(call.until(Promise.reject(boom))).rejects.toBe(boom);
    expect(hooks(call)).toBe(0);
  });

  it("rejects with the failure as soon as the call fails, however long the promise takes", async () => {
    const call = new Call(NONE);
    const waiting = call.until(new Promise(() => {}));
    const failure = new TimeoutError("deadline", 5);
    call.fail(failure);
    await expect(waiting).rejects.toBe(failure);
  });

  it("on a call that has failed: rejects at once", async () => {
    const call = new Call(NONE);
    const failure = new AbortError("stop");
    call.fail(failure);
    await expect(call.until(Promise.resolve(1))).rejects.toBe(failure);
  });
});

describe("fail, check, attempt, finish", () => {
  it("the first failure wins: later ones change nothing, check() throws the first", () => {
    const call = new Call(NONE);
    expect(() => call.check()).not.toThrow();
    const first = new TimeoutError("idle", 10);
    call.fail(first);
    call.fail(new AbortError("later"));
    expect(call.failure).toBe(first);
    expect(() => call.check()).toThrow(first);
  });

  it("a failure reaches every hook once, with the error; a removed hook is not called", () => {
    const call = new Call(NONE);
    const seen: unknown[] = [];
    call.onCancel((r) => seen.push(["a", r]));
    const off = call.onCancel((r) => seen.push(["b", r]));
    off();
    const failure = new AbortError("stop");
    call.fail(failure);
    call.fail(new AbortError("again"));
    expect(seen).toEqual([["a", failure]]);
  });

  it("attempt(): aborted with the failure when the call fails; its hook gone once it is aborted by its owner", () => {
    const call = new Call(NONE);
    const owned = call.attempt();
    owned.abort();
    expect(hooks(call)).toBe(0);
    const live = call.attempt();
    const failure = new TimeoutError("deadline", 1);
    call.fail(failure);
    expect(live.signal.aborted).toBe(true);
    expect(live.signal.reason).toBe(failure);
    const late = call.attempt();
    expect(late.signal.reason).toBe(failure);
  });

  it("a failure clears every timer of the call: deadline, first chunk, watchdog", () => {
    fakeClock();
    const call = new Call({ timeout: 1000, firstChunkTimeout: 1000, idleTimeout: 1000, stallTimeout: 1000 });
    call.watchBody();
    expect(vi.getTimerCount()).toBe(3);
    call.fail(new AbortError("stop"));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a call made with an aborted signal has failed already: AbortError with the reason, no timer, no listener", () => {
    fakeClock();
    const reason = new Error("gone");
    const signal = AbortSignal.abort(reason);
    const add = vi.spyOn(signal, "addEventListener");
    const call = new Call({ ...NONE, timeout: 1000, firstChunkTimeout: 1000, signal });
    expect(call.failure).toBeInstanceOf(AbortError);
    expect(call.failure?.cause).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    expect(add).not.toHaveBeenCalled();
  });

  it("the caller's abort ends the call with AbortError, its reason as cause; finish() removes the listener it added", () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, "addEventListener");
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const call = new Call({ ...NONE, signal: controller.signal });
    const listener = add.mock.calls[0]?.[1];
    expect(add.mock.calls[0]?.[0]).toBe("abort");
    call.finish();
    expect(remove).toHaveBeenCalledWith("abort", listener);
    const other = new Call({ ...NONE, signal: controller.signal });
    controller.abort("the reason");
    expect(other.failure).toMatchObject({
      name: "AbortError",
      message: "The call was aborted by its signal",
      cause: "the reason",
    });
    expect(call.failure).toBeUndefined();
  });

  it("watchBody on a call that has failed starts no watchdog", () => {
    fakeClock();
    const call = new Call({ ...NONE, idleTimeout: 1000 });
    call.fail(new AbortError("stop"));
    call.watchBody();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the deadline, first-chunk and watchdog timers do not hold the process open", () => {
    const made: Array<ReturnType<typeof setTimeout>> = [];
    const real = globalThis.setTimeout;
    vi.stubGlobal("setTimeout", (fn: () => void, ms?: number) => {
      const t = real(fn, ms);
      made.push(t);
      return t;
    });
    const call = new Call({ timeout: 1000, firstChunkTimeout: 1000, idleTimeout: 1000, stallTimeout: 1000 });
    call.watchBody();
    expect(made).toHaveLength(3);
    for (const t of made) expect(t.hasRef()).toBe(false);
    call.finish();
  });
});

describe("runtimes whose timers are numbers (browsers, workers, Deno)", () => {
  it("a call with every limit runs and fails on time where setTimeout returns a number (no unref to call)", async () => {
    const real = globalThis.setTimeout;
    const timers = new Map<number, ReturnType<typeof setTimeout>>();
    let next = 1;
    vi.stubGlobal("setTimeout", (fn: () => void, ms?: number) => {
      const id = next++;
      timers.set(id, real(fn, ms));
      return id;
    });
    vi.stubGlobal("clearTimeout", (id: number | undefined) => {
      if (id !== undefined) clearTimeout(timers.get(id));
    });
    const call = new Call({ timeout: 20, firstChunkTimeout: 1000, idleTimeout: 1000, stallTimeout: 1000 });
    call.watchBody();
    const failed = await new Promise((resolve) => call.onCancel(resolve));
    expect(failed).toMatchObject({ name: "TimeoutError", kind: "deadline" });
    call.finish();
  });
});

describe("remaining(): the time to the nearer limit, less the time spent", () => {
  it.each<[string, Partial<CallLimits>, number]>([
    ["no limit", {}, Infinity],
    ["timeout Infinity", { timeout: Infinity }, Infinity],
    ["timeout only", { timeout: 1000 }, 700],
    ["firstChunkTimeout only", { firstChunkTimeout: 1000 }, 700],
    ["timeout nearer", { timeout: 1000, firstChunkTimeout: 5000 }, 700],
    ["firstChunkTimeout nearer", { timeout: 5000, firstChunkTimeout: 1000 }, 700],
  ])("%s, 300 ms in → %d", async (_name, limits, left) => {
    fakeClock();
    const call = new Call({ ...NONE, ...limits });
    await vi.advanceTimersByTimeAsync(300);
    expect(call.remaining()).toBe(left);
    call.finish();
  });

  it("once the first data is in, firstChunkTimeout no longer counts", async () => {
    fakeClock();
    const call = new Call({ ...NONE, firstChunkTimeout: 1000 });
    call.data();
    expect(call.remaining()).toBe(Infinity);
    const both = new Call({ ...NONE, timeout: 5000, firstChunkTimeout: 1000 });
    await vi.advanceTimersByTimeAsync(300);
    both.data();
    expect(both.remaining()).toBe(4700);
    both.finish();
  });

  it("the first data stops the first-chunk timer; the deadline keeps running", async () => {
    fakeClock();
    const call = new Call({ ...NONE, timeout: 5000, firstChunkTimeout: 1000 });
    call.data();
    await vi.advanceTimersByTimeAsync(4999);
    expect(call.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failure).toMatchObject({ kind: "deadline", timeoutMs: 5000 });
  });
});

describe("a request sent after the first data (a poll) is watched for silence", () => {
  it("before any data, the wait for a head is not watched (firstChunkTimeout's job)", async () => {
    fakeClock();
    const call = new Call({ ...NONE, idleTimeout: 1000 });
    call.awaitHead();
    await vi.advanceTimersByTimeAsync(5000);
    expect(call.failure).toBeUndefined();
  });

  it("after it, a head that does not come within idleTimeout is an idle TimeoutError", async () => {
    fakeClock();
    const call = new Call({ ...NONE, idleTimeout: 1000 });
    call.data();
    call.awaitHead();
    await vi.advanceTimersByTimeAsync(999);
    expect(call.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failure).toMatchObject({ kind: "idle", timeoutMs: 1000 });
  });

  it("a slow consumer is no silence: bytes in, no read pending, the watchdog does not fire", async () => {
    fakeClock();
    const call = new Call({ ...NONE, idleTimeout: 1000, stallTimeout: 1000 });
    call.watchBody();
    call.reading();
    call.touch();
    call.data();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(call.failure).toBeUndefined();
    call.reading();
    await vi.advanceTimersByTimeAsync(999);
    expect(call.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failure).toBeInstanceOf(TimeoutError);
    call.finish();
  });

  it("stopWatching ends the watchdog: a stale timer neither fires nor reschedules", async () => {
    fakeClock();
    const call = new Call({ ...NONE, idleTimeout: 1000 });
    call.watchBody();
    call.reading();
    call.stopWatching();
    await vi.advanceTimersByTimeAsync(5000);
    expect(call.failure).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("translate: what fetch or a read threw, as the caller sees it", () => {
  it("a refused connection → ConnectionError naming host:port and the code, its URL and cause kept, retried as asked", async () => {
    const port = await closedPort();
    const attempts: string[] = [];
    const c = clientOn(raw(), {
      endpointUrl: `http://127.0.0.1:${port}`,
      maxRetries: 1,
      onRetry: () => void attempts.push("retry"),
    });
    vi.spyOn(Math, "random").mockReturnValue(0);
    const error = await c.chatCompletion({ messages: QUESTION }).catch((e: unknown) => e);
    vi.restoreAllMocks();
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(`Connection to 127.0.0.1:${port} failed: fetch failed (ECONNREFUSED)`);
    expect((error as ConnectionError).url).toBe(`http://127.0.0.1:${port}/v1/chat/completions`);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(attempts).toEqual(["retry"]);
  });

  it.each<[string, unknown, string]>([
    ["a string", "boom", "boom"],
    ["an Error", new Error("socket hang up"), "socket hang up"],
    [
      "an Error whose cause has a code and a message: the code",
      new Error("fetch failed", { cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }) }),
      "fetch failed (ECONNRESET)",
    ],
    [
      "an Error whose cause has only a message",
      new Error("fetch failed", { cause: new Error("other side closed") }),
      "fetch failed (other side closed)",
    ],
    ["an Error that quotes the token", new Error(`bad header Bearer ${SECRET}`), "bad header Bearer [redacted]"],
  ])("fetch throws %s → `Connection to host:port failed: …`", async (_name, thrown, text) => {
    const c = clientOn(raw(), { fetch: () => Promise.reject(thrown) });
    const error = await c.chatCompletion({ messages: QUESTION }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(`Connection to ${new URL(raw().url).host} failed: ${text}`);
  });

  it("an InferenceError thrown by fetch is the caller's as it is: not a ConnectionError, not retried", async () => {
    const own = new InputError("refused by my fetch", "custom");
    let calls = 0;
    const c = clientOn(raw(), { maxRetries: 3, fetch: () => (calls++, Promise.reject(own)) });
    expect(await c.chatCompletion({ messages: QUESTION }).catch((e: unknown) => e)).toBe(own);
    expect(calls).toBe(1);
  });

  it("once the call has failed, what fetch throws is the failure (a deadline, not a connection error)", async () => {
    fakeClock();
    const c = clientOn(raw(), {
      timeout: 100,
      maxRetries: 3,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => reject(new TypeError("fetch failed"))),
        ),
    });
    const outcome = c.chatCompletion({ messages: QUESTION }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(await outcome).toMatchObject({ name: "TimeoutError", kind: "deadline", timeoutMs: 100 });
  });

  it("direct: no URL → `Connection failed: …`; a URL that does not parse is named as it is, its credentials redacted", () => {
    const call = new Call(NONE, SECRET);
    expect(call.translate(new Error("x")).message).toBe("Connection failed: x");
    const odd = call.translate(new Error("x"), "not a url");
    expect(odd.message).toBe("Connection to not a url failed: x");
    const keyed = call.translate(new Error("x"), `https://h.test/v1?api_key=${SECRET}`) as ConnectionError;
    expect(keyed.message).toBe("Connection to h.test failed: x");
    expect(keyed.url).not.toContain(SECRET);
    const same = new InferenceError("mine");
    expect(call.translate(same)).toBe(same);
  });

  it("a fetch that rejects with no error at all (undefined, null) is a ConnectionError, not a TypeError of our own", async () => {
    for (const thrown of [undefined, null]) {
      const c = clientOn(raw(), { maxRetries: 0, fetch: () => Promise.reject(thrown) });
      const error = await c.chatCompletion({ messages: QUESTION }).catch((e: unknown) => e);
      expect(error, String(thrown)).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(new RegExp(`failed: ${String(thrown)}$`));
    }
  });

  it("a body that answers fine is not translated at all (control)", async () => {
    raw().handle((_req, reply) => whole(reply, 200, "application/json", answerJson("Paris")));
    const out = await clientOn(raw()).chatCompletion({ messages: QUESTION });
    expect(out.choices[0]?.message.content).toBe("Paris");
  });
});
