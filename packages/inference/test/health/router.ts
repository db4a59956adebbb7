/**
 * A fake HF router on a raw loopback socket for the health tests: each `model:provider` answers as the test says,
 * its catalog lists what the test sets, and a fake clock (the health store's) moves only when a test moves it.
 */
import { InferenceClient, type Options } from "../../src/index";
import { HealthMemory } from "../../src/features/health";
import { catalogMemory } from "../../src/features/catalog";
import { chunked, type RawReply, type RawServer, startRawServer, whole } from "../faults/raw-server";

export const MODEL = "org/main";
export const QUESTION = [{ role: "user", content: "hi" }];
export const SECRET = "hf_HealthSecretToken1234567890abcdefgh";

/** What a target does: answer, fail with a status (and headers), stall, or answer after the clock moved by `advance`. */
export type Behaviour =
  "ok" | "stall" | { status: number; headers?: Array<[string, string]>; body?: unknown } | { advance: number };

export interface FakeRouter {
  raw: RawServer;
  behaviours: Record<string, Behaviour>;
  catalog: unknown;
  clock: { now: number };
  store: HealthMemory;
  /** The chat requests, as the `model` each named, in order. */
  sent(): string[];
  /** A client on this router, health kept in `store` (unless the options say otherwise). */
  client(options?: Options, token?: string): InferenceClient;
  /** Held `stall` replies. */
  stalled: RawReply[];
  reset(): void;
}

const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];

const chunk = (content: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "served", choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }] })}\n\n`;

function answer(reply: RawReply, body: Record<string, unknown>, provider: string): void {
  const usage = { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 };
  if (body.stream !== true) {
    const message = { role: "assistant", content: `from ${provider}` };
    const json = {
      id: "a",
      object: "chat.completion",
      created: 1,
      model: "served",
      choices: [{ index: 0, message, finish_reason: "stop" }],
      usage,
    };
    return whole(reply, 200, "application/json", JSON.stringify(json), [["x-inference-provider", provider]]);
  }
  const out = chunked(reply, 200, [...SSE, ["x-inference-provider", provider]]);
  out.chunk(chunk("from "));
  out.chunk(chunk(provider, "stop"));
  out.chunk("data: [DONE]\n\n");
  out.end();
}

export async function fakeRouter(): Promise<FakeRouter> {
  const clock = { now: 1_000_000 };
  const router: FakeRouter = {
    raw: undefined as unknown as RawServer,
    behaviours: {},
    catalog: { object: "list", data: [] },
    clock,
    store: new HealthMemory(() => clock.now),
    stalled: [],
    sent: () =>
      router.raw.requests
        .filter((r) => r.method === "POST")
        .map((r) => String((JSON.parse(r.body) as { model: unknown }).model)),
    client: (options = {}, token = SECRET) =>
      new InferenceClient(token, {
        routerUrl: router.raw.url,
        logger: { warn: () => {} },
        maxRetries: 0,
        health: { store: router.store },
        ...options,
      }),
    reset() {
      router.raw.requests.length = 0;
      router.behaviours = {};
      router.catalog = { object: "list", data: [] };
      router.store = new HealthMemory(() => clock.now);
      router.stalled.length = 0;
      catalogMemory.clear();
    },
  };
  router.raw = await startRawServer((req, reply) => {
    if (req.method === "GET" && req.target === "/v1/models")
      return whole(reply, 200, "application/json", JSON.stringify(router.catalog));
    const body = JSON.parse(req.body) as Record<string, unknown>;
    const model = String(body.model);
    const provider = model.split(":")[1] ?? "picked";
    const behaviour = router.behaviours[model] ?? { status: 500, body: { error: `no behaviour for ${model}` } };
    if (behaviour === "ok") return answer(reply, body, provider);
    if (behaviour === "stall") {
      router.stalled.push(reply);
      return void chunked(reply, 200, SSE);
    }
    if ("advance" in behaviour) {
      clock.now += behaviour.advance;
      return answer(reply, body, provider);
    }
    const headers: Array<[string, string]> = [["x-inference-provider", provider], ...(behaviour.headers ?? [])];
    whole(
      reply,
      behaviour.status,
      "application/json",
      JSON.stringify(behaviour.body ?? { error: `HTTP ${behaviour.status}` }),
      headers,
    );
  });
  return router;
}

/** Waits on real I/O turns only (the fake clock does not move; `vi.waitFor` would move it) until `ready()`. */
export async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; !ready(); i++) {
    if (i > 200_000) throw new Error("never ready");
    await new Promise((r) => setImmediate(r));
  }
}

/** Lets sockets and promises run for a while (real I/O turns; no fake time moves). */
export async function turns(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
}

/** A seeded generator (mulberry32): the same numbers on every run. */
export function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
