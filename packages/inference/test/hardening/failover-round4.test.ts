/**
 * Round four on failover, through real HTTP on loopback: raw `node:net` servers play the HF router (and the
 * Hub), a dedicated endpoint and two providers' own APIs, each doing what a broken or hostile server does.
 * A credential reaches only the host it belongs to; failover commits at the first chunk with content, not
 * the first chunk; an argument error fails at once whatever its framing. Each test failed before its fix
 * (the bound ones pin a decision that held before too).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ChatCompletionStreamOutput,
  chatCompletion,
  chatCompletionStream,
  FailoverError,
  type FailoverEvent,
  InputError,
  type Options,
  responses,
  responsesStream,
  ServerError,
  textGeneration,
  ValidationError,
} from "../../src/index";
import { catalogMemory } from "../../src/features/catalog";
import { HELD_BYTES, HELD_CHUNKS } from "../../src/features/commitment";
import { mappingMemory } from "../../src/targets/providers/mapping";
import { chunked, type RawReply, type RawRequest, type RawServer, startRawServer, whole } from "../faults/raw-server";
import { within } from "../faults/support";

const JSON_TYPE = "application/json";
const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];
const QUESTION = [{ role: "user" as const, content: "hi" }];
const ENDPOINT_KEY = "sk-endpoint-own-key-0123456789";
const TOGETHER_KEY = "tgp_v1_together_own_key_0123456789";
const ENV_TOKEN = "hf_RoundFourEnvironmentToken0123456789";

const servers: Record<"router" | "endpoint" | "together" | "featherless", RawServer> = {} as never;
/** The providers' own APIs, onto their loopback servers; any other https host is refused (and recorded). */
const OWN_APIS: Record<string, keyof typeof servers> = {
  "https://api.together.xyz": "together",
  "https://api.featherless.ai": "featherless",
};
const elsewhere: string[] = [];
const hostFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input);
  const api = Object.keys(OWN_APIS).find((o) => url.startsWith(`${o}/`));
  if (api) return fetch(servers[OWN_APIS[api] as keyof typeof servers].url + url.slice(api.length), init);
  if (url.startsWith("http://127.0.0.1:")) return fetch(url, init);
  elsewhere.push(url);
  return Promise.reject(new TypeError("fetch failed: no such host here"));
}) as typeof fetch;

beforeAll(async () => {
  for (const name of ["router", "endpoint", "together", "featherless"] as const) servers[name] = await startRawServer();
});
afterAll(() => Promise.all(Object.values(servers).map((s) => s.close())));
afterEach(() => {
  for (const s of Object.values(servers)) s.requests.length = 0;
  elsewhere.length = 0;
  catalogMemory.clear();
  mappingMemory.clear();
  vi.unstubAllEnvs();
});

/** Each host's Authorization headers, in order (`-` for none). */
const authSeen = (): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(servers).map(([name, s]) => [name, s.requests.map((r) => r.headers.authorization ?? "-")]),
  );
const noRequests = (): void => {
  expect(Object.values(servers).flatMap((s) => s.requests)).toEqual([]);
  expect(elsewhere).toEqual([]);
};
const options = (more: Options = {}): Options => ({
  routerUrl: servers.router.url,
  hubUrl: servers.router.url,
  fetch: hostFetch,
  maxRetries: 0,
  logger: { warn() {} },
  ...more,
});
const withoutEnvToken = (): void => {
  vi.stubEnv("HF_TOKEN", "");
  vi.stubEnv("HUGGING_FACE_HUB_TOKEN", "");
};

const chunk = (id: string, delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const ROLE_ONLY = { role: "assistant", content: "" };
const completion = (text: string) => ({
  id: "a",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
});
const event = (type: string, more: Record<string, unknown> = {}): string =>
  `data: ${JSON.stringify({ type, ...more })}\n\n`;
const envelope = (status: string, text = "") => ({
  id: "resp_1",
  object: "response",
  created_at: 1,
  status,
  model: "m",
  output: text
    ? [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text, annotations: [] }],
        },
      ]
    : [],
});

