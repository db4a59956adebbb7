// `pnpm bench:load [--rounds R] [--quick] [--n 50,500] [--mode burst|paced|burst-vllm] [--profile DIR]
// [--compare BUILD [--compare-label L]] [--no-docs]`: N concurrent streams of 100 chunks from the `openai`
// client, paced and in bursts, through `hfkit proxy`, through the Portkey gateway and straight to the mock
// hub (the floor), each in its own process; prints a table with ratios to the floor and rewrites its
// section of docs/benchmarks.md. Takes minutes: `pnpm bench` leaves it out.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { gatewayVersions, isMain, stepper } from "./child.mjs";
import { loadTable, updateLoadDocs } from "./load-docs.mjs";
import { cpuSeconds, rssMB, startClients, startHfkit, startHub, startPortkey } from "./load-procs.mjs";
import { median, rotated, sleep } from "./stats.mjs";

const CHUNKS = 100;
const PACE_MS = 20;
const MODES = [
  { key: "burst", label: "burst", model: "bench/burst" },
  { key: "paced", label: `paced (${PACE_MS} ms)`, model: "bench/paced" },
  { key: "burst-vllm", label: "burst, vLLM", model: "bench/burst-vllm" },
];

/** Where each path sends the client: the floor straight to the hub, the gateways in front of it. */
function paths(hub, hfkit, portkey, other) {
  const direct = { key: "direct", label: "direct to the hub (floor)", url: `${hub.url}/v1`, headers: {} };
  const viaHfkit = { key: "hfkit", label: "hfkit proxy", url: `${hfkit.url}/v1`, headers: {}, proc: hfkit };
  const viaOther = other && { key: "other", label: other.label, url: `${other.url}/v1`, headers: {}, proc: other };
  // Portkey's documented headers for an OpenAI-compatible server of one's own.
  const headers = { "x-portkey-provider": "openai", "x-portkey-custom-host": `${hub.url}/v1` };
  const viaPortkey = portkey && {
    key: "portkey",
    label: "Portkey gateway",
    url: `${portkey.url}/v1`,
    headers,
    proc: portkey,
  };
  return [direct, viaHfkit, viaOther, viaPortkey].filter(Boolean);
}

/** Samples `pid`'s RSS every 25 ms until `stop()`, which answers the peak. */
function rssPeak(pid) {
  let peak = rssMB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMB(pid))), 25);
  return () => (clearInterval(timer), Math.max(peak, rssMB(pid)));
}

/** One run: `n` streams along `path`; the gateway's CPU seconds and RSS growth over it. */
async function runOnce(clients, hub, path, mode, n) {
  const pids = [hub.pid, clients.pid, path.proc?.pid].filter(Boolean);
  const cpuBefore = pids.map(cpuSeconds);
  const rssBefore = path.proc ? rssMB(path.proc.pid) : undefined;
  const peak = path.proc ? rssPeak(path.proc.pid) : undefined;
  const r = await clients.run({ baseURL: path.url, model: mode.model, n, headers: path.headers, expected: CHUNKS });
  const [hubCpu, clientsCpu, gatewayCpu] = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
  const rssPeakMB = peak?.();
  return {
    ...r,
    hubCpu,
    clientsCpu,
    gatewayCpu,
    rssMB: rssPeakMB,
    perStreamKB: path.proc ? ((rssPeakMB - rssBefore) * 1024) / n : undefined,
  };
}

