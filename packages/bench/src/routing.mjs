// `node src/routing.mjs [--quick]`: routing that learns. Two scenarios against the mock hub, each client run in its own
// child process (hfkit's health is the process's memory, and no export clears it):
//   1. a provider down (stalled after its headers) for the first calls of a run, then recovered: hfkit with health,
//      hfkit with `health: false`, the Portkey gateway with its fallback;
//   2. a provider whose first token is heavy-tailed (p99 = 10 × p50): hfkit without and with hedged first tokens.
// Prints the figures and rewrites its section of docs/benchmarks.md. `pnpm bench` runs it as one of its steps.
import { execFile } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { InferenceClient } from "@hfkit/inference";
import { startMockHub } from "@hfkit/mock-hub";
import OpenAI from "openai";
import { BENCH_DIR, gatewayVersions, isMain, stepper } from "./child.mjs";
import { routingTables, updateRoutingDocs } from "./routing-docs.mjs";
import { ON_STATUS_CODES, startGateway } from "./portkey.mjs";
import { median, percentile, sleep } from "./stats.mjs";

/** Every client's limit per candidate: hfkit's `firstChunkTimeout`, Portkey's `request_timeout`. */
export const LIMIT_MS = 2000;
/** A call with no token by then is given up: what a client that does not move on would wait for. */
export const GIVE_UP_MS = 2 * LIMIT_MS;
/** hfkit's breaker cooldown in scenario 1: short enough to see the recovery within the run. */
export const COOLDOWN_MS = 5000;
/** Scenario 1 starts a call (and its paired anchor call) at most this often. */
export const PACE_MS = 100;
/** The heavy tail of scenario 2: the mock hub's log-normal first-token latency, on the first candidate. */
export const TAIL = { type: "latency", p50Ms: 50, p99Ms: 500, seed: 7 };
/** The hedge delays of scenario 2 (`hedge: { afterMs }`); the first is the one the goal is judged on. */
export const HEDGE_AFTER_MS = [200, 100, 300];
/** Scenario 1's candidates, in order: `a` fails, `b` stays up. */
export const A = "together";
export const B = "novita";
export const FLAKY = "bench/flaky";
export const ANCHOR = "bench/anchor";
export const HEAVY = "bench/heavy-tail";
const TEXT = "Paris is the capital of France.";
const messages = [{ role: "user", content: "What is the capital of France?" }];

/** The models: two candidates each (`a` first), served alike by the mock hub's router route. */
const MODELS = Object.fromEntries([FLAKY, ANCHOR, HEAVY].map((m) => [m, { text: TEXT, providers: [A, B] }]));

/** Scenario 1's clients; `down` and `up`: how many calls each runs with `a` down, then up. */
export function recoveryClients(quick) {
  const down = quick ? 40 : 100;
  const up = quick ? 40 : 100;
  // A client that does not learn pays the same for every call with `a` down: a shorter run says as much.
  const short = { down: quick ? 12 : 20, up: quick ? 5 : 10 };
  return [
    {
      key: "health",
      label: `hfkit, health (cooldown ${COOLDOWN_MS / 1000} s)`,
      kind: "hfkit",
      health: { cooldown: COOLDOWN_MS },
      down,
      up,
    },
    { key: "off", label: "hfkit, `health: false`", kind: "hfkit", health: false, ...short },
    {
      key: "portkey-held",
      label: "Portkey gateway, fallback (`a` holds its headers)",
      kind: "portkey",
      fault: "held",
      ...short,
    },
    {
      key: "portkey-stall",
      label: "Portkey gateway, fallback (`a` stalls after its headers)",
      kind: "portkey",
      fault: "stall",
      down: 12,
      up: quick ? 3 : 5,
    },
  ];
}

/** How `a` is down: hfkit's clients and Portkey's first run see a stall after the headers. */
function downFault(fault) {
  return fault === "held" ? { type: "headersDelay", delayMs: 30_000 } : { type: "stall", afterChunks: 0 };
}

/** Portkey's circuit breaker as its docs give it (`cooldown_interval`: 30 s at least); see the section for what it does. */
export const PORTKEY_BREAKER = {
  failure_threshold: 3,
  cooldown_interval: 30_000,
  failure_status_codes: ON_STATUS_CODES,
};

