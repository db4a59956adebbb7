// `pnpm bench:many [--n 1000] [--chunks 50] [--rounds 3] [--no-docs]`: N chat streams open at once in one process, as a
// server relaying chats holds them, for the floor, hfkit, @huggingface/inference and openai; each client
// alone in a child process, the server in another. Prints a table with ratios to the floor and rewrites
// its section of docs/benchmarks.md.
import { fork, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BENCH_DIR, isMain, stepper, version } from "./child.mjs";
import { manyTable, updateManyDocs } from "./many-docs.mjs";
import { median, rotated, sleep } from "./stats.mjs";

/** Chunks per stream: `--chunks` moves what a stream costs to open and close against what each chunk costs. */
export const CHUNKS = 50;
export const PACE_MS = 40;
export const CLIENTS = [
  { key: "floor", label: "floor: fetch + split + JSON.parse" },
  { key: "hfkit", label: "hfkit InferenceClient" },
  { key: "hf", label: "@huggingface/inference" },
  { key: "openai", label: "openai" },
];

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

const HFKIT = here("../node_modules/@hfkit/inference/");

/** Every file of `dir` with its size and time, or "" while the entry is missing (a build has emptied dist). */
function fingerprint(dir, entry) {
  try {
    statSync(join(dir, entry));
    return readdirSync(join(dir, "dist"), { recursive: true })
      .sort()
      .map((f) => {
        const st = statSync(join(dir, "dist", f));
        return `${f}:${st.size}:${st.mtimeMs}`;
      })
      .join();
  } catch {
    return "";
  }
}

/**
 * A copy of the workspace's build of @hfkit/inference, taken once it has stayed the same for 2 s: every round
 * measures the same build while a `pnpm build` elsewhere empties and refills dist/. Answers its entry file.
 */
async function stableHfkit(into, step) {
  const entry = JSON.parse(readFileSync(join(HFKIT, "package.json"), "utf8")).exports["."].import.node;
  for (let waited = 0; ; waited += 2) {
    const before = fingerprint(HFKIT, entry);
    await sleep(2000);
    if (before !== "" && before === fingerprint(HFKIT, entry)) break;
    if (waited === 0) step("waiting for a complete build of @hfkit/inference (a build is running)");
    if (waited > 300) throw new Error("no complete build of @hfkit/inference in 5 minutes: build it first");
  }
  cpSync(join(HFKIT, "dist"), join(into, "dist"), { recursive: true });
  cpSync(join(HFKIT, "package.json"), join(into, "package.json"));
  return join(into, entry);
}

async function startServer(chunks) {
  const stdio = ["ignore", "inherit", "inherit", "ipc"];
  const child = fork(here("many-server.mjs"), [chunks, PACE_MS].map(String), { stdio });
  const [{ url }] = await once(child, "message");
  const ask = async () => (child.send("cpu"), (await once(child, "message"))[0].cpu);
  return { url, cpu: ask, close: async () => (child.send("exit"), await once(child, "exit")) };
}

/** One child process, `node --expose-gc many-client.mjs`: what it measured; tried up to 3 times, as child.mjs does. */
async function runClient(key, n, chunks, url, hfkitEntry) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runClientOnce(key, n, chunks, url, hfkitEntry);
    } catch (error) {
      if (attempt === 3) throw error;
      process.stderr.write(`  (failed, trying again: ${error.message})\n`);
      await sleep(3000);
    }
  }
}

async function runClientOnce(key, n, chunks, url, hfkitEntry) {
  const child = spawn(process.execPath, ["--expose-gc", here("many-client.mjs"), key, n, url, chunks].map(String), {
    cwd: BENCH_DIR,
    env: { ...process.env, MANY_HFKIT: hfkitEntry },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (data) => (out += data));
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`many-client.mjs ${key} exited with ${code}`);
  return JSON.parse(out);
}

