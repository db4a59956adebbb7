import type { Fault } from "./types.js";

/** What a field must be, or undefined when `value` is one; `fault` for the ranges that depend on another field. */
type Check = (value: unknown, fault: Record<string, unknown>) => string | undefined;

const count: Check = (v) => (Number.isInteger(v) && (v as number) >= 1 ? undefined : "an integer >= 1");
const duration: Check = (v) =>
  typeof v === "number" && v > 0 ? undefined : "a number of ms > 0, or Infinity for no end";
const wait: Check = (v) => (isFinite(v) && (v as number) >= 0 ? undefined : "a number of ms >= 0");
const seconds: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 0 ? undefined : "an integer number of seconds >= 0";
const median: Check = (v) => (isFinite(v) && (v as number) > 0 ? undefined : "a number of ms > 0");
const tail: Check = (v, fault) => {
  const p50 = typeof fault.p50Ms === "number" ? fault.p50Ms : 0;
  return isFinite(v) && (v as number) >= p50 ? undefined : `a number of ms >= p50Ms (${p50})`;
};
const seed: Check = (v) => (Number.isSafeInteger(v) ? undefined : "an integer");

/** The fields every fault takes, then each fault's own (those not listed are not checked here). */
const COMMON: Record<string, Check> = { times: count, durationMs: duration };
const OWN: Record<string, Record<string, Check>> = {
  rateLimit: { retryAfter: seconds, retryAfterMs: wait },
  latency: { delayMs: wait, p50Ms: median, p99Ms: tail, seed },
};

/**
 * The first thing wrong with `fault`, naming its field and the range allowed (e.g. "p99Ms must be a number of
 * ms >= p50Ms (200) (got 100)"); undefined when it can be scripted. `hub.inject` and `hfkit mock-hub --fault` say it.
 */
export function faultProblem(fault: Fault): string | undefined {
  const fields = fault as unknown as Record<string, unknown>;
  const checks = { ...COMMON, ...OWN[fault.type] };
  for (const [field, check] of Object.entries(checks)) {
    const value = fields[field];
    const allowed = value === undefined ? undefined : check(value, fields);
    if (allowed) return `${field} must be ${allowed} (got ${shown(value)})`;
  }
  return fault.type === "latency" ? latencyForm(fields) : undefined;
}

/** A latency is fixed (`delayMs`) or drawn (`p50Ms` and `p99Ms`): exactly one of the two. */
function latencyForm(fault: Record<string, unknown>): string | undefined {
  const drawn = fault.p50Ms !== undefined || fault.p99Ms !== undefined;
  if (fault.delayMs !== undefined)
    return drawn ? "delayMs (a fixed wait) cannot go with p50Ms / p99Ms (a drawn one)" : undefined;
  if (fault.p50Ms === undefined || fault.p99Ms === undefined) return "it takes delayMs, or both p50Ms and p99Ms";
  return undefined;
}

function isFinite(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value);
}

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
