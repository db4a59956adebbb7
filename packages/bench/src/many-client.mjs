// One client of the many-streams benchmark, alone in its process (`node --expose-gc many-client.mjs <client>
// <n> <server url> <chunks>`): opens `n` streams at once, reads them all to the end, prints JSON: CPU per
// chunk, heap and RSS per open stream, event-loop delay, failed streams.
import { createHistogram } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { writeHeapSnapshot } from "node:v8";
import { floorStream } from "./sse.mjs";

const MODEL = "hfkit/tgi-3.2";
const messages = [{ role: "user", content: "What is the capital of France?" }];
const [key, n, url, chunks] = process.argv.slice(2).map((a, i) => (i === 1 || i === 3 ? Number(a) : a));

/**
 * `base` -> `open()`: one client object, as a server holds, and each call the AsyncIterable of chunks.
 * Each imports only its own package: the others' modules stay out of the process.
 */
const OPENERS = {
  floor: async (base) => {
    // What any client sends: the token and the JSON's type (the server reads neither).
    const headers = { authorization: "Bearer hf_bench", "content-type": "application/json" };
    const init = () => ({ method: "POST", headers, body: JSON.stringify({ model: MODEL, messages, stream: true }) });
    return async () => floorStream((await fetch(`${base}/v1/chat/completions`, init())).body);
  },
  hfkit: async (base) => {
    // The build many.mjs copied (a rebuild elsewhere cannot change it mid-run), else the workspace's.
    const entry = process.env.MANY_HFKIT ? pathToFileURL(process.env.MANY_HFKIT).href : "@hfkit/inference";
    const { InferenceClient } = await import(entry);
    const client = new InferenceClient("hf_bench", { endpointUrl: base, backend: "tgi" });
    return async () => client.chatCompletionStream({ model: MODEL, messages });
  },
  hf: async (base) => {
    const { InferenceClient: HfInferenceClient } = await import("@huggingface/inference");
    const client = new HfInferenceClient("hf_bench");
    return async () => client.chatCompletionStream({ endpointUrl: base, model: MODEL, messages });
  },
  openai: async (base) => {
    const { default: OpenAI } = await import("openai");
    const client = new OpenAI({ apiKey: "hf_bench", baseURL: `${base}/v1`, maxRetries: 0 });
    return () => client.chat.completions.create({ model: MODEL, messages, stream: true });
  },
};

const cpuSeconds = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1e6;
};

/** Reads one stream to its end, touching each chunk's content; tells `live` of its first chunk and its end. */
async function read(open, live) {
  let count = 0;
  let chars = 0;
  try {
    for await (const chunk of await open()) {
      if (count++ === 0) live.opened();
      chars += chunk.choices[0]?.delta?.content?.length ?? 0;
      live.chunks++;
    }
    return { count, chars };
  } catch (error) {
    return { count, chars, error: `${error.name}: ${error.message}` };
  } finally {
    if (count === 0) live.opened();
    live.end();
  }
}

/**
 * The event loop's delay: how late a 10 ms timer fires, into a histogram (ns), as `monitorEventLoopDelay`
 * measures it, but with a pause (`stop()`, later `start()`) that leaves a forced GC out.
 */
function loopDelay() {
  const histogram = createHistogram();
  let timer;
  let last;
  const tick = () => {
    const now = performance.now();
    histogram.record(Math.max(1, Math.round((now - last - 10) * 1e6)));
    last = now;
  };
  return {
    histogram,
    start: () => ((last = performance.now()), (timer = setInterval(tick, 10))),
    stop: () => clearInterval(timer),
  };
}

/** After a full GC: heap used and RSS, bytes. */
function settled() {
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

/**
 * What the reads tell as they go. Samples the memory once, when every stream has its first chunk or one ends,
 * whichever comes first: all n are open then (a client that lags opens its last ones late). The sample's GC
 * is left out of the loop's delay and, as `sampleCpu`, of the CPU time.
 */
function liveStreams(delay, startedAt) {
  return {
    first: 0,
    ended: 0,
    chunks: 0,
    taken: undefined,
    sampleCpu: 0,
    opened() {
      if (++this.first === n) this.sample();
    },
    end() {
      if (this.ended === 0) this.sample();
      this.ended++;
    },
    sample() {
      if (this.taken) return;
      const cpu = process.cpuUsage();
      delay.stop();
      const ms = performance.now() - startedAt;
      this.taken = { ...settled(), open: n - this.ended, first: this.first, chunks: this.chunks, ms };
      // For a profile, not the table: `MANY_HEAP_SNAPSHOT=<file>` writes what the open streams hold.
      if (process.env.MANY_HEAP_SNAPSHOT) writeHeapSnapshot(process.env.MANY_HEAP_SNAPSHOT);
      delay.start();
      this.sampleCpu = cpuSeconds(cpu);
    },
  };
}

/** The figures of one run, from the reads' results, the CPU time, the baseline and the sample. */
function figures(results, { cpu, wallMs, base, sample, delay }) {
  const received = results.reduce((sum, r) => sum + r.count, 0);
  const failed = results.filter((r) => r.error !== undefined || r.count !== chunks);
  const perStreamKB = (field) => (sample ? (sample[field] - base[field]) / sample.open / 1000 : undefined);
  return {
    key,
    n,
    chunks: received,
    chars: results.reduce((sum, r) => sum + r.chars, 0),
    failed: failed.length,
    error: failed[0] && (failed[0].error ?? `${failed[0].count} chunks of ${chunks}`),
    cpu,
    cpuPerChunkUs: (cpu / received) * 1e6,
    wallMs,
    heapPerStreamKB: perStreamKB("heapUsed"),
    rssPerStreamKB: perStreamKB("rss"),
    sample: sample && { open: sample.open, first: sample.first, chunks: sample.chunks, ms: sample.ms },
    delayP99Ms: delay.histogram.percentile(99) / 1e6,
    delayMaxMs: delay.histogram.max / 1e6,
  };
}

async function measure() {
  const open = await OPENERS[key](`${url}/paced`);
  const warm = await OPENERS[key](`${url}/burst`);
  // Warm-up: the code paths compiled and the connection pool grown, so the run measures the steady state.
  await Promise.all(Array.from({ length: 50 }, () => read(warm, { opened() {}, end() {}, chunks: 0 })));
  const base = settled();
  const delay = loopDelay();
  delay.start();
  const started = process.cpuUsage();
  const wallStarted = performance.now();
  const live = liveStreams(delay, wallStarted);
  const results = await Promise.all(Array.from({ length: n }, () => read(open, live)));
  const cpu = cpuSeconds(started) - live.sampleCpu;
  const wallMs = performance.now() - wallStarted;
  delay.stop();
  return figures(results, { cpu, wallMs, base, sample: live.taken, delay });
}

process.stdout.write(JSON.stringify(await measure()));