/** A router that answers every request of the HF router and the Hub; `serve` answers its inference requests. */
function router(serve: (req: RawRequest, reply: RawReply, model: string) => void): void {
  servers.router.handle((req, reply) => {
    if (req.target === "/v1/models") return whole(reply, 200, JSON_TYPE, JSON.stringify({ object: "list", data: [] }));
    if (req.target.startsWith("/api/models/")) {
      const mapping = {
        together: { providerId: "t/m", task: "text-generation", status: "live" },
        "featherless-ai": { providerId: "f/m", task: "text-generation", status: "live" },
      };
      return whole(reply, 200, JSON_TYPE, JSON.stringify({ id: "org/main", inferenceProviderMapping: mapping }));
    }
    serve(req, reply, String((JSON.parse(req.body || "{}") as { model?: unknown }).model));
  });
}

/** A healthy answer to any inference request: chat (whole or streamed), a response (whole or streamed), a generation. */
function healthy(req: RawRequest, reply: RawReply, id = "winner"): void {
  const body = JSON.parse(req.body || "{}") as { stream?: boolean };
  if (req.target.includes("/responses")) {
    if (!body.stream) return whole(reply, 200, JSON_TYPE, JSON.stringify(envelope("completed", "from the router")));
    const out = chunked(reply, 200, SSE);
    out.chunk(event("response.created", { response: envelope("in_progress") }));
    out.chunk(
      event("response.output_text.delta", {
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: "from the router",
      }),
    );
    out.chunk(event("response.completed", { response: envelope("completed", "from the router") }));
    return out.end();
  }
  if (req.target.includes("/chat/completions")) {
    if (!body.stream) return whole(reply, 200, JSON_TYPE, JSON.stringify(completion("from the router")));
    const out = chunked(reply, 200, SSE);
    for (const [i, c] of [ROLE_ONLY, { content: "" }, { content: "from " }, { content: id }].entries())
      out.chunk(chunk(`${id}-${i}`, c));
    out.chunk(chunk(`${id}-4`, {}, "stop"));
    out.chunk("data: [DONE]\n\n");
    return out.end();
  }
  if (req.target.includes("/completions"))
    return whole(
      reply,
      200,
      JSON_TYPE,
      JSON.stringify({ choices: [{ text: "from a provider", finish_reason: "stop" }] }),
    );
  whole(reply, 200, JSON_TYPE, JSON.stringify([{ generated_text: "from hf-inference" }]));
}

const failing = (_req: RawRequest, reply: RawReply): void =>
  whole(reply, 502, JSON_TYPE, JSON.stringify({ error: "upstream is down" }));