/** Medians over rounds of every figure, and of the per-round ratios to the floor. */
function summarise(samples, floors) {
  const m = (key) => (samples[0][key] === undefined ? undefined : median(samples.map((s) => s[key])));
  const ratio = (key) => median(samples.map((s, i) => s[key] / floors[i][key]));
  const perChunkUs = (key) =>
    samples[0][key] === undefined ? undefined : median(samples.map((s) => (s[key] / s.chunks) * 1e6));
  return {
    rate: m("rate"),
    firstP50: m("firstP50"),
    firstP99: m("firstP99"),
    gapP99: m("gapP99"),
    failed: Math.max(...samples.map((s) => s.failed)),
    error: samples.find((s) => s.error)?.error,
    gatewayCpu: m("gatewayCpu"),
    cpuPerChunkUs: perChunkUs("gatewayCpu"),
    hubUs: perChunkUs("hubCpu"),
    clientsUs: perChunkUs("clientsCpu"),
    rssMB: m("rssMB"),
    perStreamKB: m("perStreamKB"),
    rateRatio: ratio("rate"),
    firstP99Ratio: ratio("firstP99"),
    gapP99Ratio: ratio("gapP99"),
  };
}

export async function measureLoad({
  rounds = 3,
  ns = [50, 200, 500],
  modes = MODES,
  withPortkey = true,
  profileDir,
  compare,
  step = () => {},
} = {}) {
  const hub = await startHub(PACE_MS);
  const procs = [hub];
  try {
    const hfkit = await startHfkit(hub.url, profileDir);
    procs.push(hfkit);
    const other = compare
      ? { ...(await startHfkit(hub.url, undefined, compare.build)), label: compare.label }
      : undefined;
    if (other) procs.push(other);
    const portkey = withPortkey ? await startPortkey() : undefined;
    if (portkey) procs.push(portkey);
    const clients = await startClients();
    procs.push(clients);
    const all = paths(hub, hfkit, portkey, other);
    step("warm-up: 50 streams of each mode along each path");
    for (const mode of modes) for (const path of all) await runOnce(clients, hub, path, mode, 50);
    const loads = [loadavg()[0]];
    const samples = new Map();
    for (let round = 0; round < rounds; round++) {
      step(`round ${round + 1} of ${rounds} (load ${loadavg()[0].toFixed(2)})`);
      for (const mode of modes) {
        for (const n of ns) {
          for (const path of rotated(all, round + n)) {
            const key = `${mode.key}/${n}/${path.key}`;
            samples.set(key, [...(samples.get(key) ?? []), await runOnce(clients, hub, path, mode, n)]);
            await sleep(200);
          }
        }
      }
      loads.push(loadavg()[0]);
    }
    const cells = modes.flatMap((mode) =>
      ns.flatMap((n) =>
        all.map((path) => {
          const floors = samples.get(`${mode.key}/${n}/direct`);
          return {
            mode: mode.label,
            n,
            path: path.key,
            label: path.label,
            ...summarise(samples.get(`${mode.key}/${n}/${path.key}`), floors),
          };
        }),
      ),
    );
    return {
      cells,
      rounds,
      chunks: CHUNKS,
      paceMs: PACE_MS,
      loads,
      versions: gatewayVersions(),
      node: process.version,
      date: new Date().toISOString().slice(0, 16).replace("T", " "),
    };
  } finally {
    for (const p of procs.reverse()) await p.close();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string" },
      quick: { type: "boolean" },
      profile: { type: "string" },
      "no-docs": { type: "boolean" },
      "no-portkey": { type: "boolean" },
      n: { type: "string" },
      compare: { type: "string" },
      "compare-label": { type: "string" },
      mode: { type: "string" },
    },
  });
  const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
  const ns = values.n ? values.n.split(",").map(Number) : values.quick ? [50, 200] : [50, 200, 500];
  const modes = MODES.filter((m) => !values.mode || m.key === values.mode);
  const results = await measureLoad({
    rounds,
    ns,
    modes,
    withPortkey: !values["no-portkey"],
    profileDir: values.profile,
    compare: values.compare && {
      build: values.compare,
      label: values["compare-label"] ?? "hfkit proxy, --compare build",
    },
    step: stepper(),
  });
  console.log(`\n${loadTable(results, "text")}`);
  console.log(
    `\nload average (1 min) before and after each round: ${results.loads.map((l) => l.toFixed(2)).join(", ")}`,
  );
  if (!values["no-docs"]) console.log(`wrote its section of ${updateLoadDocs(results)}`);
}
