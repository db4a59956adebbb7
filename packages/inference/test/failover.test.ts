/**
 * Failover through real HTTP on loopback: a raw server plays the HF router (its `/v1/models` catalog
 * and its chat route), each provider behaving as a test says. Each test asserts which requests were
 * sent, in what order, and that none follows the first token.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConnectionError,
  estimateCost,
  FailoverError,
  type FailoverEvent,
  InferenceClient,
  InputError,
  type Options,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../src/index";
import { chunked, type RawReply, type RawServer, startRawServer, whole } from "./faults/raw-server";
import { within } from "./helpers";
import { catalogMemory } from "../src/features/catalog";

const SECRET = "hf_FailoverSecretToken1234567890abcdef";
const ROUTER = "https://router.huggingface.co";
const QUESTION = [{ role: "user", content: "hi" }];
const MODEL = "org/main";
const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];

type Behaviour =
  | "ok"
  | "refuse"
  | "stall"
  | "inStreamError"
  | "tokenThenError"
  | "keepAlivesOnly"
  | "loadingOnce"
  | { status: number; body?: unknown };

/** What the fake router does, per `model:provider` (`model` alone for the router's choice), and what its catalog lists. */
let behaviours: Record<string, Behaviour> = {};
let catalog: unknown = { object: "list", data: [] };
let raw: RawServer;
/** The replies of the `stall` behaviour, held open. */
const stalled: RawReply[] = [];

const chunkEvent = (content: string, finish: string | null = null, extra: Record<string, unknown> = {}): string =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "served", choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }], ...extra })}\n\n`;

function answer(reply: RawReply, body: Record<string, unknown>, provider: string): void {
  const usage = { prompt_tokens: 1000, completion_tokens: 2000, total_tokens: 3000 };
  if (body.stream !== true) {
    const json = {
      id: "a",
      object: "chat.completion",
      created: 1,
      model: "served",
      choices: [{ index: 0, message: { role: "assistant", content: `from ${provider}` }, finish_reason: "stop" }],
      usage,
    };
    return whole(reply, 200, "application/json", JSON.stringify(json), [["x-inference-provider", provider]]);
  }
  const out = chunked(reply, 200, [...SSE, ["x-inference-provider", provider]]);
  out.chunk(chunkEvent("from "));
  out.chunk(chunkEvent(provider, "stop"));
  out.chunk(
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "served", choices: [], usage })}\n\n`,
  );
  out.chunk("data: [DONE]\n\n");
  out.end();
}

beforeAll(async () => {
  raw = await startRawServer((req, reply) => {
    if (req.method === "GET" && req.target === "/v1/models")
      return whole(reply, 200, "application/json", JSON.stringify(catalog));
    const body = JSON.parse(req.body) as Record<string, unknown>;
    const model = String(body.model);
    const provider = model.includes(":") ? (model.split(":")[1] ?? "") : "picked";
    const behaviour = behaviours[model] ?? { status: 500, body: { error: `no behaviour for ${model}` } };
    if (behaviour === "ok") return answer(reply, body, provider);
    if (behaviour === "refuse") return void reply.socket.destroy();
    if (behaviour === "stall") {
      stalled.push(reply);
      return void chunked(reply, 200, SSE);
    }
    if (behaviour === "inStreamError") {
      const out = chunked(reply, 200, SSE);
      out.chunk(`data: ${JSON.stringify({ error: "Model is overloaded", error_type: "overloaded" })}\n\n`);
      return out.end();
    }
    if (behaviour === "keepAlivesOnly") {
      stalled.push(reply);
      const out = chunked(reply, 200, SSE);
      const timer = setInterval(() => (reply.closed ? clearInterval(timer) : out.chunk(": keep-alive\n\n")), 100);
      return;
    }
    if (behaviour === "loadingOnce") {
      behaviours[model] = "ok";
      return whole(
        reply,
        503,
        "application/json",
        JSON.stringify({ error: `Model ${model} is currently loading`, estimated_time: 1 }),
      );
    }
    if (behaviour === "tokenThenError") {
      const out = chunked(reply, 200, SSE);
      out.chunk(chunkEvent("partial"));
      out.chunk(`data: ${JSON.stringify({ error: "Model is overloaded", error_type: "overloaded" })}\n\n`);
      return out.end();
    }
    whole(
      reply,
      behaviour.status,
      "application/json",
      JSON.stringify(behaviour.body ?? { error: `HTTP ${behaviour.status}` }),
      [["x-inference-provider", provider]],
    );
  });
});
afterAll(() => raw.close());
beforeEach(() => {
  raw.requests.length = 0;
  behaviours = {};
  catalog = { object: "list", data: [] };
  catalogMemory.clear();
  stalled.length = 0;
});

