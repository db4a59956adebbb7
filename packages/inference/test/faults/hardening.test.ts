/**
 * The edges, tried as an attacker would: raw `node:net` servers on loopback that send only keep-alives,
 * echo the token, vary header case, send bare JSON under an event-stream type, end without a blank
 * line, pour 50 MB of HTML into a 200, ask for absurd waits; and arguments and settings that must be
 * refused before any byte is sent. Each test fails without the fix it names. Waits and limits are read
 * from the timeline of the SDK's timers (which fired, of how long), never from a clock.
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type ChatCompletionStreamOutput,
  ConnectionError,
  type FetchLike,
  HttpError,
  InferenceClient,
  InputError,
  MalformedEventError,
  ModelLoadingError,
  type Options,
  RateLimitError,
  TimeoutError,
} from "../../src/index";
import { MAX_TIMER_MS } from "../../src/core/call";
import { USAGE_GRACE_MS } from "../../src/tasks/chatCompletionStream";
import { chunked, type RawReply, type RawServer, startRawServer, whole } from "./raw-server";
import { QUESTION, Timeline, closedPort, consume, expectWaitsKept, recordTimers, sleep, turn, within } from "./support";

const SECRET = "hf_SuperSecretToken1234567890abcd";
const MODEL = "org/model";

let raw: RawServer;
beforeAll(async () => {
  raw = await startRawServer();
});
afterAll(() => raw.close());
let timeline: Timeline;
beforeEach(() => {
  timeline = new Timeline();
  recordTimers(timeline);
});
afterEach(() => {
  vi.unstubAllGlobals();
  raw.requests.length = 0;
  raw.written.length = 0;
});

/** The SDK's timers that fired, by their ms, in order. */
const fired = (): number[] => timeline.firedBySdk();

const chunk = (content: string, finish: string | null = null, extra: Record<string, unknown> = {}): string =>
  `data: ${JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: MODEL,
    choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }],
    ...extra,
  })}\n\n`;

