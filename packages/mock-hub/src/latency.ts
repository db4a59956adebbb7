import type { Timers } from "./timers.js";
import type { LatencyFault } from "./types.js";

/** The standard normal's 99th percentile: a log-normal's p99 is its p50 times e^(σ·Z99). */
const Z99 = 2.3263478740408408;

/**
 * The wait of the `n`-th request a latency fault applies to, in ms: its `delayMs`, or a log-normal draw (in whole
 * ms) with its `p50Ms` and `p99Ms`, a pure function of (`seed`, n), so that the same run waits the same.
 */
export function latencyMs(fault: LatencyFault, n: number): number {
  if (fault.delayMs !== undefined) return fault.delayMs;
  const p50 = fault.p50Ms ?? 0;
  const sigma = Math.log((fault.p99Ms ?? p50) / p50) / Z99;
  return Math.round(p50 * Math.exp(sigma * normal(fault.seed ?? 1, n)));
}

/** A standard normal draw (Box-Muller) from two uniforms of (seed, n). */
function normal(seed: number, n: number): number {
  const u1 = uniform(seed, 2 * n);
  const u2 = uniform(seed, 2 * n + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** A uniform in (0, 1) from (seed, i): murmur3's finalizer over the seed, then over it and i. */
function uniform(seed: number, i: number): number {
  return (mix((mix(seed) + Math.imul(i, 0x9e3779b9)) >>> 0) + 0.5) / 2 ** 32;
}

function mix(x: number): number {
  let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Resolves after `ms`, or at once when `signal` aborts (a client that left waits no longer). */
export function pause(timers: Timers, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const cancel = timers.after(ms, done);
    signal.addEventListener("abort", done, { once: true });
    function done(): void {
      cancel();
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