/** The chat requests the router got, as the `model` each named, in order. */
const sent = (): string[] =>
  raw.requests.filter((r) => r.method === "POST").map((r) => String((JSON.parse(r.body) as { model: unknown }).model));

function client(options: Options = {}): InferenceClient {
  return new InferenceClient(SECRET, {
    fetch: (url, init) => fetch(url.replace(ROUTER, raw.url), init),
    logger: { warn: () => {} },
    ...options,
  });
}

async function stream(args: Record<string, unknown>, options: Options = {}) {
  const tokens: string[] = [];
  const chunks: Array<Record<string, unknown>> = [];
  try {
    for await (const c of client(options).chatCompletionStream({ model: MODEL, messages: QUESTION, ...args })) {
      chunks.push(c);
      const t = c.choices[0]?.delta?.content;
      if (t) tokens.push(t);
    }
    return { tokens, chunks, error: undefined };
  } catch (error) {
    return { tokens, chunks, error };
  }
}

const moves = (): { events: FailoverEvent[]; onFailover: (e: FailoverEvent) => void } => {
  const events: FailoverEvent[] = [];
  return { events, onFailover: (e) => events.push(e) };
};

const providerEntry = (provider: string, extra: Record<string, unknown> = {}) => ({
  provider,
  status: "live",
  context_length: 8192,
  pricing: { input: 0.5, output: 2 },
  supports_tools: true,
  supports_structured_output: true,
  ...extra,
});