/** Portkey's `x-portkey-config` for `model`: `a`, then `b`, both the mock hub's router route. */
export function portkeyConfig(hubUrl, model) {
  const target = (provider) => ({
    provider: "openai",
    api_key: "hf_bench",
    custom_host: `${hubUrl}/v1`,
    override_params: { model: `${model}:${provider}` },
  });
  return {
    // The gateway reads a target's breaker state only for a config with an id (a config saved on Portkey's platform).
    id: "bench-routing",
    strategy: { mode: "fallback", on_status_codes: ON_STATUS_CODES, cb_config: PORTKEY_BREAKER },
    request_timeout: LIMIT_MS,
    targets: [target(A), target(B)],
  };
}

const tokenOf = (chunk) => chunk.choices?.[0]?.delta?.content;

/** A client of scenario 1 or 2: `open(model, signal)` answers a stream and `served()`, who served it. */
function hfkitOpener(hub, options, events) {
  const fetch = (url, init) => globalThis.fetch(String(url).replace("https://router.huggingface.co", hub.url), init);
  const client = new InferenceClient("hf_bench", {
    fetch,
    ...options,
    onFailover: (move) => events.push({ at: performance.now(), type: "move", reason: move.reason, from: move.from }),
    onHealth: (event) => events.push({ at: performance.now(), ...event }),
  });
  return async (model, signal) => {
    let served;
    const chunks = client.chatCompletionStream(
      { model, provider: [A, B], messages },
      { firstChunkTimeout: LIMIT_MS, signal },
    );
    async function* stream() {
      for await (const chunk of chunks) {
        served = chunk.served ?? served;
        yield chunk;
      }
    }
    return { stream: stream(), served: () => ({ provider: served?.provider, hedge: served?.hedge }) };
  };
}

