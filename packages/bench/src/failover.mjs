// `node src/failover.mjs [--quick]`: time to first token of a streamed chat when the first candidate is
// down (refused, 503, stalled), for hfkit with and without failover and the Portkey gateway; prints a
// table and rewrites its section of docs/benchmarks.md. `pnpm bench` runs it as one of its steps.
import net from "node:net";
import { InferenceClient } from "@hfkit/inference";
import { startMockHub } from "@hfkit/mock-hub";
import OpenAI from "openai";
import { gatewayVersions, isMain, stepper } from "./child.mjs";
import { failoverTable, updateFailoverDocs } from "./failover-docs.mjs";
import { fallbackConfig, startGateway } from "./portkey.mjs";
import { median, percentile, rotated } from "./stats.mjs";

/** Every client's limit per candidate: hfkit's firstChunkTimeout, Portkey's request_timeout (its only one: until the headers). */
const LIMIT_MS = 2000;
/** A run with no token by then is over: what a client that does not fail over would wait for. */
const GIVE_UP_MS = 2 * LIMIT_MS;
const MODEL = "bench/first";
const FALLBACK = "bench/up";
const TEXT = "Paris is the capital of France.";
const messages = [{ role: "user", content: "What is the capital of France?" }];

/**
 * The scenarios: each a way for the first candidate to be down, and the anchor where it is up.
 * `down(hub)` answers the first candidate's base URL and an undo.
 */
const SCENARIOS = [
  { key: "healthy", label: "0. nothing down (anchor)", down: (hub) => endpoint(hub) },
  {
    key: "refused",
    label: "1. connection refused",
    down: async () => ({ url: `http://127.0.0.1:${await closedPort()}`, undo() {} }),
  },
  { key: "503", label: "2. 503, not loading", down: (hub) => endpoint(hub, { type: "serverError", status: 503 }) },
  {
    key: "stall",
    label: "3. stall: 200 and headers, then nothing",
    down: (hub) => endpoint(hub, { type: "stall", afterChunks: 0 }),
  },
];

/** A loopback port that was bound and closed: connecting to it is refused. */
async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `MODEL` as a dedicated endpoint of the hub, with `fault` (if any) on every request. */
function endpoint(hub, fault) {
  const rule = fault && hub.inject(fault, { model: MODEL });
  return { url: `${hub.url}/models/${MODEL}`, undo: () => rule?.remove() };
}

/** What one chunk says about the run: a token, or nothing yet. */
const tokenOf = (chunk) => chunk.choices?.[0]?.delta?.content;

function hfkitStream(setup, signal, fallbackModels) {
  const moves = [];
  const client = new InferenceClient("hf_bench", {
    fetch: setup.fetch,
    onFailover: (event) => moves.push(event.reason),
  });
  const args = { model: MODEL, endpointUrl: setup.down, messages, ...(fallbackModels && { fallbackModels }) };
  const stream = client.chatCompletionStream(args, { firstChunkTimeout: LIMIT_MS, maxRetries: 2, signal });
  return { stream, via: () => (moves.length ? `moved on: ${moves.join(", ")}` : "") };
}

async function portkeyStream(setup, signal) {
  const config = fallbackConfig({
    downUrl: setup.down,
    routerUrl: setup.hub.url,
    model: MODEL,
    fallbackModel: FALLBACK,
    timeoutMs: LIMIT_MS,
  });
  const openai = new OpenAI({ apiKey: "hf_bench", baseURL: `${setup.gateway.url}/v1`, maxRetries: 0 });
  const headers = { "x-portkey-config": JSON.stringify(config) };
  const { data, response } = await openai.chat.completions
    .create({ model: MODEL, messages, stream: true }, { signal, headers })
    .withResponse();
  return { stream: data, via: () => `served by ${response.headers.get("x-portkey-last-used-option-index") ?? "?"}` };
}