describe("a stream moves on before its first token", () => {
  it("a refused connection, then a 503 that is not a loading model, then the router's choice answers", async () => {
    behaviours = {
      "org/main:groq": "refuse",
      "org/main:together": { status: 503, body: { error: "overloaded" } },
      "org/main": "ok",
    };
    const { events, onFailover } = moves();
    const run = await stream({ provider: ["groq", "together", "auto"] }, { onFailover });
    expect(run.error).toBeUndefined();
    expect(run.tokens.join("")).toBe("from picked");
    expect(sent()).toEqual(["org/main:groq", "org/main:together", "org/main"]);
    expect(events.map(({ from, to, reason }) => ({ from, to, reason }))).toEqual([
      { from: "org/main:groq", to: "org/main:together", reason: "connection" },
      { from: "org/main:together", to: "org/main:auto", reason: "overloaded" },
    ]);
    expect(events[0]?.error).toBeInstanceOf(ConnectionError);
    expect(events[1]?.error).toBeInstanceOf(ServerError);
    expect(run.chunks.every((c) => (c.served as { provider: string }).provider === "picked")).toBe(true);
    expect(run.chunks[0]?.served).toEqual({ model: "org/main", provider: "picked" });
  });

  it.each([
    ["a 500", { status: 500 }, "server-error"],
    ["a 502", { status: 502 }, "server-error"],
    ["a 429", { status: 429 }, "rate-limit"],
    [
      "the router's 'not supported by provider'",
      { status: 400, body: { error: "Model not supported by provider groq" } },
      "not-served",
    ],
    [
      "the router's 'no provider you have enabled'",
      {
        status: 400,
        body: {
          error: {
            message: "The requested model 'org/main' is not supported by any provider you have enabled.",
            code: "model_not_supported",
          },
        },
      },
      "not-served",
    ],
    ["a provider's 404 for the model", { status: 404, body: { error: "model not found" } }, "not-served"],
  ] as const)("%s moves the call at once, not retried on the same provider", async (_what, behaviour, reason) => {
    behaviours = { "org/main:groq": behaviour, "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const run = await stream({ provider: ["groq", "together"] }, { onFailover, maxRetries: 2 });
    expect(run.error).toBeUndefined();
    expect(run.tokens.join("")).toBe("from together");
    expect(sent()).toEqual(["org/main:groq", "org/main:together"]);
    expect(events.map((e) => e.reason)).toEqual([reason]);
  });

  it("an error inside a 200 stream before any token moves the call", async () => {
    behaviours = { "org/main:groq": "inStreamError", "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const run = await stream({ provider: ["groq", "together"] }, { onFailover });
    expect(run.tokens.join("")).toBe("from together");
    expect(events.map((e) => e.reason)).toEqual(["stream-error"]);
  });

  it("the first-chunk limit of one candidate moves the call; the next has its own limit", async () => {
    behaviours = { "org/main:groq": "stall", "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const run = await within(
      stream({ provider: ["groq", "together"] }, { onFailover, firstChunkTimeout: 1500 }),
      20_000,
    );
    expect(run.error).toBeUndefined();
    expect(run.tokens.join("")).toBe("from together");
    expect(events.map((e) => e.reason)).toEqual(["timeout"]);
    expect((events[0]?.error as TimeoutError).kind).toBe("first-chunk");
  });

  it("the stall limit (keep-alives, no data) before any token moves the call", async () => {
    behaviours = { "org/main:groq": "keepAlivesOnly", "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const run = await within(stream({ provider: ["groq", "together"] }, { onFailover, stallTimeout: 1500 }), 20_000);
    expect(run.error).toBeUndefined();
    expect(run.tokens.join("")).toBe("from together");
    expect(events.map((e) => [e.reason, (e.error as TimeoutError).kind])).toEqual([["timeout", "stall"]]);
  });

  it("a model that is loading is waited for on the same candidate, not failed over", async () => {
    behaviours = { "org/main:groq": "loadingOnce", "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const waits: string[] = [];
    const run = await within(
      stream({ provider: ["groq", "together"] }, { onFailover, onRetry: (e) => waits.push(e.reason) }),
      20_000,
    );
    expect(run.tokens.join("")).toBe("from groq");
    expect(waits).toEqual(["loading"]);
    expect(sent()).toEqual(["org/main:groq", "org/main:groq"]);
    expect(events).toEqual([]);
  });

  it("after the first token nothing moves: the error is the call's, and no other request is sent", async () => {
    behaviours = { "org/main:groq": "tokenThenError", "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const run = await stream({ provider: ["groq", "together"] }, { onFailover });
    expect(run.tokens).toEqual(["partial"]);
    expect(run.error).toBeInstanceOf(RateLimitError);
    expect(run.error).not.toBeInstanceOf(FailoverError);
    expect(sent()).toEqual(["org/main:groq"]);
    expect(events).toEqual([]);
  });
});

describe("a caller's mistake fails at once", () => {
  it.each([
    [
      "a 400 on the arguments",
      { status: 400, body: { error: "Input validation error: max_tokens is too large" } },
      ValidationError,
    ],
    ["a 401", { status: 401, body: { error: "Invalid credentials" } }, AuthenticationError],
  ] as const)("%s: no other candidate is tried", async (_what, behaviour, Cls) => {
    behaviours = { "org/main:groq": behaviour, "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const run = await stream({ provider: ["groq", "together"] }, { onFailover });
    expect(run.error).toBeInstanceOf(Cls);
    expect(sent()).toEqual(["org/main:groq"]);
    expect(events).toEqual([]);
  });

  it.each([
    ["an empty provider list", { provider: [] }, "provider"],
    ["a provider that is not a string", { provider: ["groq", 5] }, "provider[1]"],
    ["a provider that is not a name", { provider: ["groq", "to gether"] }, "provider[1]"],
    ["a repeated provider", { provider: ["groq", "together", "groq"] }, "provider[2]"],
    ["fallbackModels that is not a list", { fallbackModels: "org/b" }, "fallbackModels"],
    ["a fallback model that is not a model id", { fallbackModels: ["org/b", "not an id"] }, "fallbackModels[1]"],
    ["a fallback model with an empty provider", { fallbackModels: ["org/b:"] }, "fallbackModels[0]"],
    ["a fallback model that is a number", { fallbackModels: [7] }, "fallbackModels[0]"],
    [
      "a fallback model repeating a candidate",
      { provider: ["groq"], fallbackModels: ["org/main:groq"] },
      "fallbackModels[0]",
    ],
    [
      "a model with a provider suffix beside a provider list",
      { model: "org/main:groq", provider: ["together"] },
      "provider",
    ],
    ["more than 16 candidates", { provider: Array.from({ length: 17 }, (_, i) => `p${i}`) }, "provider"],
    ["a bad argument of the chat itself", { provider: ["groq"], top_p: 5 }, "top_p"],
    [
      "a provider list beside an endpoint",
      { provider: ["groq", "together"], endpointUrl: "http://127.0.0.1:9" },
      "provider",
    ],
    ["a provider that is neither a name nor a list", { provider: 5 }, "provider"],
    ["a provider that is an object", { provider: { name: "groq" } }, "provider"],
  ] as const)("%s: an InputError naming `%s`, before any request", async (_what, args, field) => {
    behaviours = { "org/main:groq": "ok", "org/main:together": "ok" };
    const run = await stream(args);
    expect(run.error).toBeInstanceOf(InputError);
    expect((run.error as InputError).field).toBe(field);
    expect(raw.requests).toEqual([]);
  });

  it("the client's provider that is neither a name nor a list: an InputError naming provider, before any request", async () => {
    const run = await stream({}, { provider: 5 as unknown as string });
    expect((run.error as InputError).field).toBe("provider");
    expect(raw.requests).toEqual([]);
  });

  it("onFailover that is not a function: an InputError naming it, before any request", async () => {
    const run = await stream({ provider: ["groq"] }, { onFailover: "log" as unknown as () => void });
    expect((run.error as InputError).field).toBe("onFailover");
    expect(raw.requests).toEqual([]);
  });
});

describe("every candidate failed", () => {
  it("one FailoverError whose attempts hold each typed error in order, the token in none of it", async () => {
    behaviours = {
      "org/main:groq": { status: 502, body: { error: `upstream said ${SECRET}` } },
      "org/main:together": "refuse",
      "org/b": { status: 429, body: { error: "slow down" } },
    };
    const run = await stream({ provider: ["groq", "together"], fallbackModels: ["org/b"] }, { maxRetries: 0 });
    expect(run.error).toBeInstanceOf(FailoverError);
    const error = run.error as FailoverError;
    expect(error.attempts.map((a) => [a.candidate, a.reason, a.error?.name])).toEqual([
      ["org/main:groq", "server-error", "ServerError"],
      ["org/main:together", "connection", "ConnectionError"],
      ["org/b:auto", "rate-limit", "RateLimitError"],
    ]);
    expect(error.message).toMatch(
      /^Every candidate failed: org\/main:groq server-error \(ServerError: .*org\/main:together connection \(ConnectionError: .*org\/b:auto rate-limit \(RateLimitError: /,
    );
    expect(error.cause).toBe(error.attempts[2]?.error);
    const everything = JSON.stringify({
      message: error.message,
      stack: error.stack,
      attempts: error.attempts.map((a) => ({
        ...a,
        message: a.error?.message,
        body: (a.error as { body?: unknown })?.body,
      })),
    });
    expect(everything).not.toContain(SECRET);
    expect(everything).toContain("[redacted]");
  });

  it("the retry budget counts across candidates: the last one retries only what the moves left", async () => {
    behaviours = { "org/main:groq": { status: 502 }, "org/main:together": { status: 502 } };
    const run = await stream({ provider: ["groq", "together"] }, { maxRetries: 2, onRetry: () => {} });
    expect(run.error).toBeInstanceOf(FailoverError);
    // groq: one try (a move uses one unit of the budget); together, the last: one try and one retry.
    expect(sent()).toEqual(["org/main:groq", "org/main:together", "org/main:together"]);
  });
});

describe("routerUrl", () => {
  it("sends the chat and the catalog to another router (a mock hub), no fetch needed", async () => {
    catalog = {
      object: "list",
      data: [{ id: MODEL, providers: [providerEntry("groq", { supports_tools: false }), providerEntry("together")] }],
    };
    behaviours = { "org/main:together": "ok" };
    const own = new InferenceClient(SECRET, { routerUrl: `${raw.url}/`, logger: { warn: () => {} } });
    const out = await own.chatCompletion({
      model: MODEL,
      messages: QUESTION,
      provider: ["groq", "together"],
      tools: [{ type: "function", function: { name: "f" } }],
    });
    expect(out.served?.provider).toBe("together");
    expect(raw.requests.map((r) => `${r.method} ${r.target}`)).toEqual(["GET /v1/models", "POST /v1/chat/completions"]);
  });

  it("that is not an http(s) URL is an InputError naming it, before any request", async () => {
    const error = await client({ routerUrl: "ftp://router" })
      .chatCompletion({ model: MODEL, messages: QUESTION })
      .catch((e: unknown) => e);
    expect((error as InputError).field).toBe("routerUrl");
    expect(raw.requests).toEqual([]);
  });
});

describe("fallback models", () => {
  it("are tried after the main model's providers, in order, a suffix naming the provider", async () => {
    behaviours = { "org/main:groq": { status: 500 }, "org/b": { status: 500 }, "org/c:novita": "ok" };
    const { events, onFailover } = moves();
    const run = await stream(
      { provider: "groq", fallbackModels: ["org/b", "org/c:novita"] },
      { onFailover, maxRetries: 0 },
    );
    expect(run.tokens.join("")).toBe("from novita");
    expect(sent()).toEqual(["org/main:groq", "org/b", "org/c:novita"]);
    expect(events.map((e) => `${e.from} -> ${e.to}`)).toEqual([
      "org/main:groq -> org/b:auto",
      "org/b:auto -> org/c:novita",
    ]);
    expect(run.chunks[0]?.served).toEqual({ model: "org/c", provider: "novita" });
  });
});

describe("the router's catalog", () => {
  it("skips without a request a provider without tools, one that is not live, one too short for max_tokens", async () => {
    catalog = {
      object: "list",
      data: [
        {
          id: MODEL,
          providers: [
            providerEntry("groq", { supports_tools: false }),
            providerEntry("sambanova", { status: "staging" }),
            providerEntry("novita", { context_length: 100 }),
            providerEntry("together"),
          ],
        },
      ],
    };
    behaviours = {
      "org/main:groq": "ok",
      "org/main:sambanova": "ok",
      "org/main:novita": "ok",
      "org/main:together": "ok",
    };
    const { events, onFailover } = moves();
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const run = await stream(
      { provider: ["groq", "sambanova", "novita", "together"], tools, max_tokens: 500 },
      { onFailover },
    );
    expect(run.error).toBeUndefined();
    expect(sent()).toEqual(["org/main:together"]);
    expect(events.map((e) => [e.from, e.reason, e.error])).toEqual([
      ["org/main:groq", "no-tools", undefined],
      ["org/main:sambanova", "not-live", undefined],
      ["org/main:novita", "context-length", undefined],
    ]);
  });

  it("skips one without structured output for a JSON-schema response_format, and reports skips in the attempts", async () => {
    catalog = {
      object: "list",
      data: [{ id: MODEL, providers: [providerEntry("groq", { supports_structured_output: false })] }],
    };
    const run = await stream({
      provider: ["groq"],
      response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "object" } } },
    });
    expect(run.error).toBeInstanceOf(FailoverError);
    expect((run.error as FailoverError).attempts).toEqual([
      { candidate: "org/main:groq", reason: "no-structured-output" },
    ]);
    expect(sent()).toEqual([]);
  });

  it("a provider the catalog does not list is tried (the router has the last word)", async () => {
    catalog = { object: "list", data: [{ id: MODEL, providers: [providerEntry("together")] }] };
    behaviours = { "org/main:groq": "ok" };
    const run = await stream({
      provider: ["groq", "together"],
      tools: [{ type: "function", function: { name: "f" } }],
    });
    expect(run.tokens.join("")).toBe("from groq");
  });

  it("a catalog that cannot be read skips nothing", async () => {
    catalog = "not json at all";
    behaviours = { "org/main:groq": "ok" };
    const run = await stream({ provider: ["groq"] });
    expect(run.error).toBeUndefined();
    expect(run.tokens.join("")).toBe("from groq");
  });

  it("the whole answer says who served it and what its usage cost at the catalog's prices", async () => {
    catalog = {
      object: "list",
      data: [
        {
          id: MODEL,
          providers: [providerEntry("groq"), providerEntry("together", { pricing: { input: 0.2, output: 0.6 } })],
        },
      ],
    };
    behaviours = { "org/main:groq": { status: 500 }, "org/main:together": "ok" };
    const out = await client({ maxRetries: 0 }).chatCompletion({
      model: MODEL,
      messages: QUESTION,
      provider: ["groq", "together"],
    });
    expect(out.choices[0]?.message.content).toBe("from together");
    expect(out.served).toEqual({
      model: MODEL,
      provider: "together",
      cost: { input: 0.0002, output: 0.0012, total: 0.0014, currency: "USD" },
    });
  });

  it("a streamed answer's usage chunk carries the cost", async () => {
    catalog = { object: "list", data: [{ id: MODEL, providers: [providerEntry("groq")] }] };
    behaviours = { "org/main:groq": "ok" };
    const run = await stream({ provider: ["groq"], stream_options: { include_usage: true } });
    const last = run.chunks.at(-1);
    expect(last?.served).toEqual({
      model: MODEL,
      provider: "groq",
      cost: estimateCost({ prompt_tokens: 1000, completion_tokens: 2000 }, { input: 0.5, output: 2 }),
    });
    expect(run.chunks[0]?.served).toEqual({ model: MODEL, provider: "groq" });
  });
});

describe("one clock over the candidates", () => {
  it("the call's timeout ends the call: it does not move to the next candidate", async () => {
    behaviours = { "org/main:groq": "stall", "org/main:together": "ok" };
    const { events, onFailover } = moves();
    const run = await within(stream({ provider: ["groq", "together"] }, { onFailover, timeout: 1500 }), 20_000);
    expect(run.error).toBeInstanceOf(TimeoutError);
    expect((run.error as TimeoutError).kind).toBe("deadline");
    expect(sent()).toEqual(["org/main:groq"]);
    expect(events).toEqual([]);
  });

  it("a consumer that stops before the first token aborts the candidate's request", async () => {
    behaviours = { "org/main:groq": "stall" };
    const iterator = client().chatCompletionStream({
      model: MODEL,
      messages: QUESTION,
      provider: ["groq", "together"],
    });
    const pending = iterator.next();
    await within(
      (async () => {
        while (sent().length === 0) await new Promise((r) => setTimeout(r, 10));
      })(),
      10_000,
    );
    await iterator.return(undefined);
    expect(await pending).toEqual({ done: true, value: undefined });
    await within(stalled[0]?.closedPromise ?? Promise.reject(new Error("no stalled reply")), 10_000);
    expect(sent()).toEqual(["org/main:groq"]);
  });
});

describe("a provider list on the client", () => {
  it("fails over a chat as the call's own list does (the call's own provider comes first)", async () => {
    behaviours = { "org/main:groq": { status: 503 }, "org/main:together": "ok" };
    const run = await stream({}, { provider: ["groq", "together"] as unknown as string });
    expect(run.error).toBeUndefined();
    expect(sent()).toEqual(["org/main:groq", "org/main:together"]);
    raw.requests.length = 0;
    const own = await stream({ provider: "together" }, { provider: ["groq", "together"] as unknown as string });
    expect(own.error).toBeUndefined();
    expect(sent()).toEqual(["org/main:together"]);
  });

  it("is an InputError naming provider for a task that does not fail over", async () => {
    const error = await client({ provider: ["groq", "together"] as unknown as string })
      .textGenerationStream({ model: MODEL, inputs: "hi" })
      .next()
      .catch((e: unknown) => e);
    expect((error as InputError).field).toBe("provider");
    expect(raw.requests).toEqual([]);
  });
});

describe("where there is no failover", () => {
  it("textGenerationStream with a provider list: an InputError naming provider, before any request", async () => {
    const error = await client()
      .textGenerationStream({ model: MODEL, inputs: "hi", provider: ["groq", "together"] as unknown as string })
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("provider");
    expect(raw.requests).toEqual([]);
  });
});