/** Medians over rounds of every figure, and of the per-round ratios to the floor (rate: 1 / CPU per chunk). */
function summarise(samples, floors) {
  const m = (fn) => median(samples.map(fn));
  const ratio = (fn) => median(samples.map((s, i) => fn(s) / fn(floors[i])));
  return {
    cpuPerChunkUs: m((s) => s.cpuPerChunkUs),
    heapPerStreamKB: m((s) => s.heapPerStreamKB),
    rssPerStreamKB: m((s) => s.rssPerStreamKB),
    delayP99Ms: m((s) => s.delayP99Ms),
    wallMs: m((s) => s.wallMs),
    serverUsPerChunk: m((s) => s.serverUsPerChunk),
    rateRatio: ratio((s) => 1 / s.cpuPerChunkUs),
    heapRatio: ratio((s) => s.heapPerStreamKB),
    rssRatio: ratio((s) => s.rssPerStreamKB),
    delayRatio: ratio((s) => s.delayP99Ms),
    chunks: Math.min(...samples.map((s) => s.chunks)),
    firstAtSample: Math.min(...samples.map((s) => s.sample?.first ?? 0)),
    failed: Math.max(...samples.map((s) => s.failed)),
    error: samples.find((s) => s.error)?.error,
    rateRatios: samples.map((s, i) => floors[i].cpuPerChunkUs / s.cpuPerChunkUs),
    heapRatios: samples.map((s, i) => s.heapPerStreamKB / floors[i].heapPerStreamKB),
  };
}

export async function measureMany({ n = 1000, chunks = CHUNKS, rounds = 3, step = () => {} } = {}) {
  const started = performance.now();
  const copy = mkdtempSync(join(tmpdir(), "hfkit-many-"));
  const server = await startServer(chunks);
  try {
    const hfkitEntry = await stableHfkit(copy, step);
    const samples = new Map(CLIENTS.map((c) => [c.key, []]));
    const loads = [loadavg()[0]];
    for (let round = 0; round < rounds; round++) {
      step(`round ${round + 1} of ${rounds} (load ${loadavg()[0].toFixed(2)})`);
      for (const client of rotated(CLIENTS, round)) {
        const before = await server.cpu();
        const r = await runClient(client.key, n, chunks, server.url, hfkitEntry);
        const serverCpu = (await server.cpu()) - before;
        const serverUsPerChunk = (serverCpu / Math.max(r.chunks, 1)) * 1e6;
        samples.get(client.key).push({ ...r, serverCpu, serverUsPerChunk, load: loadavg()[0] });
        await sleep(500);
      }
      loads.push(loadavg()[0]);
    }
    const floors = samples.get("floor");
    return {
      cells: CLIENTS.map((c) => ({ ...c, ...summarise(samples.get(c.key), floors) })),
      n,
      rounds,
      chunks,
      paceMs: PACE_MS,
      loads,
      cpus: availableParallelism(),
      seconds: (performance.now() - started) / 1000,
      versions: {
        hfkit: JSON.parse(readFileSync(join(copy, "package.json"), "utf8")).version,
        hf: version("@huggingface/inference"),
        openai: version("openai"),
      },
      node: process.version,
      date: new Date().toISOString().slice(0, 16).replace("T", " "),
    };
  } finally {
    await server.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const options = {
    n: { type: "string" },
    chunks: { type: "string" },
    rounds: { type: "string" },
    "no-docs": { type: "boolean" },
  };
  const { values } = parseArgs({ options });
  const step = stepper();
  const n = Number(values.n ?? 1000);
  const results = await measureMany({
    n,
    chunks: Number(values.chunks ?? CHUNKS),
    rounds: Number(values.rounds ?? 3),
    step,
  });
  step("done");
  console.log(`\n${manyTable(results, "text")}`);
  const loads = results.loads.map((l) => l.toFixed(2)).join(", ");
  console.log(`\nload average (1 min) before and after each round: ${loads}`);
  if (!values["no-docs"]) console.log(`wrote its section of ${updateManyDocs(results)}`);
}
