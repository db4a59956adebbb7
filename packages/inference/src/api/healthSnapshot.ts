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
