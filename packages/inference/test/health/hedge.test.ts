/**
 * Hedged first tokens, through real HTTP on a raw loopback socket: each candidate's reply is held open and fed by
 * the test, the hedge's timer is a fake one moved by the test (never a wall-clock speed), and what each connection
 * saw (its request, its close) is read from the server.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  type CallEvent,
  type ChatCompletionStreamOutput,
  InferenceClient,
  InputError,
  type Options,
  TimeoutError,
} from "../../src/index";
import { counted, DEFAULT_HEALTH, fresh } from "../../src/features/breaker";
import { HealthMemory } from "../../src/features/health";
import { hedgeAfter, MAX_HEDGE_AFTER_MS, MIN_HEDGE_SAMPLES } from "../../src/features/hedge";
import { chunked, type RawReply, type RawServer, startRawServer } from "../faults/raw-server";
import { until } from "./router";

const MODEL = "org/main";
const QUESTION = [{ role: "user", content: "hi" }];
const [A, B, C] = ["a", "b", "c"].map((p) => `${MODEL}:${p}`) as [string, string, string];

/** One request's held reply: the SSE head and a role-only chunk are sent; the test sends the rest. */
interface Held {
  reply: RawReply;
  body: Record<string, unknown>;
  /** Sends a chunk with `text` (the candidate's first token, when it is the first). */
  say(text: string): void;
  /** Sends the finish, `[DONE]`, and ends the body. */
  finish(): void;
}

let server: RawServer;
/** Each model's held replies, in order. */
let held: Map<string, Held[]>;
/** What a model answers with instead of a held stream (a status). */
let failing: Map<string, number>;
let store: HealthMemory;

const frame = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "served", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

beforeAll(async () => {
  server = await startRawServer((req, reply) => {
    if (req.method === "GET") {
      const list = JSON.stringify({ object: "list", data: [] });
      reply.head(200, [
        ["Content-Type", "application/json"],
        ["Content-Length", String(list.length)],
        ["Connection", "close"],
      ]);
      return reply.end(list);
    }
    const body = JSON.parse(req.body) as Record<string, unknown>;
    const model = String(body.model);
    const provider = model.split(":")[1] ?? "picked";
    const status = failing.get(model);
    if (status !== undefined) {
      const text = JSON.stringify({ error: `HTTP ${status}` });
      reply.head(status, [
        ["Content-Type", "application/json"],
        ["Content-Length", String(text.length)],
        ["Connection", "close"],
        ["x-inference-provider", provider],
      ]);
      return reply.end(text);
    }
    const streamed = body.stream === true;
    const out = streamed
      ? chunked(reply, 200, [
          ["Content-Type", "text/event-stream"],
          ["x-inference-provider", provider],
        ])
      : undefined;
    out?.chunk(frame({ role: "assistant" })); // before the first token: held back by the client
    const one: Held = {
      reply,
      body,
      say: (text) => void out?.chunk(frame({ content: text })),
      finish: () => {
        if (!out) {
          const json = JSON.stringify({
            id: "a",
            object: "chat.completion",
            created: 1,
            model: "served",
            choices: [{ index: 0, message: { role: "assistant", content: `from ${provider}` }, finish_reason: "stop" }],
          });
          reply.head(200, [
            ["Content-Type", "application/json"],
            ["Content-Length", String(Buffer.byteLength(json))],
            ["Connection", "close"],
            ["x-inference-provider", provider],
          ]);
          return reply.end(json);
        }
        out.chunk(frame({}, "stop"));
        out.chunk("data: [DONE]\n\n");
        out.end();
      },
    };
    held.set(model, [...(held.get(model) ?? []), one]);
  });
});
afterAll(() => server.close());

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  server.requests.length = 0;
  held = new Map();
  failing = new Map();
  store = new HealthMemory(() => 1_000_000);
});
afterEach(() => {
  vi.useRealTimers();
  for (const list of held.values()) for (const h of list) h.reply.socket.destroy();
});

const client = (options: Options = {}) =>
  new InferenceClient("hf_HedgeSecretToken1234567890abcdefgh", {
    routerUrl: server.url,
    logger: { warn: () => {} },
    maxRetries: 0,
    health: { store },
    ...options,
  });

/** The chat requests, as the `model` each named, in order. */
const sent = (): string[] =>
  server.requests
    .filter((r) => r.method === "POST")
    .map((r) => String((JSON.parse(r.body) as { model: unknown }).model));

