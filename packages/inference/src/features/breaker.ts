/**
 * A target's circuit breaker, as pure steps over what a store keeps (`TargetHealth`): the health option checked, a
 * target admitted or not, an outcome counted. Nothing here keeps state or reads a clock: `now` is handed in.
 */
import { InputError } from "../core/errors";
import { isRecord } from "../core/json";
import type { BreakerState, HealthOptions, HealthStore, TargetHealth } from "../types";

/** The health option, checked, every field set. */
export interface BreakerConfig {
  readonly threshold: number;
  readonly window: number;
  readonly ratio: number;
  readonly minimumCalls: number;
  readonly cooldown: number;
  readonly store: HealthStore | undefined;
}

export const DEFAULT_HEALTH = { threshold: 3, window: 60_000, ratio: 0.5, minimumCalls: 10, cooldown: 30_000 } as const;

/** The longest cooldown a 429's `Retry-After` sets (a hostile value is held as this). */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** The most outcomes kept per target (the window's record). */
const MAX_RECENT = 100;

/** The most observed times to first token kept per target (what a hedge's percentile is read from). */
export const MAX_LATENCIES = 100;

const DAY = 86_400_000;

/** `value` of `field`, when given: an integer (or a number) within `[min, max]`, else an InputError naming both. */
function within(field: string, value: unknown, min: number, max: number, integer: boolean, above = false): void {
  if (value === undefined) return;
  const ok = typeof value === "number" && (integer ? Number.isInteger(value) : Number.isFinite(value));
  if (ok && (above ? value > min : value >= min) && value <= max) return;
  const kind = integer ? "an integer" : "a number";
  const from = above ? `above ${min}` : `from ${min}`;
  throw new InputError(`\`${field}\` must be ${kind} ${from} to ${max} (got ${describe(value)})`, field);
}

export const describe = (v: unknown): string => (typeof v === "number" ? String(v) : v === null ? "null" : typeof v);

/** The call's `health` option checked (an InputError naming the field); undefined: health is off (`false`). */
export function breakerConfig(option: unknown): BreakerConfig | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return { ...DEFAULT_HEALTH, store: undefined };
  if (!isRecord(option))
    throw new InputError(`\`health\` must be false or an object (got ${describe(option)})`, "health");
  const o = option as HealthOptions;
  within("health.threshold", o.threshold, 1, 1000, true);
  within("health.window", o.window, 1000, DAY, false);
  within("health.ratio", o.ratio, 0, 1, false, true);
  within("health.minimumCalls", o.minimumCalls, 1, 1000, true);
  within("health.cooldown", o.cooldown, 1, DAY, false);
  const store: unknown = o.store;
  const methods = ["get", "record", "snapshot", "now"] as const;
  if (store !== undefined && !(isRecord(store) && methods.every((m) => typeof store[m] === "function"))) {
    throw new InputError("`health.store` must have get, record, snapshot and now", "health.store");
  }
  return { ...DEFAULT_HEALTH, ...defined(o), store: o.store };
}

function defined(o: HealthOptions): Partial<BreakerConfig> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && k !== "store") out[k] = v;
  return out;
}

/** A target never seen. */
export const fresh = (target: string, credential: string | undefined): TargetHealth => {
  const h: TargetHealth = { target, state: "closed", failures: 0, calls: 0, served: 0, recent: [] };
  if (credential !== undefined) h.credential = credential;
  return h;
};

/** What `h` is at `now`: an open breaker whose cooldown is over is half-open. */
export const stateAt = (h: TargetHealth, now: number): BreakerState =>
  h.state === "open" && (h.cooldownUntil ?? 0) <= now ? "half-open" : h.state;

/** Whether a call may try `h` at `now` without taking a probe: closed, or half-open with no probe running. */
export function passable(h: TargetHealth | undefined, now: number, config: BreakerConfig): boolean {
  if (h === undefined) return true;
  const state = stateAt(h, now);
  // A probe that has run for longer than a cooldown is taken as lost (its call ended without a word).
  return (
    state === "closed" ||
    (state === "half-open" && (h.probeSince === undefined || now - h.probeSince > config.cooldown))
  );
}

/** An outcome of a try, as the breaker counts it: a success (with its timings), a failure, or neither (the caller's error, an abort). */
export type Outcome =
  | { readonly ok: true; readonly latencyMs: number }
  | { readonly ok: false; readonly retryAfterMs?: number }
  | { readonly ok: undefined };

/** `h` after `outcome` at `now`; its new state differs from the old one when the breaker moved. */
export function counted(h: TargetHealth, outcome: Outcome, now: number, config: BreakerConfig): TargetHealth {
  const next: TargetHealth = { ...h, recent: h.recent.filter((r) => r.at > now - config.window) };
  delete next.probeSince;
  if (outcome.ok === undefined) return next;
  next.recent.push({ at: now, failed: !outcome.ok });
  if (next.recent.length > MAX_RECENT) next.recent.shift();
  next.calls = next.recent.length;
  next.failures = next.recent.filter((r) => r.failed).length;
  if (outcome.ok) {
    next.served++;
    next.latencyMs = average(h.latencyMs, outcome.latencyMs);
    next.latencies = [...(Array.isArray(h.latencies) ? h.latencies : []), outcome.latencyMs].slice(-MAX_LATENCIES);
    next.state = "closed";
    delete next.cooldownUntil;
    return next;
  }
  const retryAfter = outcome.retryAfterMs;
  const ratioOpens = next.calls >= config.minimumCalls && next.failures / next.calls >= config.ratio;
  const opens = stateAt(h, now) === "half-open" || next.failures >= config.threshold || ratioOpens;
  if (retryAfter !== undefined || opens) {
    const cooldown = retryAfter === undefined ? config.cooldown : Math.min(Math.max(retryAfter, 0), MAX_RETRY_AFTER_MS);
    next.state = "open";
    next.cooldownUntil = now + cooldown;
  }
  return next;
}

/** A moving average that weighs the newest observation by a quarter. */
export const average = (old: number | undefined, value: number): number =>
  old === undefined ? value : old * 0.75 + value * 0.25;