/** The clients: `open(setup, signal)` answers the stream of chat chunks, and `via()`: what moved the call or served it. */
const CLIENTS = [
  { key: "failover", label: "hfkit, failover", open: async (setup, signal) => hfkitStream(setup, signal, [FALLBACK]) },
  { key: "single", label: "hfkit, no failover", open: async (setup, signal) => hfkitStream(setup, signal) },
  { key: "portkey", label: "Portkey gateway, fallback", open: portkeyStream },
];

/** One call: ms to its first token, or to its error, or to the give-up. */
async function runOnce(client, setup) {
  const signal = AbortSignal.timeout(GIVE_UP_MS);
  const started = performance.now();
  const ms = () => performance.now() - started;
  try {
    const { stream, via } = await client.open(setup, signal);
    for await (const chunk of stream) {
      if (tokenOf(chunk)) return { ms: ms(), token: true, outcome: ["first token", via()].filter(Boolean).join(", ") };
    }
    return { ms: ms(), token: false, outcome: "ended without a token" };
  } catch (error) {
    if (signal.aborted) return { ms: ms(), token: false, outcome: `no token in ${GIVE_UP_MS} ms: gave up` };
    return {
      ms: ms(),
      token: false,
      outcome: typeof error.status === "number" ? `${error.name} (HTTP ${error.status})` : error.name,
    };
  }
}

/** Counts of each outcome, most frequent first, e.g. "14× first token, 1× TimeoutError". */
function outcomes(samples) {
  const counts = new Map();
  for (const s of samples) counts.set(s.outcome, (counts.get(s.outcome) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([outcome, n]) => `${n}× ${outcome}`);
}

function summary(samples) {
  const ms = samples.map((s) => s.ms);
  return {
    runs: samples.length,
    tokens: samples.filter((s) => s.token).length,
    median: median(ms),
    p90: percentile(ms, 90),
    outcomes: outcomes(samples),
  };
}

async function measureScenario(scenario, base, reps) {
  const { url, undo } = await scenario.down(base.hub);
  const setup = { ...base, down: url };
  try {
    for (const client of CLIENTS) await runOnce(client, setup); // warm-up: JIT, the router's catalog, the gateway
    const samples = new Map(CLIENTS.map((c) => [c, []]));
    for (let round = 0; round < reps; round++) {
      for (const client of rotated(CLIENTS, round)) samples.get(client).push(await runOnce(client, setup));
    }
    return {
      key: scenario.key,
      label: scenario.label,
      cells: CLIENTS.map((c) => ({ key: c.key, label: c.label, ...summary(samples.get(c)) })),
    };
  } finally {
    undo();
  }
}

/** Every scenario × client, `reps` rounds each; `step` is told of each scenario as it starts. */
export async function measureFailover(reps = 15, step = () => {}) {
  const hub = await startMockHub({
    models: { [FALLBACK]: { text: TEXT, providers: ["together"] }, [MODEL]: { text: TEXT } },
  });
  const gateway = await startGateway().catch(async (error) => (await hub.close(), Promise.reject(error)));
  const fetch = (url, init) => globalThis.fetch(String(url).replace("https://router.huggingface.co", hub.url), init);
  try {
    const scenarios = [];
    for (const scenario of SCENARIOS) {
      step(scenario.label);
      scenarios.push(await measureScenario(scenario, { hub, gateway, fetch }, reps));
    }
    return {
      scenarios,
      reps,
      limitMs: LIMIT_MS,
      giveUpMs: GIVE_UP_MS,
      model: MODEL,
      fallback: FALLBACK,
      versions: gatewayVersions(),
      node: process.version,
      date: new Date().toISOString().slice(0, 10),
    };
  } finally {
    await gateway.close();
    await hub.close();
  }
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes("--quick");
  const results = await measureFailover(quick ? 5 : 15, stepper());
  console.log(`\n${failoverTable(results, "text")}`);
  console.log(`\nwrote its section of ${updateFailoverDocs(results)}`);
}