/** The held reply of `model` once its request arrived. */
async function arrived(model: string): Promise<Held> {
  await until(() => (held.get(model)?.length ?? 0) > 0);
  return (held.get(model) as Held[])[0] as Held;
}

/** Lets the sockets and the client's promises run (real I/O turns; no fake time moves). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

const stream = (c: InferenceClient, options?: Options, provider = ["a", "b", "c"]) =>
  c.chatCompletionStream({ model: MODEL, messages: QUESTION, provider }, options);

const text = (chunks: ChatCompletionStreamOutput[]): string =>
  chunks.map((ch) => ch.choices?.[0]?.delta?.content ?? "").join("");

it("a hedge starts at afterMs: the second candidate's request only after the first was silent that long", async () => {
  const events: CallEvent[] = [];
  const it = stream(client({ hedge: { afterMs: 1000 }, observe: (e) => void events.push(e) }));
  const first = it.next();
  await arrived(A);
  await vi.advanceTimersByTimeAsync(999);
  await settle();
  expect(sent()).toEqual([A]);
  await vi.advanceTimersByTimeAsync(1);
  const b = await arrived(B);
  expect(sent()).toEqual([A, B]);
  expect(events.filter((e) => e.type === "hedge")).toMatchObject([{ type: "hedge", from: A, to: B }]);
  b.say("from b");
  b.finish();
  const chunks = [(await first).value as ChatCompletionStreamOutput];
  for await (const ch of { [Symbol.asyncIterator]: () => it }) chunks.push(ch);
  expect(text(chunks)).toBe("from b");
  expect(chunks[0]?.served).toEqual({ model: MODEL, provider: "b", hedge: { from: A, to: B, winner: B } });
  const hedges = events.filter((e) => e.type === "hedge");
  expect(hedges).toHaveLength(2);
  expect(hedges[1]).toMatchObject({ from: A, to: B, winner: B });
});

it("only the winner's tokens reach the caller; the loser's connection is closed before its tokens", async () => {
  const it = stream(client({ hedge: { afterMs: 500 } }));
  const first = it.next();
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  const b = await arrived(B);
  a.say("A1");
  const chunks = [(await first).value as ChatCompletionStreamOutput];
  // b sends tokens too, late: none of them may reach the caller.
  b.say("B1");
  await b.reply.closedPromise; // the client closed the loser's socket
  expect(b.reply.closed).toBe(true);
  a.say("A2");
  a.finish();
  for await (const ch of { [Symbol.asyncIterator]: () => it }) chunks.push(ch);
  expect(text(chunks)).toBe("A1A2");
  expect(chunks.at(-1)?.served?.hedge).toEqual({ from: A, to: B, winner: A });
});

it("the first candidate's loser socket is seen to end when the hedge wins", async () => {
  const it = stream(client({ hedge: { afterMs: 500 } }));
  const first = it.next();
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  const b = await arrived(B);
  b.say("B1");
  await a.reply.closedPromise;
  expect(a.reply.closed).toBe(true);
  expect(b.reply.closed).toBe(false);
  b.finish();
  await first;
  for await (const _ of { [Symbol.asyncIterator]: () => it }) void _;
  // The loser's abort is not a failure of its target.
  const seen = store.snapshot().find((h) => h.target === A);
  expect(seen?.failures ?? 0).toBe(0);
  expect(seen?.calls ?? 0).toBe(0);
});

it("no request starts after the first token: a third candidate never gets one, with or without a hedge", async () => {
  const c = client({ hedge: { afterMs: 500 } });
  // First token before afterMs: no hedge at all.
  const plain = stream(c);
  const first = plain.next();
  const a = await arrived(A);
  a.say("A1");
  a.finish();
  await first;
  await vi.advanceTimersByTimeAsync(10_000);
  for await (const _ of { [Symbol.asyncIterator]: () => plain }) void _;
  await settle();
  expect(sent()).toEqual([A]);
  expect((await first).value?.served?.hedge).toBeUndefined();

  // A hedge won: the third candidate is never started, however long the time moves.
  held.clear();
  server.requests.length = 0;
  const hedged = stream(c);
  const next = hedged.next();
  await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  const b = await arrived(B);
  b.say("B1");
  await next;
  await vi.advanceTimersByTimeAsync(60_000);
  await settle();
  b.finish();
  for await (const _ of { [Symbol.asyncIterator]: () => hedged }) void _;
  expect(sent()).toEqual([A, B]);
});

it("one of the two failing before its first token leaves the other alone (no new hedge); both failing moves on", async () => {
  failing.set(B, 500);
  const moves: string[] = [];
  const c = client({ hedge: { afterMs: 500 }, onFailover: (m) => void moves.push(`${m.from}>${m.to}:${m.reason}`) });
  const it = stream(c);
  const first = it.next();
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  await until(() => sent().length === 2);
  expect(sent()).toEqual([A, B]);
  await settle();
  await vi.advanceTimersByTimeAsync(5000); // A alone again: not hedged a second time
  await settle();
  expect(sent()).toEqual([A, B]);
  expect(moves).toEqual([`${B}>${A}:server-error`]);
  a.say("A1");
  a.finish();
  const chunk = (await first).value as ChatCompletionStreamOutput;
  expect(chunk.served).toEqual({ model: MODEL, provider: "a", hedge: { from: A, to: B, winner: A } });
  for await (const _ of { [Symbol.asyncIterator]: () => it }) void _;

  // Both fail: the failover moves on to the third as usual.
  held.clear();
  server.requests.length = 0;
  moves.length = 0;
  failing.set(A, 502);
  failing.delete(B);
  const second = client({
    hedge: { afterMs: 500 },
    health: false,
    onFailover: (m) => void moves.push(`${m.from}>${m.to}:${m.reason}`),
  });
  const again = stream(second);
  const next = again.next();
  // A fails at once: no hedge (nothing was silent); B starts by failover and is hedged by C after afterMs.
  const b = await arrived(B);
  await vi.advanceTimersByTimeAsync(500);
  const cc = await arrived(C);
  cc.say("C1");
  cc.finish();
  expect(((await next).value as ChatCompletionStreamOutput).served?.hedge).toEqual({ from: B, to: C, winner: C });
  await b.reply.closedPromise;
  for await (const _ of { [Symbol.asyncIterator]: () => again }) void _;
  expect(sent()).toEqual([A, B, C]);
  expect(moves).toEqual([`${A}>${B}:server-error`]);
});

it("the caller's abort aborts both tries", async () => {
  const stop = new AbortController();
  const it = stream(client({ hedge: { afterMs: 500 } }), { signal: stop.signal });
  const first = it.next();
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  const b = await arrived(B);
  stop.abort();
  await expect(first).rejects.toBeInstanceOf(AbortError);
  await Promise.all([a.reply.closedPromise, b.reply.closedPromise]);
  expect(sent()).toEqual([A, B]);
  expect(store.snapshot().every((h) => h.failures === 0)).toBe(true);
});

it("the call's deadline covers both tries", async () => {
  const it = stream(client({ hedge: { afterMs: 500 }, timeout: 2000 }));
  const first = it.next();
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  const b = await arrived(B);
  const failed = first.catch((e: unknown) => e);
  await vi.advanceTimersByTimeAsync(1500);
  const error = await failed;
  expect(error).toBeInstanceOf(TimeoutError);
  expect((error as TimeoutError).kind).toBe("deadline");
  await Promise.all([a.reply.closedPromise, b.reply.closedPromise]);
  expect(sent()).toEqual([A, B]);
});

it("a whole chat hedges too: the first whole answer serves it, the other is closed", async () => {
  const answer = client({ hedge: { afterMs: 500 } }).chatCompletion({
    model: MODEL,
    messages: QUESTION,
    provider: ["a", "b"],
  });
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  const b = await arrived(B);
  b.finish();
  const out = await answer;
  expect(out.choices[0]?.message.content).toBe("from b");
  expect(out.served?.hedge).toEqual({ from: A, to: B, winner: B });
  await a.reply.closedPromise;
});

it("a client's hedge is turned off for one call by hedge: false", async () => {
  const it = stream(client({ hedge: { afterMs: 500 } }), { hedge: false });
  const first = it.next();
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(5000);
  await settle();
  expect(sent()).toEqual([A]);
  a.say("A1");
  a.finish();
  await first;
  for await (const _ of { [Symbol.asyncIterator]: () => it }) void _;
});

it.each([
  [{ afterMs: 0 }, "hedge.afterMs"],
  [{ afterMs: -5 }, "hedge.afterMs"],
  [{ afterMs: 600_001 }, "hedge.afterMs"],
  [{ afterMs: Number.NaN }, "hedge.afterMs"],
  [{ afterMs: "100" }, "hedge.afterMs"],
  [{}, "hedge.afterMs"],
  [{ percentile: 95, afterMs: 0 }, "hedge.afterMs"],
  [{ percentile: 0 }, "hedge.percentile"],
  [{ percentile: 100 }, "hedge.percentile"],
  [{ percentile: "95" }, "hedge.percentile"],
  [{ percentile: Number.NaN, afterMs: 500 }, "hedge.percentile"],
  ["soon", "hedge"],
  [true, "hedge"],
])("hedge %j is an InputError naming %s and its range, before any request", async (hedge, field) => {
  const error = await client({ hedge: hedge as Options["hedge"] })
    .chatCompletion({ model: MODEL, messages: QUESTION, provider: ["a", "b"] })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).field).toBe(field);
  if (field === "hedge.afterMs") expect((error as Error).message).toContain("from 1 to 600000");
  if (field === "hedge.percentile") expect((error as Error).message).toContain("above 0 and below 100");
  expect(sent()).toEqual([]);
});

it("after a hedge is won, the caller's abort still ends the winner's stream", async () => {
  const stop = new AbortController();
  const it = stream(client({ hedge: { afterMs: 500 } }), { signal: stop.signal });
  const first = it.next();
  const a = await arrived(A);
  await vi.advanceTimersByTimeAsync(500);
  const b = await arrived(B);
  b.say("B1");
  expect(((await first).value as ChatCompletionStreamOutput).served?.hedge?.winner).toBe(B);
  await a.reply.closedPromise;
  stop.abort();
  const drained = (async () => {
    for (let r = await it.next(); !r.done; r = await it.next()) void r; // the held chunks, then the abort
  })();
  await expect(drained).rejects.toBeInstanceOf(AbortError);
  await b.reply.closedPromise;
});

describe("hedgeAfter: the wait before a silent target is hedged", () => {
  const times = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) * 10); // 10, 20, … ms

  it("afterMs without a percentile, whatever was observed", () => {
    expect(hedgeAfter({ afterMs: 800, percentile: undefined }, times(50))).toBe(800);
  });

  it("the percentile by nearest rank once 20 times are known; afterMs before", () => {
    const hedge = { afterMs: 800, percentile: 95 };
    expect(hedgeAfter(hedge, times(MIN_HEDGE_SAMPLES - 1))).toBe(800);
    expect(hedgeAfter(hedge, undefined)).toBe(800);
    expect(hedgeAfter(hedge, times(20))).toBe(190);
    expect(hedgeAfter({ afterMs: 800, percentile: 91 }, times(20))).toBe(190); // rank 18.2, up to 19
    expect(hedgeAfter(hedge, times(100))).toBe(950);
    expect(hedgeAfter({ afterMs: 800, percentile: 99.9 }, times(100))).toBe(1000);
    expect(hedgeAfter({ afterMs: 800, percentile: 0.1 }, times(100))).toBe(10);
    expect(hedgeAfter(hedge, [...times(20)].reverse())).toBe(190); // the order kept does not matter
  });

  it("within 1 ms and ten minutes; what is not a time (a shared store's bad entry) is left out", () => {
    const hedge = { afterMs: 800, percentile: 50 };
    expect(hedgeAfter(hedge, Array(20).fill(0))).toBe(1);
    expect(hedgeAfter(hedge, Array(20).fill(10_000_000))).toBe(MAX_HEDGE_AFTER_MS);
    expect(hedgeAfter(hedge, [...times(19), "x", null, -5, Number.NaN, Infinity])).toBe(800);
    expect(hedgeAfter(hedge, [...times(20), "x", -5])).toBe(100);
    expect(hedgeAfter(hedge, Array(20).fill(12.2))).toBe(13);
  });
});

it("health keeps a target's last 100 times to first token, oldest first: what the percentile is read from", () => {
  const config = { ...DEFAULT_HEALTH, store: undefined };
  let h = fresh("org/main:a", undefined);
  for (let i = 1; i <= 120; i++) h = counted(h, { ok: true, latencyMs: i }, i, config);
  expect(h.latencies).toEqual(Array.from({ length: 100 }, (_, i) => i + 21));
  expect(counted(h, { ok: false }, 200, config).latencies).toEqual(h.latencies); // a failure adds no time
});