const answer = (content: string): string =>
  JSON.stringify({
    id: "a1",
    object: "chat.completion",
    created: 1,
    model: MODEL,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];

/** Writes `events`, then `every` ms writes `beat` until the client goes away. */
async function beating(reply: RawReply, events: string[], beat: string, every = 50): Promise<void> {
  const body = chunked(reply, 200, SSE);
  for (const e of events) body.chunk(e);
  while (!reply.closed) {
    await sleep(every);
    body.chunk(beat);
  }
}

function client(options: Options = {}): InferenceClient {
  return new InferenceClient(SECRET, { endpointUrl: raw.url, maxRetries: 0, logger: { warn: () => {} }, ...options });
}

const text = (chunks: ChatCompletionStreamOutput[]): string =>
  chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");

/** Every place an error could carry the token. */
function everythingAbout(error: unknown): string {
  const e = error as Record<string, unknown>;
  return [
    inspect(error, { depth: 10 }),
    String((error as Error).stack),
    JSON.stringify(e.body ?? null),
    String(e.requestId),
    String(e.url),
    String(e.data),
  ].join("\n");
}

describe("keep-alives do not hide a stalled server", () => {
  it("`:` comments after a token → TimeoutError kind stall at stallTimeout, the token kept", async () => {
    raw.handle((_req, reply) => beating(reply, [chunk("Hi")], ": keep-alive\n\n"));
    const run = await within(
      consume(client({ stallTimeout: 400 }).chatCompletionStream({ model: MODEL, messages: QUESTION })),
      undefined,
      "stall",
    );
    expect(run.error).toBeInstanceOf(TimeoutError);
    expect(run.error).toMatchObject({ kind: "stall", timeoutMs: 400 });
    expect(run.tokens).toEqual(["Hi"]);
    // the watchdog's first check ran its full 400 ms: the stall was not called early
    expect(fired()[0]).toBe(400);
  });

  it("`data: {}` keep-alive objects count as keep-alives, not data → stall", async () => {
    raw.handle((_req, reply) => beating(reply, [chunk("Hi")], "data: {}\n\n"));
    const run = await within(
      consume(client({ stallTimeout: 400 }).chatCompletionStream({ model: MODEL, messages: QUESTION })),
      undefined,
      "stall",
    );
    expect(run.error).toMatchObject({ kind: "stall" });
    expect(run.chunks).toHaveLength(1);
  });

  it("comments from the start do not meet firstChunkTimeout → TimeoutError kind first-chunk", async () => {
    raw.handle((_req, reply) => beating(reply, [], ": ping\n\n"));
    const run = await within(
      consume(client({ firstChunkTimeout: 400 }).chatCompletionStream({ model: MODEL, messages: QUESTION })),
      undefined,
      "first chunk",
    );
    expect(run.error).toMatchObject({ kind: "first-chunk", timeoutMs: 400 });
    expect(run.tokens).toEqual([]);
    expect(fired()).toEqual([400]);
  });

  it("the connection is closed once a limit fires (no socket left to the server)", async () => {
    let closed: Promise<void> | undefined;
    raw.handle((_req, reply) => {
      closed = reply.closedPromise;
      return beating(reply, [chunk("Hi")], ": ka\n\n");
    });
    await consume(client({ stallTimeout: 300 }).chatCompletionStream({ model: MODEL, messages: QUESTION }));
    await within(closed ?? Promise.reject(new Error("no request")), undefined, "server socket close");
  });
});

describe("the token never comes back", () => {
  it("an endpoint URL with user:TOKEN@ → InputError naming the field, the token nowhere, no request", async () => {
    const attempts: string[] = [];
    const url = raw.url.replace("http://", `http://user:${SECRET}@`);
    const c = new InferenceClient("", { endpointUrl: url, fetch: (input) => (attempts.push(input), fetch(input)) });
    const error = await c.chatCompletion({ model: MODEL, messages: QUESTION }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(String((error as Error).message)).toMatch(/endpointUrl/);
    expect(everythingAbout(error)).not.toContain(SECRET);
    expect(attempts).toEqual([]);
    expect(raw.requests).toHaveLength(0);
  });

  it("a 401 body and x-request-id that echo the Authorization header → redacted in message, body, requestId", async () => {
    raw.handle((req, reply) =>
      whole(
        reply,
        401,
        "application/json",
        JSON.stringify({ error: `Invalid credentials in Authorization header: ${req.headers.authorization}` }),
        [["X-Request-Id", `req-${req.headers.authorization}`]],
      ),
    );
    const error = await client()
      .chatCompletion({ model: MODEL, messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(401);
    expect(raw.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(everythingAbout(error)).not.toContain(SECRET);
    expect((error as Error).message).toMatch(/Invalid credentials/);
  });

  it("a plain-text 500 that quotes the token → redacted", async () => {
    raw.handle((_req, reply) => whole(reply, 500, "text/plain", `upstream said: token ${SECRET} rejected`));
    const error = await client()
      .chatCompletion({ model: MODEL, messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(everythingAbout(error)).not.toContain(SECRET);
    expect(JSON.stringify((error as HttpError).body)).toMatch(/upstream said/);
  });

  it("an error inside a 200 stream that quotes the token → redacted", async () => {
    raw.handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("Hi"));
      body.chunk(`data: ${JSON.stringify({ error: `bad key ${SECRET}`, error_type: "validation" })}\n\n`);
      body.end();
    });
    const run = await consume(client().chatCompletionStream({ model: MODEL, messages: QUESTION }));
    expect(run.error).toBeInstanceOf(HttpError);
    expect(run.tokens).toEqual(["Hi"]);
    expect(everythingAbout(run.error)).not.toContain(SECRET);
  });

  it("an HTML 200 that quotes the token → MalformedEventError whose data is redacted", async () => {
    raw.handle((_req, reply) => whole(reply, 200, "text/html", `<html><body>Signed in as ${SECRET}</body></html>`));
    const error = await client()
      .chatCompletion({ model: MODEL, messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as MalformedEventError).data).toMatch(/Signed in as/);
    expect(everythingAbout(error)).not.toContain(SECRET);
  });

  it("a `?token=` in the endpoint URL is sent but never kept in an error", async () => {
    raw.handle((_req, reply) => whole(reply, 500, "application/json", JSON.stringify({ error: "boom" })));
    const c = new InferenceClient("", { endpointUrl: `${raw.url}/x?token=${SECRET}`, maxRetries: 0 });
    const error = await c.chatCompletion({ model: MODEL, messages: QUESTION }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(raw.requests[0]?.target).toContain(SECRET);
    expect(everythingAbout(error)).not.toContain(SECRET);
    expect((error as HttpError).url).toMatch(/token=/);
  });

  it("a refused connection to a URL with `?key=` → ConnectionError naming host:port, the key redacted", async () => {
    const port = await closedPort();
    const c = new InferenceClient(SECRET, { endpointUrl: `http://127.0.0.1:${port}/e?key=${SECRET}`, maxRetries: 0 });
    const error = await c.chatCompletion({ model: MODEL, messages: QUESTION }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect((error as ConnectionError).url).toContain(`127.0.0.1:${port}`);
    expect(everythingAbout(error)).not.toContain(SECRET);
  });
});

describe("the model id cannot re-route the request", () => {
  const hub = (): InferenceClient => new InferenceClient(SECRET, { baseUrl: raw.url, maxRetries: 0 });

  it.each(["../../admin", "a?b", "a#b", "a\\..\\x", "a/b/../../x", "org//name", "a/b/c", "", "bad\nid"])(
    "%j → InputError on model, no request",
    async (model) => {
      const error = await hub()
        .chatCompletion({ model, messages: QUESTION })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe("model");
      expect(raw.requests).toHaveLength(0);
    },
  );

  it("`%2e%2e/x` is sent as a literal name, its percent signs encoded", async () => {
    raw.handle((_req, reply) => whole(reply, 200, "application/json", answer("ok")));
    const out = await hub().chatCompletion({ model: "%2e%2e/x", messages: QUESTION });
    expect(out.choices[0]?.message.content).toBe("ok");
    expect(raw.requests.map((r) => r.target)).toEqual(["/models/%252e%252e/x/v1/chat/completions"]);
  });

  it("`org/name` keeps its one slash", async () => {
    raw.handle((_req, reply) => whole(reply, 200, "application/json", answer("ok")));
    await hub().chatCompletion({ model: "meta-llama/Llama-3.1-8B-Instruct", messages: QUESTION });
    expect(raw.requests[0]?.target).toBe("/models/meta-llama/Llama-3.1-8B-Instruct/v1/chat/completions");
  });
});

describe("durations and server waits are held to what timers can hold", () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  beforeAll(() => void process.on("warning", onWarning));
  afterAll(() => void process.off("warning", onWarning));

  it.each([
    { timeout: 3e9 },
    { idleTimeout: 3e9 },
    { firstChunkTimeout: 3e9 },
    { stallTimeout: 3e9 },
    { timeout: Infinity },
  ])("%o: the answer streams, no timer fires early, no TimeoutOverflowWarning", async (options) => {
    warnings.length = 0;
    raw.handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("Hello"));
      await sleep(30);
      body.chunk(chunk(" there", "stop"));
      body.chunk("data: [DONE]\n\n");
      body.end();
    });
    const run = await within(
      consume(client(options).chatCompletionStream({ model: MODEL, messages: QUESTION })),
      undefined,
      "stream",
    );
    expect(run.error).toBeUndefined();
    expect(text(run.chunks)).toBe("Hello there");
    // every limit was given to a timer as one it can hold (a longer one fires at once)
    const set = timeline.entries.filter((e) => e.startsWith("sdk set ")).map((e) => Number(e.slice("sdk set ".length)));
    expect(set.length).toBeGreaterThan(0);
    for (const ms of set) expect(ms).toBeLessThanOrEqual(MAX_TIMER_MS);
    await sleep(20);
    expect(warnings.filter((w) => w.includes("TimeoutOverflow"))).toEqual([]);
  });

  it.each([
    ["1e9", "1e9"],
    ["1e999 (Infinity once parsed)", "1e999"],
  ])(
    "a 503 loading with estimated_time %s and no deadline → one request, then a long wait (not a 1 ms loop)",
    async (_name, estimate) => {
      raw.handle((_req, reply) =>
        whole(
          reply,
          503,
          "application/json",
          `{"error":"Model ${MODEL} is currently loading","estimated_time":${estimate}}`,
        ),
      );
      const waits: number[] = [];
      const controller = new AbortController();
      let announced!: () => void;
      const waiting = new Promise<void>((resolve) => (announced = resolve));
      const onRetry = (e: { delayMs: number }): void => (waits.push(e.delayMs), announced());
      const call = client({ signal: controller.signal, onRetry }).chatCompletion({ model: MODEL, messages: QUESTION });
      const settled = call.catch((e: unknown) => e);
      await within(waiting, undefined, "the loading wait");
      await turn();
      controller.abort();
      expect((await within(settled, undefined, "abort")) as Error).toMatchObject({ name: "AbortError" });
      expect(raw.requests).toHaveLength(1);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThanOrEqual(60_000);
      expect(waits[0]).toBeLessThan(61_000);
      // the wait is one timer of that length (a timer a runtime can hold), still pending when the call was aborted
      expect(timeline.entries).toContain(`sdk set ${waits[0]}`);
      expect(fired()).toEqual([]);
    },
  );

  it("a 503 loading with estimated_time 1e9 and a deadline → ModelLoadingError at once (the wait passes the deadline)", async () => {
    raw.handle((_req, reply) =>
      whole(reply, 503, "application/json", `{"error":"Model ${MODEL} is currently loading","estimated_time":1e9}`),
    );
    const onRetry = vi.fn();
    const call = client({ timeout: 2000, onRetry }).chatCompletion({ model: MODEL, messages: QUESTION });
    const error = await within(
      call.catch((e: unknown) => e),
      undefined,
      "loading",
    );
    expect(error).toBeInstanceOf(ModelLoadingError);
    expect(raw.requests).toHaveLength(1);
    // no wait announced, and the deadline never fired: it failed at once
    expect(onRetry).not.toHaveBeenCalled();
    expect(fired()).toEqual([]);
  });

  it("a 503 loading with estimated_time 0 → polls at most once a second, not a tight loop", async () => {
    raw.handle((_req, reply) =>
      whole(reply, 503, "application/json", `{"error":"Model ${MODEL} is currently loading","estimated_time":0}`),
    );
    const waits: number[] = [];
    const controller = new AbortController();
    const fetchMarked: FetchLike = (input, init) => (timeline.mark("fetch"), fetch(input, init));
    // aborted a turn after the second wait began: the first was waited out in full
    const onRetry = (e: { delayMs: number }): void =>
      void (waits.push(e.delayMs) === 2 && turn().then(() => controller.abort()));
    const call = client({ signal: controller.signal, fetch: fetchMarked, onRetry }).chatCompletion({
      model: MODEL,
      messages: QUESTION,
    });
    const error = await within(
      call.catch((e: unknown) => e),
      undefined,
      "loading",
    );
    expect(error).toMatchObject({ name: "AbortError" });
    expect(raw.requests).toHaveLength(2);
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(1000);
    expectWaitsKept(timeline, waits);
  }, 30_000);

  it("a negative estimated_time is not a wait → ModelLoadingError without an estimate", async () => {
    raw.handle((_req, reply) =>
      whole(reply, 503, "application/json", `{"error":"Model ${MODEL} is currently loading","estimated_time":-5}`),
    );
    const events: number[] = [];
    const error = await client({ timeout: 800, onRetry: (e) => void events.push(e.delayMs) })
      .chatCompletion({ model: MODEL, messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadingError);
    expect((error as ModelLoadingError).estimatedTime).toBeUndefined();
    expect(raw.requests).toHaveLength(1);
  });
});

describe("arguments and settings are refused before any request", () => {
  const cyclic: Record<string, unknown> = { role: "user", content: "hi" };
  cyclic.self = cyclic;
  const cases: Array<[string, Record<string, unknown>]> = [
    ["a cycle", { messages: [cyclic] }],
    ["a BigInt", { messages: QUESTION, metadata: { n: 10n } }],
    [
      "a throwing toJSON",
      {
        messages: QUESTION,
        extra: {
          toJSON: () => {
            throw new Error("nope");
          },
        },
      },
    ],
  ];
  it.each(cases)("%s → InputError at once, zero requests", async (_name, args) => {
    const attempts: string[] = [];
    const c = client({ maxRetries: 3, fetch: (input, init) => (attempts.push(input), fetch(input, init)) });
    const error = await c.chatCompletion({ model: MODEL, ...args } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    // refused before any wait or limit could run: no timer of the SDK fired
    expect(fired()).toEqual([]);
    expect(attempts).toEqual([]);
  });

  it.each([
    ["baseUrl", "localhost:8080"],
    ["baseUrl", "not-a-url"],
    ["baseUrl", "ftp://example.com"],
    ["endpointUrl", "127.0.0.1:8080"],
  ])("%s %j → InputError naming it, zero requests", async (field, value) => {
    const attempts: string[] = [];
    const c = new InferenceClient(SECRET, {
      [field]: value,
      fetch: (input, init) => (attempts.push(input), fetch(input, init)),
    });
    const error = await c.chatCompletion({ model: MODEL, messages: QUESTION }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(field);
    expect(attempts).toEqual([]);
  });

  it.each([
    ["max_tokens", 1.5],
    ["max_tokens", 2 ** 60],
    ["seed", Number.NaN],
    ["top_logprobs", -1],
    ["n", Infinity],
  ])("%s = %d → InputError naming the field", async (field, value) => {
    const error = await client()
      .chatCompletion({ model: MODEL, messages: QUESTION, [field]: value })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(field);
    expect(raw.requests).toHaveLength(0);
  });

  it("a token with a newline → InputError that does not echo it", async () => {
    const c = new InferenceClient(`${SECRET}\nX-Injected: 1`, { endpointUrl: raw.url });
    const error = await c.chatCompletion({ model: MODEL, messages: QUESTION }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(everythingAbout(error)).not.toContain(SECRET);
    expect(raw.requests).toHaveLength(0);
  });
});

describe("headers and media types as HTTP defines them", () => {
  it("`Text/Event-Stream; Charset=UTF-8` and mixed-case header names → streamed", async () => {
    raw.handle((_req, reply) => {
      const body = chunked(reply, 200, [["CONTENT-TYPE", "Text/Event-Stream; Charset=UTF-8"]]);
      body.chunk(chunk("Hello"));
      body.chunk(chunk("!", "stop"));
      body.end();
    });
    const run = await consume(client().chatCompletionStream({ model: MODEL, messages: QUESTION }));
    expect(run.error).toBeUndefined();
    expect(text(run.chunks)).toBe("Hello!");
  });

  it("a bare JSON error under text/event-stream → the server's error, its message kept", async () => {
    raw.handle((_req, reply) =>
      whole(
        reply,
        200,
        "text/event-stream",
        JSON.stringify({
          error: "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096",
          error_type: "validation",
        }),
      ),
    );
    const run = await consume(client().chatCompletionStream({ model: MODEL, messages: QUESTION }));
    expect(run.error).toBeInstanceOf(HttpError);
    expect((run.error as Error).message).toMatch(/must be <= 4096/);
  });

  it("a bare JSON answer under text/event-stream → the answer, yielded", async () => {
    raw.handle((_req, reply) => whole(reply, 200, "text/event-stream", answer("Paris.")));
    const run = await consume(client().chatCompletionStream({ model: MODEL, messages: QUESTION }));
    expect(run.error).toBeUndefined();
    expect(text(run.chunks)).toBe("Paris.");
    expect(run.chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("a final event that ends the body without its blank line → dispatched, the answer complete", async () => {
    raw.handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("Hello"));
      body.chunk(chunk(" world", "stop").trimEnd());
      body.end();
    });
    const run = await consume(client().chatCompletionStream({ model: MODEL, messages: QUESTION }));
    expect(run.error).toBeUndefined();
    expect(text(run.chunks)).toBe("Hello world");
  });
});

describe("a 2xx that is not a stream is read with a bound", () => {
  const MB = 1024 * 1024;
  async function pourHtml(reply: RawReply, total = 50 * MB): Promise<void> {
    const body = chunked(reply, 200, [["Content-Type", "text/html"]]);
    const piece = `<div>${"x".repeat(64 * 1024 - 11)}</div>`;
    for (let sent = 0; sent < total && !reply.closed; sent += piece.length) {
      if (!body.chunk(piece)) await reply.drained();
    }
    if (!reply.closed) body.end();
  }

  it.each(["chatCompletion", "chatCompletionStream"] as const)(
    "%s: 50 MB of HTML in a 200 → MalformedEventError, data ≤ 64 KiB, most of it never read",
    async (method) => {
      raw.handle((_req, reply) => pourHtml(reply));
      const c = client();
      const error =
        method === "chatCompletion"
          ? await c.chatCompletion({ model: MODEL, messages: QUESTION }).catch((e: unknown) => e)
          : (await consume(c.chatCompletionStream({ model: MODEL, messages: QUESTION }))).error;
      expect(error).toBeInstanceOf(MalformedEventError);
      expect((error as MalformedEventError).data.length).toBeLessThanOrEqual(64 * 1024);
      await sleep(100);
      expect(raw.written.reduce((a, b) => a + b, 0)).toBeLessThan(10 * MB);
    },
  );
});

describe("include_usage does not wait for usage that never comes", () => {
  it("no usage and the socket left open → done about 2 s after the finish, not at idleTimeout", async () => {
    raw.handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("Hi", "stop"));
    });
    const run = await within(
      consume(
        client({ idleTimeout: 60_000 }).chatCompletionStream({
          model: MODEL,
          messages: QUESTION,
          stream_options: { include_usage: true },
        }),
      ),
      undefined,
      "usage grace",
    );
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["Hi"]);
    // ended by the usage grace: the only SDK timer that fired
    expect(fired()).toEqual([USAGE_GRACE_MS]);
  }, 30_000);
});

describe("retries are spread and bounded", () => {
  it("40 clients refused together with a 429 come back after waits spread over ≥ 300 ms (full jitter)", async () => {
    const seen = new Map<string, number>();
    raw.handle((req, reply) => {
      const id = String(JSON.parse(req.body).user);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (seen.get(id) === 1)
        return whole(reply, 429, "application/json", JSON.stringify({ error: "Rate limit reached" }));
      whole(reply, 200, "application/json", answer("ok"));
    });
    const waits: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const fetchMarked: FetchLike = (input, init) => (timeline.mark(`fetch c${i}`), fetch(input, init));
        const onRetry = (e: { delayMs: number }): void => void (waits[i] = e.delayMs);
        return client({ maxRetries: 1, fetch: fetchMarked, onRetry }).chatCompletion({
          model: MODEL,
          messages: QUESTION,
          user: `c${i}`,
        } as never);
      }),
    );
    expect([...seen.values()]).toEqual(Array(40).fill(2));
    expect(waits.filter((w) => w >= 0)).toHaveLength(40);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThanOrEqual(300);
    // each client came back only after its own wait's timer fired
    const { entries } = timeline;
    waits.forEach((wait, i) => {
      const set = entries.indexOf(`sdk set ${wait}`);
      expect(set).toBeGreaterThan(entries.indexOf(`fetch c${i}`));
      expect(entries.indexOf(`sdk fired ${wait}`)).toBeGreaterThan(set);
      expect(entries.lastIndexOf(`fetch c${i}`)).toBeGreaterThan(entries.indexOf(`sdk fired ${wait}`));
    });
  });

  it("retry-after: 3600 → RateLimitError at once with retryAfterMs 3_600_000, one request", async () => {
    raw.handle((_req, reply) =>
      whole(reply, 429, "application/json", JSON.stringify({ error: "Rate limit reached" }), [["Retry-After", "3600"]]),
    );
    const onRetry = vi.fn();
    const error = await client({ maxRetries: 3, onRetry })
      .chatCompletion({ model: MODEL, messages: QUESTION })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(raw.requests).toHaveLength(1);
    // no wait announced, none begun
    expect(onRetry).not.toHaveBeenCalled();
    expect(fired()).toEqual([]);
  });
});
