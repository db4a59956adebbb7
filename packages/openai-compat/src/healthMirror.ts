import type { BreakerState, TargetHealth } from "@hfkit/inference";

/** How many targets (per credential) a mirror keeps, as the process's own health memory does. */
export const MIRROR_TARGETS = 500;

/** A bounded map of health, least recently used first out: what a replica reads without waiting on Redis. */
export class HealthMirror {
  private readonly kept = new Map<string, TargetHealth>();

  constructor(private readonly capacity = MIRROR_TARGETS) {}

  get(key: string): TargetHealth | undefined {
    return this.kept.get(key);
  }

  has(key: string): boolean {
    return this.kept.has(key);
  }

  set(key: string, health: TargetHealth): void {
    this.kept.delete(key);
    this.kept.set(key, health);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value ?? "");
  }

  /** Every target, with an open breaker whose cooldown is over told as half-open. */
  snapshot(now: number): TargetHealth[] {
    return [...this.kept.values()].map((h) => ({ ...h, state: stateAt(h, now), recent: [...h.recent] }));
  }
}

const stateAt = (h: TargetHealth, now: number): BreakerState =>
  h.state === "open" && (h.cooldownUntil ?? 0) <= now ? "half-open" : h.state;

const STATES: readonly unknown[] = ["closed", "open", "half-open"];
const isNumber = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
const optionalNumber = (v: unknown): boolean => v === undefined || isNumber(v);

/** Whether `value` (read from Redis, so written by any process) has the shape of a target's health. */
export function isTargetHealth(value: unknown): value is TargetHealth {
  if (typeof value !== "object" || value === null) return false;
  const h = value as Record<string, unknown>;
  const recent = h.recent;
  return (
    typeof h.target === "string" &&
    (h.credential === undefined || typeof h.credential === "string") &&
    STATES.includes(h.state) &&
    [h.failures, h.calls, h.served].every(isNumber) &&
    [h.cooldownUntil, h.latencyMs, h.tokensPerSecond, h.probeSince].every(optionalNumber) &&
    Array.isArray(recent) &&
    recent.length <= 1000 &&
    recent.every((r: { at?: unknown; failed?: unknown }) => isNumber(r?.at) && typeof r?.failed === "boolean")
  );
}
