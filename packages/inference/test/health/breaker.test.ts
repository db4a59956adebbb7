/**
 * Health across calls through real HTTP on loopback: a target's breaker opens at its threshold and the next calls
 * send it nothing; after the cooldown (a fake clock, never a wait) one call probes it; a success closes it. A 429's
 * Retry-After is its cooldown; a caller's mistake never counts; every target open still makes a request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FailoverError, type FailoverEvent, type HealthEvent, InputError, type Options } from "../../src/index";
import { MAX_RETRY_AFTER_MS } from "../../src/features/breaker";
import { type FakeRouter, fakeRouter, MODEL, QUESTION } from "./router";

let router: FakeRouter;
beforeAll(async () => (router = await fakeRouter()));
afterAll(() => router.raw.close());
beforeEach(() => router.reset());

const A = `${MODEL}:a`;
const B = `${MODEL}:b`;

/** One whole chat over [a, b]: its answer's provider or its error, and what onFailover and onHealth were told. */
async function call(options: Options = {}, token?: string) {
  const moves: FailoverEvent[] = [];
  const changes: HealthEvent[] = [];
  const client = router.client(
    { onFailover: (e) => moves.push(e), onHealth: (e) => changes.push(e), ...options },
    token,
  );
  try {
    const out = await client.chatCompletion({ model: MODEL, messages: QUESTION, provider: ["a", "b"] });
    return { provider: out.served?.provider, moves, changes, error: undefined };
  } catch (error) {
    return { provider: undefined, moves, changes, error };
  }
}

describe("a breaker opens at its threshold", () => {
  it("after three failures of a, the next calls send a nothing and are served by b (a skip with its own reason)", async () => {
    router.behaviours = { [A]: { status: 500 }, [B]: "ok" };
    for (let i = 0; i < 3; i++) expect((await call()).provider).toBe("b");
    expect(router.sent()).toEqual([A, B, A, B, A, B]);
    router.raw.requests.length = 0;
    const fourth = await call();
    expect(fourth.provider).toBe("b");
    expect(router.sent()).toEqual([B]);
    expect(fourth.moves).toEqual([{ from: A, to: B, reason: "circuit-open" }]);
    const [entry] = router.store.snapshot().filter((h) => h.target === A);
    expect(entry).toMatchObject({ state: "open", failures: 3, cooldownUntil: router.clock.now + 30_000 });
  });

  it("the third failure tells onHealth the breaker opened, with its cooldown", async () => {
    router.behaviours = { [A]: { status: 503 }, [B]: "ok" };
    const changes = [];
    for (let i = 0; i < 3; i++) changes.push(...(await call()).changes);
    expect(changes).toEqual([{ type: "breaker", target: A, state: "open", failures: 3, cooldownMs: 30_000 }]);
  });

  it("a failure ratio over the minimum of calls opens it too", async () => {
    const health = { store: router.store, threshold: 100, ratio: 0.5, minimumCalls: 4 };
    const pattern: Array<"ok" | { status: number }> = ["ok", { status: 500 }, "ok", { status: 500 }];
    for (const b of pattern) {
      router.behaviours = { [A]: b, [B]: "ok" };
      await call({ health });
    }
    expect(router.store.snapshot().find((h) => h.target === A)?.state).toBe("open");
    router.raw.requests.length = 0;
    router.behaviours = { [A]: "ok", [B]: "ok" };
    expect((await call({ health })).provider).toBe("b");
    expect(router.sent()).toEqual([B]);
  });

  it("`health: false` remembers nothing: every call tries a first", async () => {
    router.behaviours = { [A]: { status: 500 }, [B]: "ok" };
    for (let i = 0; i < 5; i++) await call({ health: false });
    expect(router.sent().filter((m) => m === A)).toHaveLength(5);
    expect(router.store.snapshot()).toEqual([]);
  });
});

