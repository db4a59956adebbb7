// Row 2c: timers started while one 100 000-event stream is read (per-chunk timer churn shows here).
import { consume, STREAMS } from "./clients.mjs";
import { bodyOf, fetchServing, sseChunks } from "./sse.mjs";

const KINDS = ["setTimeout", "setInterval", "setImmediate"];

/** Counts calls to the timer functions while `run` runs; the real timers still run. */
async function countTimers(run) {
  const real = Object.fromEntries(KINDS.map((k) => [k, globalThis[k]]));
  let count = 0;
  for (const k of KINDS) {
    globalThis[k] = function counted(...args) {
      count++;
      return real[k].apply(this, args);
    };
  }
  try {
    await run();
  } finally {
    Object.assign(globalThis, real);
  }
  return count;
}

export async function measureTimers(keys, shape, events = 100_000) {
  const chunks = sseChunks(events, shape);
  const result = {};
  for (const key of keys) {
    result[key] = await countTimers(async () => consume(await STREAMS[key](fetchServing(() => bodyOf(chunks)))));
  }
  return result;
}
