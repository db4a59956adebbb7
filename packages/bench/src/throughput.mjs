// Row 2: chat chunks per second through each client's `fetch` option, against the floor loop.
// Run as a child (`node --expose-gc --single-threaded-gc`); prints its result as JSON. Time is the
// process's CPU time: with GC on the main thread it is the work done, whatever else the machine runs.
import { isMain } from "./child.mjs";
import { consume, STREAMS } from "./clients.mjs";
import { bodyOf, fetchServing, sseChunks } from "./sse.mjs";
import { median, rotated } from "./stats.mjs";

export const THROUGHPUT_KEYS = ["floor", "hfkit", "hf", "openai", "parser", "hfkit-observed"];
export const SHAPES = { "16k": "16 KB chunks", event: "one event per chunk" };

function cpuMs(since) {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

async function timeOne(key, chunks, events) {
  globalThis.gc?.();
  const fetch = fetchServing(() => bodyOf(chunks));
  const started = process.cpuUsage();
  const { count } = await consume(await STREAMS[key](fetch));
  const ms = cpuMs(started);
  if (count !== events) throw new Error(`${key}: ${count} chunks yielded, ${events} sent`);
  return events / (ms / 1000);
}

const ratios = (values, floor) => values.map((v, i) => v / floor[i]);

/** Per shape and client: median events/s and the median of its per-round ratios to the floor. */
export async function measureThroughput({ rounds = 5, events = 100_000 } = {}) {
  const result = {};
  for (const shape of Object.keys(SHAPES)) {
    const chunks = sseChunks(events, shape);
    const warm = sseChunks(events / 10, shape);
    for (const key of THROUGHPUT_KEYS) await timeOne(key, warm, events / 10);
    const runs = Object.fromEntries(THROUGHPUT_KEYS.map((k) => [k, []]));
    for (let round = 0; round < rounds; round++) {
      for (const key of rotated(THROUGHPUT_KEYS, round)) runs[key].push(await timeOne(key, chunks, events));
    }
    result[shape] = Object.fromEntries(
      THROUGHPUT_KEYS.map((k) => [
        k,
        { median: median(runs[k]), toFloor: median(ratios(runs[k], runs.floor)), ratios: ratios(runs[k], runs.floor) },
      ]),
    );
  }
  return result;
}

if (isMain(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? 5);
  process.stdout.write(JSON.stringify(await measureThroughput({ rounds })));
}