describe("after the cooldown, one call probes", () => {
  async function opened(): Promise<void> {
    router.behaviours = { [A]: { status: 500 }, [B]: "ok" };
    for (let i = 0; i < 3; i++) await call();
    router.raw.requests.length = 0;
  }

  it("a probe that succeeds closes the breaker: half-open, then closed, and a is used again", async () => {
    await opened();
    router.clock.now += 29_999;
    await call();
    expect(router.sent()).toEqual([B]);
    router.clock.now += 1;
    router.behaviours[A] = "ok";
    const probe = await call();
    expect(probe.provider).toBe("a");
    expect(probe.changes.map((c) => c.type === "breaker" && c.state)).toEqual(["half-open", "closed"]);
    expect(router.store.snapshot().find((h) => h.target === A)?.state).toBe("closed");
    expect((await call()).provider).toBe("a");
  });

  it("a probe that fails opens it again for a new cooldown", async () => {
    await opened();
    router.clock.now += 30_000;
    const probe = await call();
    expect(router.sent()).toEqual([A, B]);
    expect(probe.changes.map((c) => c.type === "breaker" && c.state)).toEqual(["half-open", "open"]);
    router.raw.requests.length = 0;
    router.clock.now += 29_999;
    await call();
    expect(router.sent()).toEqual([B]);
  });

  it("while one call probes, another skips the target", async () => {
    await opened();
    router.clock.now += 30_000;
    router.behaviours[A] = "stall";
    const client = router.client({ firstChunkTimeout: 60_000 });
    const chunks = client.chatCompletionStream({ model: MODEL, messages: QUESTION, provider: ["a", "b"] });
    const probing = chunks.next();
    while (router.stalled.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect((await call()).provider).toBe("b");
    expect(router.sent()).toEqual([A, B]);
    await chunks.return(undefined);
    await probing.catch(() => undefined);
  });
});

describe("what counts", () => {
  it("a 429's Retry-After is its cooldown: one 429 opens the breaker for as long as it says", async () => {
    router.behaviours = { [A]: { status: 429, headers: [["retry-after", "120"]] }, [B]: "ok" };
    await call();
    router.raw.requests.length = 0;
    router.behaviours[A] = "ok";
    router.clock.now += 119_000;
    expect((await call()).provider).toBe("b");
    router.clock.now += 1_000;
    expect((await call()).provider).toBe("a");
  });

  it("a hostile Retry-After is held as an hour", async () => {
    router.behaviours = { [A]: { status: 429, headers: [["retry-after", "99999999999999999999"]] }, [B]: "ok" };
    const start = router.clock.now;
    await call();
    const until = router.store.snapshot().find((h) => h.target === A)?.cooldownUntil;
    expect(until).toBeGreaterThan(start);
    expect(until).toBeLessThanOrEqual(start + MAX_RETRY_AFTER_MS);
  });

  it.each([400, 401, 402, 422])(
    "a %i (the caller's mistake) never counts: a is tried on every call",
    async (status) => {
      router.behaviours = { [A]: { status, body: { error: "bad request" } }, [B]: "ok" };
      for (let i = 0; i < 5; i++) expect((await call()).error).toBeDefined();
      expect(router.sent()).toEqual([A, A, A, A, A]);
      expect(router.store.snapshot().find((h) => h.target === A)?.failures ?? 0).toBe(0);
    },
  );

  it("an InputError sends nothing and counts nothing", async () => {
    router.behaviours = { [A]: "ok", [B]: "ok" };
    const client = router.client();
    const bad = { model: MODEL, messages: QUESTION, provider: ["a", "b"], temperature: -1 };
    for (let i = 0; i < 4; i++) await expect(client.chatCompletion(bad)).rejects.toBeInstanceOf(InputError);
    expect(router.sent()).toEqual([]);
    expect(router.store.snapshot()).toEqual([]);
  });

  it("every target open still makes a request: the one whose cooldown ends first is tried", async () => {
    router.behaviours = { [A]: { status: 500 }, [B]: { status: 500 } };
    for (let i = 0; i < 3; i++) await call();
    router.raw.requests.length = 0;
    router.behaviours[A] = "ok";
    const out = await call();
    expect(out.provider).toBe("a");
    expect(router.sent()).toEqual([A]);
  });

  it("the earliest cooldown first, whatever the order given: a skipped, b tried", async () => {
    router.behaviours = {
      [A]: { status: 429, headers: [["retry-after", "100"]] },
      [B]: { status: 429, headers: [["retry-after", "50"]] },
    };
    await call();
    router.raw.requests.length = 0;
    router.behaviours = { [A]: "ok", [B]: "ok" };
    const out = await call();
    expect(out.provider).toBe("b");
    expect(router.sent()).toEqual([B]);
    expect(out.moves).toEqual([{ from: A, to: B, reason: "circuit-open" }]);
  });

  it("per credential: a breaker opened with one token does not skip the target for another", async () => {
    router.behaviours = { [A]: { status: 429 }, [B]: "ok" };
    for (let i = 0; i < 3; i++) await call();
    router.raw.requests.length = 0;
    await call({}, "hf_AnotherAccountToken1234567890abcdef");
    expect(router.sent()).toEqual([A, B]);
    const text = JSON.stringify(router.store.snapshot());
    expect(text).not.toContain("HealthSecretToken");
    expect(text).not.toContain("AnotherAccountToken");
    expect(new Set(router.store.snapshot().map((h) => h.credential)).size).toBe(2);
  });

  it("the FailoverError of a call lists a skip with its reason", async () => {
    router.behaviours = { [A]: { status: 500 }, [B]: { status: 500 } };
    for (let i = 0; i < 3; i++) await call();
    router.clock.now += 30_000; // both half-open: a probes, then b
    const { error } = await call();
    expect(error).toBeInstanceOf(FailoverError);
    expect((error as FailoverError).attempts.map((a) => a.reason)).toEqual(["server-error", "server-error"]);
    router.raw.requests.length = 0;
    const again = await call();
    expect(router.sent()).toEqual([A, B]);
    expect((again.error as FailoverError).attempts.map((a) => a.reason)).toEqual(["server-error", "server-error"]);
  });
});
