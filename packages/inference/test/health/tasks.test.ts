/**
 * Health and hedging wherever failover runs, not only chat: the Responses API (whole and streamed) on the router's
 * providers and `textGeneration` on the providers' own routes, against the mock hub over loopback. A breaker opens
 * at its threshold and the next calls send that target nothing; `health: false` remembers nothing; a probe after
 * the cooldown closes it; a hedge starts at `afterMs`, the first answer wins and the other's request is aborted.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type FailoverEvent, type HealthEvent, InferenceClient, type Options, type Served } from "../../src/index";
import { HealthMemory } from "../../src/features/health";
import { mappingMemory } from "../../src/targets/providers/mapping";
import { turns, until } from "./router";

const CHAT_MODEL = "hfkit/router-multi";
const TEXT_MODEL = "hfkit/text-generation";
const ANSWER = "The capital of France is Paris.";
const GENERATED = " and so on (4 words, 16 characters).";

let hub: MockHub;
const realFetch = globalThis.fetch;
/** The clock of the health store: moved by the tests, never by waiting. */
const clock = { now: 1_000_000 };
let store: HealthMemory;
/** Each request's abort signal, in order (a hedge's loser is aborted through it). */
let signals: AbortSignal[];
/** The path whose answers are held back from the client until it aborts the request (a first token that never comes). */
let held: string | undefined;

beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => {
  hub.reset();
  mappingMemory.clear();
  clock.now = 1_000_000;
  store = new HealthMemory(() => clock.now);
  signals = [];
  held = undefined;
});
afterEach(() => void vi.useRealTimers());

/** A task that fails over, as the tests drive it: its call over two providers, and where each provider's requests go. */
interface Kind {
  readonly name: string;
  readonly model: string;
  /** The first provider (the one made to fail) and the second. */
  readonly providers: readonly [string, string];
  /** Where the first provider's faults are scripted: its model (and provider, on the router). */
  readonly faulted: { model: string; provider?: string };
  /**
   * One call; resolves to the provider that served it and what it answered. `onFirst` is called when its first
   * token is handed on (a whole answer's: when it resolves).
   */
  call(
    client: InferenceClient,
    options?: Options,
    onFirst?: () => void,
  ): Promise<{ served: Served | undefined; text: string }>;
  /** The provider each of the task's requests went to, in order. */
  reached(): string[];
  /** Makes the first provider slow to its first token (a minute). */
  slow(): void;
}

const chatPosts = () =>
  hub.requests.filter((r) => r.method === "POST" && r.path === "/v1/responses").map((r) => r.provider ?? "?");

const KINDS: Kind[] = [
  {
    name: "responses",
    model: CHAT_MODEL,
    providers: ["together", "novita"],
    faulted: { model: CHAT_MODEL, provider: "together" },
    async call(client, options, onFirst) {
      const out = await client.responses(
        { model: CHAT_MODEL, input: "What is the capital of France?", provider: ["together", "novita"] },
        options,
      );
      onFirst?.();
      return { served: out.served, text: out.output_text };
    },
    reached: chatPosts,
    slow: () => void hub.inject({ type: "latency", delayMs: 60_000 }, { model: CHAT_MODEL, provider: "together" }),
  },
  {
    name: "responsesStream",
    model: CHAT_MODEL,
    providers: ["together", "novita"],
    faulted: { model: CHAT_MODEL, provider: "together" },
    async call(client, options, onFirst) {
      let text = "";
      let served: Served | undefined;
      const events = client.responsesStream(
        { model: CHAT_MODEL, input: "What is the capital of France?", provider: ["together", "novita"] },
        options,
      );
      for await (const event of events) {
        if (event.type === "response.output_text.delta") {
          if (text === "") onFirst?.();
          text += event.delta;
        }
        if (event.type === "response.completed") served = event.response.served;
      }
      return { served, text };
    },
    reached: chatPosts,
    slow: () => void hub.inject({ type: "latency", delayMs: 60_000 }, { model: CHAT_MODEL, provider: "together" }),
  },
  {
    name: "textGeneration",
    model: TEXT_MODEL,
    providers: ["together", "featherless-ai"],
    faulted: { model: "hfkit-together/llama" }, // together's own id of the model (the mock hub's mapping)
    async call(client, options, onFirst) {
      const out = await client.textGeneration(
        {
          model: TEXT_MODEL,
          inputs: "Once upon a time",
          parameters: { max_new_tokens: 5 },
          provider: ["together", "featherless-ai"],
        },
        options,
      );
      onFirst?.();
      return { served: out.served, text: out.generated_text };
    },
    reached: () =>
      hub.requests
        .filter((r) => r.method === "POST" && r.path.endsWith("/v1/completions"))
        .map((r) => r.path.split("/")[1] ?? "?"),
    // The hub times no latency on a provider's own route: its answer is held back here until the client leaves.
    slow: () => void (held = "/together/v1/completions"),
  },
];

