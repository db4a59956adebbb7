/**
 * Load: 200 concurrent chatCompletionStream calls on one client against the loopback mock hub, a mix
 * of normal, lingering and failing models. Every call settles with its kind's outcome (however slow the
 * machine: a hang is the only time failure), no server stream stays open, no stream object outlives the
 * run, and the heap returns near its level.
 */
import { startMockHub, type MockHub, type ModelConfig } from "@hfkit/mock-hub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatCompletionArgs,
  IncompleteStreamError,
  InferenceClient,
  NotFoundError,
  ValidationError,
} from "../../src/index";
import {
  ANSWER,
  QUESTION,
  type Run,
  TOKENS,
  consume,
  getGc,
  openStreamsAfter,
  requestsTo,
  sleep,
  within,
} from "./support";

type ErrorClass = abstract new (...args: never[]) => Error;

interface Kind {
  model: string;
  count: number;
  config?: ModelConfig;
  args?: Partial<ChatCompletionArgs>;
  text?: string;
  error?: ErrorClass;
  fields?: Record<string, unknown>;
  tokens: string[];
  /** The first `count` requests get TGI's in-stream "Model is overloaded": each call is retried once. */
  overloadedFirst?: boolean;
}

const KINDS: Record<string, Kind> = {
  normal: { model: "load/normal", count: 30, text: ANSWER, tokens: TOKENS },
  "in-stream overload, retried, then answers": {
    model: "load/overloaded-once",
    count: 20,
    overloadedFirst: true,
    text: ANSWER,
    tokens: TOKENS,
  },
  "linger after [DONE]": {
    model: "load/linger-done",
    count: 30,
    config: { faults: [{ type: "linger" }] },
    text: ANSWER,
    tokens: TOKENS,
  },
  "linger, no [DONE] (TGI 2.1)": {
    model: "load/linger-2.1",
    count: 30,
    config: { tgiVersion: "2.1.1", faults: [{ type: "linger" }] },
    text: ANSWER,
    tokens: TOKENS,
  },
  "in-stream validation error": {
    model: "load/validation",
    count: 30,
    args: { max_tokens: 5000 },
    error: ValidationError,
    fields: { status: 422 },
    tokens: [],
  },
  "404 does not exist": {
    model: "load/does-not-exist",
    count: 30,
    error: NotFoundError,
    fields: { status: 404 },
    tokens: [],
  },
  "truncated after 3 chunks": {
    model: "load/truncate",
    count: 30,
    config: { faults: [{ type: "truncate", afterChunks: 3 }] },
    error: IncompleteStreamError,
    tokens: ["The", " capital", " of"],
  },
};

/** The model call `i` of `kind` asks for: its own for an overloaded-once call, else the kind's. */
const modelOf = (kind: Kind, i: number): string => (kind.overloadedFirst ? `${kind.model}-${i}` : kind.model);

const TOTAL = Object.values(KINDS).reduce((n, k) => n + k.count, 0);
/** A call not settled by then hangs: a bound for a failure message, not a speed. */
const HANG_BOUND_MS = 60_000;
const HEAP_MARGIN_BYTES = 10 * 1024 * 1024;

describe("load: 200 concurrent streams on one client", () => {
  let hub: MockHub;
  let client: InferenceClient;

  beforeAll(async () => {
    const models: Record<string, ModelConfig> = {};
    for (const kind of Object.values(KINDS)) if (kind.config) models[kind.model] = kind.config;
    hub = await startMockHub({ models });
    client = new InferenceClient("hf_load_suite", { baseUrl: hub.url, logger: { warn: () => {} } });
  });
  afterAll(async () => {
    await hub.close();
  });

  /** Weak references to what one call leaves behind: its stream and its own AbortSignal. */
  interface Leftover {
    what: string;
    ref: WeakRef<object>;
  }

  /**
   * Starts every call at once and checks each outcome. Only weak references leave this function:
   * the results (and the errors, whose stack frames reference SDK objects) die with its scope.
   */
  async function runAll(scale: number): Promise<Leftover[]> {
    const leftovers: Leftover[] = [];
    const runs: Array<Promise<{ kind: string; run: Run }>> = [];
    for (const [name, kind] of Object.entries(KINDS)) {
      const count = Math.max(1, Math.round(kind.count * scale));
      for (let i = 0; i < count; i++) {
        // Each overloaded-once call has a model of its own, so one call's quick retry never takes another's fault.
        const model = modelOf(kind, i);
        if (kind.overloadedFirst) hub.inject({ type: "overloadedInStream" }, { model, times: 1 });
        const signal = new AbortController().signal;
        const stream = client.chatCompletionStream({ model, messages: QUESTION, ...kind.args }, { signal });
        leftovers.push(
          { what: `${name}: stream`, ref: new WeakRef(stream) },
          { what: `${name}: signal`, ref: new WeakRef(signal) },
        );
        runs.push(within(consume(stream), HANG_BOUND_MS, `${name} #${i}`).then((run) => ({ kind: name, run })));
      }
    }
    const results = await Promise.all(runs);

    const expectedTotal = Object.values(KINDS).reduce((n, k) => n + Math.max(1, Math.round(k.count * scale)), 0);
    expect(results).toHaveLength(expectedTotal);
    for (const { kind: name, run } of results) {
      const kind = KINDS[name]!;
      if (kind.error) {
        expect(run.error, name).toBeInstanceOf(kind.error);
        if (kind.fields) expect(run.error, name).toMatchObject(kind.fields);
      } else {
        expect(run.error, name).toBeUndefined();
        expect(run.tokens.join(""), name).toBe(kind.text);
      }
      expect(run.tokens, name).toEqual(kind.tokens);
    }
    for (const [name, kind] of Object.entries(KINDS)) {
      const count = Math.max(1, Math.round(kind.count * scale));
      const tries = kind.overloadedFirst ? 2 : 1;
      for (let i = 0; i < (kind.overloadedFirst ? count : 1); i++) {
        const expected = kind.overloadedFirst ? tries : count;
        expect(requestsTo(hub, modelOf(kind, i)), `requests for ${name}`).toHaveLength(expected);
      }
    }
    expect(await openStreamsAfter(hub)).toBe(0);
    hub.reset(); // the hub's request log is the test's memory, not the SDK's
    return leftovers;
  }

  async function collect(gc: () => void): Promise<void> {
    for (let i = 0; i < 4; i++) {
      gc();
      await sleep(20);
    }
  }

  it(
    "every call settles with its kind's outcome; no stream left open; memory returns",
    async () => {
      const gc = getGc();
      // Warm-up (modules, JIT, connection pool), so the baseline is comparable.
      await runAll(0.2);
      await collect(gc);
      const heapBefore = process.memoryUsage().heapUsed;

      const leftovers = await runAll(1);
      expect(leftovers).toHaveLength(2 * TOTAL);

      await collect(gc);
      const heapAfter = process.memoryUsage().heapUsed;
      const alive: Record<string, number> = {};
      for (const { what, ref } of leftovers) if (ref.deref() !== undefined) alive[what] = (alive[what] ?? 0) + 1;
      expect(alive, "streams or their calls' signals still reachable after the run").toEqual({});
      expect(heapAfter - heapBefore, `heap grew from ${heapBefore} to ${heapAfter} bytes`).toBeLessThanOrEqual(
        HEAP_MARGIN_BYTES,
      );
    },
    3 * HANG_BOUND_MS,
  );
});