function portkeyOpener(gateway, hub) {
  const openai = new OpenAI({ apiKey: "hf_bench", baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  return async (model, signal) => {
    const headers = { "x-portkey-config": JSON.stringify(portkeyConfig(hub.url, model)) };
    const { data, response } = await openai.chat.completions
      .create({ model, messages, stream: true }, { signal, headers })
      .withResponse();
    const index = response.headers.get("x-portkey-last-used-option-index");
    return { stream: data, served: () => ({ provider: [A, B][Number(/(\d+)\D*$/.exec(index ?? "")?.[1])] }) };
  };
}

/** The chat requests for `model` the hub got since `from`, by provider. */
function requestsSince(hub, from, model) {
  const counts = { [A]: 0, [B]: 0 };
  for (const r of hub.requests.slice(from)) {
    const named = typeof r.body?.model === "string" ? r.body.model.split(":")[0] : undefined;
    if (r.method === "POST" && named === model && r.provider in counts) counts[r.provider] += 1;
  }
  return counts;
}

/** One call: ms to its first token (or to its error or the give-up), who served it, the requests it sent. */
async function callOnce(open, hub, model) {
  const signal = AbortSignal.timeout(GIVE_UP_MS);
  const from = hub.requests.length;
  const started = performance.now();
  const done = (fields) => ({ ...fields, started, ms: performance.now() - started });
  let result;
  try {
    const { stream, served } = await open(model, signal);
    for await (const chunk of stream) {
      if (tokenOf(chunk) && !result) result = done({ token: true, outcome: "first token" });
      if (result) result = { ...result, ...served() };
    }
    result ??= done({ token: false, outcome: "ended without a token" });
  } catch (error) {
    result ??= done({
      token: false,
      outcome: signal.aborted ? `no token in ${GIVE_UP_MS} ms: gave up` : (error.name ?? "error"),
    });
  }
  return { ...result, requests: requestsSince(hub, from, model) };
}

/** Scenario 1 for one client: `down` calls with `a` stalled, `up` calls after, each paired with an anchor call. */
async function recoveryRun(client) {
  const hub = await startMockHub({ models: MODELS });
  const gateway = client.kind === "portkey" ? await startGateway() : undefined;
  const events = [];
  const open =
    client.kind === "portkey" ? portkeyOpener(gateway, hub) : hfkitOpener(hub, { health: client.health }, events);
  try {
    for (let i = 0; i < 10; i++) await callOnce(open, hub, ANCHOR); // warm-up: JIT, catalog, gateway
    const start = performance.now();
    const rule = hub.inject(downFault(client.fault), { model: FLAKY, provider: A });
    let recoveredAt;
    const calls = [];
    const anchors = [];
    for (let i = 1; i <= client.down + client.up; i++) {
      if (i === client.down + 1) {
        rule.remove();
        recoveredAt = performance.now();
      }
      const slot = performance.now();
      // The call and its anchor take turns going first, so neither is always the one right after the pause.
      const anchorFirst = i % 2 === 0 && (await callOnce(open, hub, ANCHOR)).ms;
      const call = await callOnce(open, hub, FLAKY);
      calls.push({ ...call, i, started: call.started - start });
      for (const e of events) e.i ??= i;
      anchors.push(anchorFirst || (await callOnce(open, hub, ANCHOR)).ms);
      await sleep(slot + PACE_MS - performance.now());
    }
    const backAt = calls.find((c) => c.i > client.down && c.token && c.provider === A);
    return {
      ...client,
      anchors,
      calls: calls.map(({ i, ms, token, provider, outcome, requests, started }) => ({
        i,
        ms,
        token,
        provider,
        outcome,
        requests,
        started,
      })),
      recoveredAt: recoveredAt - start,
      aBack: backAt && { i: backAt.i, afterMs: backAt.started + start + backAt.ms - recoveredAt },
      events: events
        .filter((e) => e.type === "breaker")
        .map((e) => ({ i: e.i, at: e.at - start, state: e.state, target: e.target })),
      moves: countBy(events.filter((e) => e.type === "move").map((e) => e.reason)),
    };
  } finally {
    await gateway?.close();
    await hub.close();
  }
}

/** Scenario 2 for one setting: `calls` back-to-back calls, `a` heavy-tailed; `afterMs` null: no hedge. */
async function tailRun({ afterMs, calls: n }) {
  const hub = await startMockHub({ models: MODELS });
  const events = [];
  const open = hfkitOpener(hub, afterMs ? { hedge: { afterMs } } : {}, events);
  try {
    for (let i = 0; i < 10; i++) await callOnce(open, hub, ANCHOR);
    // Injected after the warm-up: the n-th request `a` gets waits the n-th draw, in every run alike.
    hub.inject(TAIL, { model: HEAVY, provider: A });
    const from = hub.requests.length;
    const calls = [];
    for (let i = 0; i < n; i++) calls.push(await callOnce(open, hub, HEAVY));
    const hedges = events.filter((e) => e.type === "hedge");
    return {
      afterMs,
      calls: calls.map(({ ms, token, provider, hedge }) => ({ ms, token, provider, won: hedge?.winner })),
      requests: requestsSince(hub, from, HEAVY),
      hedgesStarted: hedges.filter((e) => !e.winner).length,
      hedgesWon: countBy(hedges.filter((e) => e.winner).map((e) => e.winner.split(":").at(-1))),
      // A slow first token is no failure, and a hedge's loser is not counted: no breaker should change.
      breakerChanges: events.filter((e) => e.type === "breaker").map((e) => `${e.target} ${e.state}`),
    };
  } finally {
    await hub.close();
  }
}

function countBy(values) {
  const counts = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

/** Runs `job` in a child process of this script; answers what it printed. */
function inChild(job) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [fileURLToPath(import.meta.url), "--child", JSON.stringify(job)],
      { cwd: BENCH_DIR, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`routing child ${JSON.stringify(job)} failed:\n${stderr}`))
          : resolve(JSON.parse(stdout)),
    );
  });
}

const ttft = (calls) => calls.filter((c) => c.token).map((c) => c.ms);

