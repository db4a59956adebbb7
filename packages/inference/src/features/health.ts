/**
 * Health across calls (loaded with the failover): each candidate's breaker, per credential, kept in a store (the
 * process's bounded memory by default), read before a candidate is tried and fed by how its try ended. A skip never
 * fails a call: when only open candidates remain, the one whose cooldown ends first is tried.
 */
import { perCredential } from "../core/lookups";
import { shared } from "../core/shared";
import type { HealthEvent, HealthStore, TargetHealth } from "../types";
import { type BreakerConfig, breakerConfig, counted, fresh, type Outcome, passable, stateAt } from "./breaker";

/** How many targets (per credential) the process's memory keeps; past it, the least recently used goes first. */
export const MAX_TARGETS = 500;

/** Health kept in the process: a bounded map, least recently used first out, on a clock that tests may replace. */
export class HealthMemory implements HealthStore {
  private readonly kept = new Map<string, TargetHealth>();

  constructor(
    readonly now: () => number = Date.now,
    private readonly capacity = MAX_TARGETS,
  ) {}

  get(key: string): TargetHealth | undefined {
    return this.kept.get(key);
  }

  record(key: string, health: TargetHealth): void {
    this.kept.delete(key);
    this.kept.set(key, health);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value ?? "");
  }

  snapshot(): TargetHealth[] {
    const now = this.now();
    return [...this.kept.values()].map((h) => {
      const copy = { ...h, state: stateAt(h, now), recent: [...h.recent] };
      if (h.latencies) copy.latencies = [...h.latencies];
      return copy;
    });
  }

  clear(): void {
    this.kept.clear();
  }
}

/** The process's health, one for every copy of the package (`healthSnapshot()` reads it). */
export const healthMemory = /* @__PURE__ */ shared<HealthStore>("health", () => new HealthMemory());

/** A candidate as health sees it: its name and the token it is sent with. */
interface Target {
  readonly name: string;
  readonly args: { readonly accessToken?: string };
}

/** One call's view of the health: its config, its store, whom to tell of a breaker's change. */
export class CallHealth {
  readonly store: HealthStore;

  constructor(
    private readonly config: BreakerConfig,
    private readonly tell: ((event: HealthEvent) => void) | undefined,
  ) {
    this.store = config.store ?? healthMemory;
  }

  private key = (c: Target): string => perCredential(c.name, c.args.accessToken);

  private read(c: Target): TargetHealth {
    const key = this.key(c);
    const credential = key.length > c.name.length ? key.slice(c.name.length + 1) : undefined;
    return this.store.get(key) ?? fresh(c.name, credential);
  }

  now = (): number => this.store.now();

  /** What is known of `c` (for the policy's measures). */
  of = (c: Target): TargetHealth => this.read(c);

  /**
   * Whether `c` is tried now: when its breaker lets it (a half-open one: this call probes it), or when none of the
   * candidates `later` could be tried either and `c`'s cooldown ends first.
   */
  admit(c: Target, later: readonly Target[]): boolean {
    const now = this.now();
    const h = this.read(c);
    if (passable(h, now, this.config)) {
      if (stateAt(h, now) === "half-open") {
        this.store.record(this.key(c), { ...h, state: "half-open", probeSince: now });
        this.changed(h, "half-open");
      }
      return true;
    }
    const until = (x: TargetHealth): number => x.cooldownUntil ?? now;
    const rest = later.map((t) => this.read(t));
    if (rest.some((x) => passable(x, now, this.config))) return false;
    return rest.every((x) => until(h) <= until(x));
  }

  /** `c`'s try ended with `outcome`: counted, and a change of its breaker told. */
  settle(c: Target, outcome: Outcome): void {
    const h = this.read(c);
    const next = counted(h, outcome, this.now(), this.config);
    this.store.record(this.key(c), next);
    if (next.state !== h.state) this.changed(next, next.state);
  }

  /** `c` gave `tokens` output tokens in `ms`: its throughput, a moving average. */
  throughput(c: Target, tokens: number, ms: number): void {
    if (!(tokens > 0 && ms > 0)) return;
    const h = this.read(c);
    const rate = (tokens * 1000) / ms;
    const tokensPerSecond = h.tokensPerSecond === undefined ? rate : h.tokensPerSecond * 0.75 + rate * 0.25;
    this.store.record(this.key(c), { ...h, tokensPerSecond });
  }

  private changed(h: TargetHealth, state: TargetHealth["state"]): void {
    const event: HealthEvent = { type: "breaker", target: h.target, state, failures: h.failures };
    if (state === "open" && h.cooldownUntil !== undefined) event.cooldownMs = Math.max(0, h.cooldownUntil - this.now());
    this.tell?.(event);
  }
}

/** The call's health (an InputError for a bad `health` option); undefined when it is off. */
export function callHealth(option: unknown, tell: ((event: HealthEvent) => void) | undefined): CallHealth | undefined {
  const config = breakerConfig(option);
  return config && new CallHealth(config, tell);
}