describe("class 1: a credential goes only to the host it belongs to", () => {
  it("textGeneration with together's own key: the next provider's own API never receives it", async () => {
    servers.together.handle(failing);
    servers.featherless.handle(healthy);
    router(healthy);
    withoutEnvToken();
    const args = {
      accessToken: TOGETHER_KEY,
      model: "org/main",
      inputs: "Once",
      provider: ["together", "featherless-ai"],
    };
    const error = await textGeneration(args, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("provider[1]");
    expect((error as Error).message).not.toContain(TOGETHER_KEY);
    noRequests();
  });

  it("…and with an HF token in the environment, the next provider is reached through the router with that token", async () => {
    servers.together.handle(failing);
    servers.featherless.handle(healthy);
    router(healthy);
    vi.stubEnv("HF_TOKEN", ENV_TOKEN);
    const args = {
      accessToken: TOGETHER_KEY,
      model: "org/main",
      inputs: "Once",
      provider: ["together", "featherless-ai"],
    };
    const out = await textGeneration(args, options());
    expect(out.served?.provider).toBe("featherless-ai");
    const seen = authSeen();
    expect(seen.together).toEqual([`Bearer ${TOGETHER_KEY}`]);
    expect(seen.featherless).toEqual([]);
    // The Hub's mapping for together's candidate is asked with no token (a provider's key never goes to the Hub).
    expect(seen.router).toContain(`Bearer ${ENV_TOKEN}`);
    expect(seen.router?.every((a) => a === `Bearer ${ENV_TOKEN}` || a === "-")).toBe(true);
    expect(
      servers.router.requests.filter((r) => r.method === "POST").map((r) => [r.target, r.headers.authorization]),
    ).toEqual([["/featherless-ai/v1/completions", `Bearer ${ENV_TOKEN}`]]);
  });

  it("textGeneration with a provider's key and \"auto\" (the Hub's mapping picks the API): an InputError naming it, before any request", async () => {
    router(healthy);
    withoutEnvToken();
    const args = { accessToken: TOGETHER_KEY, model: "org/main", inputs: "Once", provider: ["auto", "together"] };
    const error = await textGeneration(args, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("provider[0]");
    noRequests();
  });

  type Run = (args: Record<string, unknown>, o: Options) => Promise<unknown>;
  const drain = async (it: AsyncIterable<unknown>): Promise<void> => {
    for await (const _ of it);
  };
  const paths: Array<[string, Run]> = [
    ["chatCompletion", (a, o) => chatCompletion({ messages: QUESTION, ...a } as never, o)],
    ["chatCompletionStream", (a, o) => drain(chatCompletionStream({ messages: QUESTION, ...a } as never, o))],
    ["responses", (a, o) => responses({ input: "hi", ...a } as never, o)],
    ["responsesStream", (a, o) => drain(responsesStream({ input: "hi", ...a } as never, o))],
    ["textGeneration", (a, o) => textGeneration({ inputs: "Once", ...a } as never, o)],
  ];
  const endpointArgs = (fallback: string) => ({
    accessToken: ENDPOINT_KEY,
    endpointUrl: servers.endpoint.url,
    model: "org/main",
    fallbackModels: [fallback],
  });
  const fallbackOf = (name: string): string => (name === "textGeneration" ? "org/b:hf-inference" : "org/b");

  it.each(paths)(
    "%s with an endpoint's key and fallbackModels: the router never receives that key",
    async (name, run) => {
      servers.endpoint.handle(failing);
      router(healthy);
      vi.stubEnv("HF_TOKEN", ENV_TOKEN);
      await run(endpointArgs(fallbackOf(name)), options());
      const seen = authSeen();
      expect(seen.endpoint?.length).toBeGreaterThan(0);
      expect(seen.endpoint?.every((a) => a === `Bearer ${ENDPOINT_KEY}`)).toBe(true);
      expect(seen.router?.length).toBeGreaterThan(0);
      expect(seen.router?.every((a) => a === `Bearer ${ENV_TOKEN}`)).toBe(true);
    },
  );

  it.each(paths)(
    "%s with an endpoint's key and no HF token for the router: an InputError naming the fallback, before any request",
    async (name, run) => {
      servers.endpoint.handle(failing);
      router(healthy);
      withoutEnvToken();
      const error = await run(endpointArgs(fallbackOf(name)), options()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe("fallbackModels[0]");
      expect((error as Error).message).not.toContain(ENDPOINT_KEY);
      noRequests();
    },
  );

  it("an HF token still goes to the endpoint the call names and to the router (both are where it was given for)", async () => {
    servers.endpoint.handle(failing);
    router(healthy);
    withoutEnvToken();
    await chatCompletion({ ...endpointArgs("org/b"), accessToken: ENV_TOKEN, messages: QUESTION }, options());
    const seen = authSeen();
    expect([...(seen.endpoint ?? []), ...(seen.router ?? [])].every((a) => a === `Bearer ${ENV_TOKEN}`)).toBe(true);
    expect(seen.router?.length).toBeGreaterThan(0);
  });
});

/** Reads a chat stream to its end: the chunks' ids, and the error it ended in. */
async function chatRun(
  args: Record<string, unknown>,
  o: Options,
): Promise<{ ids: string[]; chunks: ChatCompletionStreamOutput[]; error: unknown }> {
  const chunks: ChatCompletionStreamOutput[] = [];
  const read = async (): Promise<unknown> => {
    for await (const c of chatCompletionStream({ model: "org/main", messages: QUESTION, ...args } as never, o))
      chunks.push(c);
    return undefined;
  };
  const error = await within(
    read().catch((e: unknown) => e),
    20_000,
  );
  return { ids: chunks.map((c) => c.id), chunks, error };
}

/** What a broken server does after its first chunk: an error event, a cut body, or silence. */
type Fault = "error" | "cut" | "stall";
const held: RawReply[] = [];
afterEach(() => {
  for (const reply of held.splice(0)) reply.socket.destroy();
});
function thenFault(out: ReturnType<typeof chunked>, reply: RawReply, fault: Fault): void {
  if (fault === "error") {
    out.chunk(`data: ${JSON.stringify({ error: "upstream died", error_type: "generation" })}\n\n`);
    return out.end();
  }
  if (fault === "cut") return out.end();
  held.push(reply);
}
const moves = (): { events: FailoverEvent[]; onFailover: (e: FailoverEvent) => void } => {
  const events: FailoverEvent[] = [];
  return { events, onFailover: (e) => events.push(e) };
};
const FAULTS: Fault[] = ["error", "cut", "stall"];

describe("class 2: failover commits at the first chunk with content", () => {
  it.each(FAULTS)(
    "chat: a role-only first chunk, then %s: the next candidate answers; the caller sees only its chunks",
    async (fault) => {
      router((req, reply, model) => {
        if (model !== "org/main:groq") return healthy(req, reply, "together");
        const out = chunked(reply, 200, SSE);
        out.chunk(chunk("groq-0", ROLE_ONLY));
        thenFault(out, reply, fault);
      });
      const { events, onFailover } = moves();
      const run = await chatRun({ provider: ["groq", "together"] }, options({ onFailover, idleTimeout: 500 }));
      expect(run.error).toBeUndefined();
      expect(run.ids).toEqual(["together-0", "together-1", "together-2", "together-3", "together-4"]);
      expect(run.chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("from together");
      expect(events.map((e) => [e.from, e.reason])).toEqual([
        ["org/main:groq", fault === "stall" ? "timeout" : "stream-error"],
      ]);
    },
  );

  it.each(FAULTS)(
    "responsesStream: response.created, then %s: the next candidate answers; the caller sees only its events",
    async (fault) => {
      router((req, reply, model) => {
        if (model !== "org/main:groq") return healthy(req, reply);
        const out = chunked(reply, 200, SSE);
        out.chunk(event("response.created", { response: { ...envelope("in_progress"), id: "resp_groq" } }));
        out.chunk(event("response.in_progress", { response: { ...envelope("in_progress"), id: "resp_groq" } }));
        if (fault === "error") {
          out.chunk(event("error", { code: "server_error", message: "upstream died" }));
          return out.end();
        }
        thenFault(out, reply, fault);
      });
      const { events, onFailover } = moves();
      const seen: Array<{ type: string; id?: string }> = [];
      const read = async (): Promise<void> => {
        for await (const e of responsesStream(
          { model: "org/main", input: "hi", provider: ["groq", "together"] },
          options({ onFailover, idleTimeout: 500 }),
        )) {
          seen.push({ type: e.type, id: "response" in e ? e.response.id : undefined });
        }
      };
      await within(read(), 20_000);
      expect(seen.map((e) => e.type)).toEqual(["response.created", "response.output_text.delta", "response.completed"]);
      expect(seen.filter((e) => e.id !== undefined).every((e) => e.id === "resp_1")).toBe(true);
      expect(events.map((e) => e.reason)).toEqual([fault === "stall" ? "timeout" : "stream-error"]);
    },
  );

  it("a tool call is content: an error after it is the call's, and no other candidate is sent anything", async () => {
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply, "together");
      const out = chunked(reply, 200, SSE);
      out.chunk(
        chunk("groq-0", {
          role: "assistant",
          tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "f", arguments: "" } }],
        }),
      );
      thenFault(out, reply, "error");
    });
    const run = await chatRun({ provider: ["groq", "together"] }, options());
    expect(run.ids).toEqual(["groq-0"]);
    expect(run.error).toBeInstanceOf(ServerError);
    expect(run.error).not.toBeInstanceOf(FailoverError);
    expect(servers.router.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it(`at the bound (${HELD_CHUNKS} chunks held without content) the candidate is committed to: every chunk delivered, in order, once`, async () => {
    const count = HELD_CHUNKS + 6;
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply, "together");
      const out = chunked(reply, 200, SSE);
      for (let i = 0; i < count; i++) out.chunk(chunk(`groq-${i}`, ROLE_ONLY));
      thenFault(out, reply, "error");
    });
    const run = await chatRun({ provider: ["groq", "together"] }, options());
    expect(run.ids).toEqual(Array.from({ length: count }, (_, i) => `groq-${i}`));
    expect(run.error).toBeInstanceOf(ServerError);
    expect(servers.router.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it(`at the bound in bytes (${HELD_BYTES} held without content) the candidate is committed to`, async () => {
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply, "together");
      const out = chunked(reply, 200, SSE);
      out.chunk(chunk("groq-0", { ...ROLE_ONLY, padding: "x".repeat(HELD_BYTES) }));
      thenFault(out, reply, "error");
    });
    const run = await chatRun({ provider: ["groq", "together"] }, options());
    expect(run.ids).toEqual(["groq-0"]);
    expect(run.error).toBeInstanceOf(ServerError);
    expect(servers.router.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("class 3: an argument error fails at once, whatever its framing", () => {
  const validation = { error: "Input validation error: `max_tokens` must be at most 4096", error_type: "validation" };
  const tgi422 = {
    error: { message: "Input validation error: `max_tokens` must be at most 4096", http_status_code: 422 },
  };

  it.each([
    ["TGI's error_type", validation],
    ["an http_status_code 422", tgi422],
  ])("chat stream: a 200 stream carrying a validation error (%s): no second candidate", async (_what, body) => {
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply, "together");
      const out = chunked(reply, 200, SSE);
      out.chunk(chunk("groq-0", ROLE_ONLY));
      out.chunk(`data: ${JSON.stringify(body)}\n\n`);
      out.end();
    });
    const run = await chatRun({ provider: ["groq", "together"] }, options());
    expect(run.error).toBeInstanceOf(ValidationError);
    expect(run.ids).toEqual([]);
    expect(servers.router.requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.body).model)).toEqual([
      "org/main:groq",
    ]);
  });

  it("chat stream: the error as the stream's first event fails at once too", async () => {
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply, "together");
      const out = chunked(reply, 200, SSE);
      out.chunk(`data: ${JSON.stringify(validation)}\n\n`);
      out.end();
    });
    const run = await chatRun({ provider: ["groq", "together"] }, options());
    expect(run.error).toBeInstanceOf(ValidationError);
    expect(servers.router.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("whole chat: a 200 JSON answer that is a 422 error object fails at once", async () => {
    router((req, reply, model) =>
      model === "org/main:groq" ? whole(reply, 200, JSON_TYPE, JSON.stringify(tgi422)) : healthy(req, reply),
    );
    const error = await chatCompletion(
      { model: "org/main", messages: QUESTION, provider: ["groq", "together"] },
      options(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(servers.router.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("responsesStream: an invalid-request error as the stream's first event fails at once", async () => {
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply);
      const out = chunked(reply, 200, SSE);
      out.chunk(event("error", { code: "invalid_request_error", message: "max_output_tokens is too large" }));
      out.end();
    });
    const read = async (): Promise<unknown> => {
      for await (const _ of responsesStream(
        { model: "org/main", input: "hi", provider: ["groq", "together"] },
        options(),
      ));
      return undefined;
    };
    const error = await within(
      read().catch((e: unknown) => e),
      20_000,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(servers.router.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("responsesStream: an invalid-request error after response.created fails at once", async () => {
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply);
      const out = chunked(reply, 200, SSE);
      out.chunk(event("response.created", { response: envelope("in_progress") }));
      out.chunk(event("error", { code: "invalid_request_error", message: "max_output_tokens is too large" }));
      out.end();
    });
    const read = async (): Promise<unknown> => {
      for await (const _ of responsesStream(
        { model: "org/main", input: "hi", provider: ["groq", "together"] },
        options(),
      ));
      return undefined;
    };
    const error = await within(
      read().catch((e: unknown) => e),
      20_000,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(servers.router.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("an overloaded error inside the stream still moves the call (a server's state, not the arguments)", async () => {
    router((req, reply, model) => {
      if (model !== "org/main:groq") return healthy(req, reply, "together");
      const out = chunked(reply, 200, SSE);
      out.chunk(chunk("groq-0", ROLE_ONLY));
      out.chunk(`data: ${JSON.stringify({ error: "Model is overloaded", error_type: "overloaded" })}\n\n`);
      out.end();
    });
    const { events, onFailover } = moves();
    const run = await chatRun({ provider: ["groq", "together"] }, options({ onFailover }));
    expect(run.error).toBeUndefined();
    expect(events.map((e) => e.reason)).toEqual(["stream-error"]);
  });
});