/** Scenario 1's figures for one client's run. */
export function recoverySummary(run) {
  const { down } = run;
  const window = run.calls.filter((c) => c.i >= 11 && c.i <= down);
  const downCalls = run.calls.filter((c) => c.i <= down);
  // The anchors paired with calls 11 to `down`: the same moments of the run, both candidates up.
  const healthy = median(window.map((c) => run.anchors[c.i - 1]));
  const windowMedian = window.length && window.every((c) => c.token) ? median(window.map((c) => c.ms)) : undefined;
  return {
    key: run.key,
    label: run.label,
    down,
    up: run.up,
    healthy,
    window: { from: 11, to: down, runs: window.length, tokens: ttft(window).length, median: windowMedian },
    ratio: windowMedian === undefined ? undefined : windowMedian / healthy,
    pairedDiff: windowMedian === undefined ? undefined : median(window.map((c) => c.ms - run.anchors[c.i - 1])),
    healthyAll: median(run.anchors),
    paidLimit: downCalls.filter((c) => !c.token || c.ms >= LIMIT_MS).length,
    requestsToA: downCalls.reduce((sum, c) => sum + c.requests[A], 0),
    outcomes: countBy(downCalls.map((c) => (c.token ? `token from ${c.provider ?? "?"}` : c.outcome))),
    aBack: run.aBack,
    recoveredAt: run.recoveredAt,
    events: run.events,
    moves: run.moves,
  };
}

/** The median and p90 of the ms from the hedge's start to the first token, over the calls `b` won; undefined without. */
function afterHedge(run) {
  const won = run.calls.filter((c) => c.token && c.won?.endsWith(`:${B}`)).map((c) => c.ms - run.afterMs);
  return won.length ? { median: median(won), p90: percentile(won, 90), calls: won.length } : undefined;
}

/** Scenario 2's figures for one setting. */
export function tailSummary(run, n) {
  const ms = ttft(run.calls);
  const sent = run.requests[A] + run.requests[B];
  return {
    afterMs: run.afterMs,
    calls: run.calls.length,
    tokens: ms.length,
    p50: percentile(ms, 50),
    p90: percentile(ms, 90),
    p99: percentile(ms, 99),
    max: Math.max(...ms),
    requests: run.requests,
    extra: sent - n,
    extraShare: (sent - n) / n,
    hedgesStarted: run.hedgesStarted ?? 0,
    hedgesWon: run.hedgesWon ?? {},
    breakerChanges: run.breakerChanges ?? [],
    // What a hedge `b` won cost past `afterMs`: the timer's lateness and `b`'s whole time to its first token.
    bAfterHedge: afterHedge(run),
  };
}

/** Both scenarios, each client's run in its own child process; `step` is told of each phase. */
export async function measureRouting(quick = false, step = () => {}) {
  const loadBefore = os.loadavg()[0];
  const clients = recoveryClients(quick);
  const n = quick ? 200 : 1000;
  const settings = [null, ...HEDGE_AFTER_MS];
  // Each run is a child of its own; the runs of a scenario go at once (they spend their time waiting on timers), the
  // scenarios one after the other.
  step(`routing 1: a provider down then recovered (${clients.length} runs at once)`);
  const recovery = await Promise.all(clients.map((c) => inChild({ kind: "recovery", client: c })));
  step(`routing 2: a heavy-tailed first token (${settings.length} runs of ${n} calls, at once)`);
  const tail = await Promise.all(settings.map((afterMs) => inChild({ kind: "tail", afterMs, calls: n })));
  return {
    quick,
    names: { a: A, b: B, flaky: FLAKY, anchor: ANCHOR, heavy: HEAVY },
    portkeyConfig: portkeyConfig("<hub>", FLAKY),
    hedgeChosen: HEDGE_AFTER_MS[0],
    cpus: os.cpus().length,
    load: [loadBefore, os.loadavg()[0]],
    recovery: recovery.map(recoverySummary),
    tail: tail.map((run) => tailSummary(run, n)),
    tailCalls: n,
    limitMs: LIMIT_MS,
    giveUpMs: GIVE_UP_MS,
    cooldownMs: COOLDOWN_MS,
    paceMs: PACE_MS,
    tailFault: TAIL,
    versions: gatewayVersions(),
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
  };
}

if (isMain(import.meta.url)) {
  const child = process.argv.indexOf("--child");
  if (child !== -1) {
    const job = JSON.parse(process.argv[child + 1]);
    const result = job.kind === "recovery" ? await recoveryRun(job.client) : await tailRun(job);
    process.stdout.write(JSON.stringify(result));
  } else {
    const results = await measureRouting(process.argv.includes("--quick"), stepper());
    console.log(`\n${routingTables(results, "text")}`);
    console.log(`\nwrote its section of ${updateRoutingDocs(results)}`);
  }
}