/** A client on the hub: the router and the Hub API both the hub's, health kept in `store`, each request's signal kept. */
const clientOf = (options: Options = {}) =>
  new InferenceClient("hf_health_tasks_token_1234567890", {
    routerUrl: hub.url,
    hubUrl: hub.url,
    fetch: async (url, init) => {
      const signal = init?.signal;
      if (signal && init.method === "POST") signals.push(signal);
      const answer = await realFetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, hub.url), init);
      if (held === undefined || !String(url).endsWith(held) || !signal) return answer;
      await answer.body?.cancel();
      return new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    },
    maxRetries: 0,
    logger: { warn: () => {} },
    health: { store },
    ...options,
  });

describe.each(KINDS)("$name fails over with health", (kind) => {
  const [first, second] = kind.providers;
  const target = `${kind.model}:${first}`;
  const expected = kind.model === TEXT_MODEL ? GENERATED : ANSWER;

  it("three failures open the first provider's breaker: the next calls send it nothing, a skip with its reason", async () => {
    hub.inject({ type: "serverError", status: 502 }, kind.faulted);
    const moves: FailoverEvent[] = [];
    const changes: HealthEvent[] = [];
    const client = clientOf({ onFailover: (e) => moves.push(e), onHealth: (e) => changes.push(e) });
    for (let i = 0; i < 3; i++) expect((await kind.call(client)).served?.provider).toBe(second);
    expect(kind.reached()).toEqual([first, second, first, second, first, second]);
    expect(changes).toEqual([{ type: "breaker", target, state: "open", failures: 3, cooldownMs: 30_000 }]);
    moves.length = 0;
    for (let i = 0; i < 2; i++) {
      const out = await kind.call(client);
      expect(out.text).toBe(expected);
      expect(out.served?.provider).toBe(second);
    }
    expect(kind.reached().slice(6)).toEqual([second, second]);
    expect(moves.map((m) => [m.from, m.reason])).toEqual([
      [target, "circuit-open"],
      [target, "circuit-open"],
    ]);
  });

  it("after the cooldown one call probes the first provider; its success closes the breaker", async () => {
    const rule = hub.inject({ type: "serverError", status: 503 }, kind.faulted);
    const client = clientOf();
    for (let i = 0; i < 3; i++) await kind.call(client);
    rule.remove();
    clock.now += 29_999;
    await kind.call(client);
    expect(kind.reached().slice(6)).toEqual([second]);
    clock.now += 1;
    expect((await kind.call(client)).served?.provider).toBe(first);
    expect(store.snapshot().find((h) => h.target === target)?.state).toBe("closed");
  });

  it("`health: false` remembers nothing: every call tries the failing provider first", async () => {
    hub.inject({ type: "serverError", status: 502 }, kind.faulted);
    const client = clientOf({ health: false });
    for (let i = 0; i < 5; i++) expect((await kind.call(client)).served?.provider).toBe(second);
    expect(kind.reached().filter((p) => p === first)).toHaveLength(5);
    expect(store.snapshot()).toEqual([]);
  });

  it("a hedge starts at afterMs beside a provider slow to its first token; the other wins and the slow one is aborted", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    kind.slow();
    const hedges: HealthEvent[] = [];
    const client = clientOf({ hedge: { afterMs: 800 }, onHealth: (e) => hedges.push(e) });
    let atFirstToken: string[] = [];
    const call = kind.call(client, undefined, () => (atFirstToken = signals.map(state)));
    await until(() => kind.reached().length === 1);
    await vi.advanceTimersByTimeAsync(799);
    await turns();
    expect(kind.reached()).toEqual([first]);
    await vi.advanceTimersByTimeAsync(1);
    const out = await call;
    expect(kind.reached()).toEqual([first, second]);
    expect(out.text).toBe(expected);
    const from = target;
    const to = `${kind.model}:${second}`;
    expect(out.served?.hedge).toEqual({ from, to, winner: to });
    expect(hedges).toEqual([
      { type: "hedge", from, to },
      { type: "hedge", from, to, winner: to },
    ]);
    // By the winner's first token, the loser's request was aborted for it (the winner's at most released, once read).
    expect(atFirstToken).toEqual([`lost to ${to}`, expect.stringMatching(/^(open|read)$/)]);
    await until(() => hub.openStreams() === 0); // its connection closed: the hub holds nothing open
    // The loser's abort is not a failure of its target.
    expect(store.snapshot().find((h) => h.target === from)?.failures ?? 0).toBe(0);
  });
});

/** What became of a request, by its signal: still open, read to its end, or aborted as a hedge's loser. */
function state(signal: AbortSignal): string {
  if (!signal.aborted) return "open";
  const reason = signal.reason as (Error & { cause?: Error }) | undefined;
  if (reason?.message === "The answer was read") return "read";
  // The hedge's abort, as it is or as the cause of the one call's abort (a task's own call under the failover).
  const why = `${reason?.message} ${reason?.cause?.message}`;
  return /another candidate \((.+?)\) gave its first token first/.exec(why)?.[1]?.replace(/^/, "lost to ") ?? why;
}
