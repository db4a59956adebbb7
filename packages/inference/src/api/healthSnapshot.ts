import { shared } from "../core/shared";
import type { HealthStore, TargetHealth } from "../types";

/**
 * The health the process remembers of the targets its calls fail over between (each target per credential: its
 * breaker's state, failures, cooldown end, observed latency and throughput). Empty before any such call. The
 * failover keeps it (`features/health.ts`, loaded on first use); this reads it without loading that code.
 */
export function healthSnapshot(): TargetHealth[] {
  return shared<HealthStore | undefined>("health", () => undefined)?.snapshot() ?? [];
}

/**
 * Forgets the health the process remembers: every breaker closed, every observed latency and throughput dropped, as
 * at start. For tests that must not see one another's failures, or after the network changed. A `health.store` of
 * the app's own (Redis, ...) is the app's to clear.
 */
export function forgetHealth(): void {
  shared<HealthStore | undefined>("health", () => undefined)?.clear?.();
}
