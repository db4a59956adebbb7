/** Health across calls, the policy over a call's candidates, and hedged first tokens: what a call that fails over takes. */

/** A target's circuit breaker: `closed` (tried), `open` (skipped until its cooldown ends), `half-open` (one call probes it). */
export type BreakerState = "closed" | "open" | "half-open";

/** The circuit breakers of a call that fails over (the `health` option); every field optional, each with its default. */
export interface HealthOptions {
  /** Failures within `window` that open a target's breaker: an integer from 1 to 1000 (default 3). */
  threshold?: number;
  /** The window failures are counted in, in ms: from 1 000 to 86 400 000 (default 60 000). */
  window?: number;
  /** A failure ratio within `window` that opens the breaker too, once `minimumCalls` were made: above 0, at most 1 (default 0.5). */
  ratio?: number;
  /** The calls within `window` before `ratio` applies: an integer from 1 to 1000 (default 10). */
  minimumCalls?: number;
  /** How long an open breaker skips its target before one call probes it, in ms: from 1 to 86 400 000 (default 30 000). A 429's `Retry-After` is its own cooldown (at most an hour). */
  cooldown?: number;
  /** Where health is kept: the process's memory by default (`healthSnapshot()` lists it); another store shares it. */
  store?: HealthStore;
}

/** What is kept of one target for one credential. */
export interface TargetHealth {
  /** The candidate, as `onFailover` names it: `model:provider`, or an endpoint's origin. */
  target: string;
  /** The credential it was seen with: a 64-bit hash of the token, never the token; absent without one. */
  credential?: string;
  /** The breaker: `closed` (tried), `open` (skipped until its cooldown ends), `half-open` (one call probes it). */
  state: BreakerState;
  /** Failures within the window, when last counted. */
  failures: number;
  /** Calls within the window (failures included), when last counted. */
  calls: number;
  /** When an open breaker lets a probe through, in the store's clock (ms); absent when closed. */
  cooldownUntil?: number;
  /** Observed time to first token, a moving average, in ms. */
  latencyMs?: number;
  /** The last observed times to first token (at most 100, oldest first), in ms: what `hedge.percentile` is read from. */
  latencies?: number[];
  /** Observed output tokens per second after the first, a moving average. */
  tokensPerSecond?: number;
  /** Calls this target served, since it was first seen. */
  served: number;
  /** When the last failure was seen and when its outcomes were, in the store's clock (ms): the window's record. */
  recent: {
    /** When the call ended, on the store's clock (ms). */
    at: number;
    /** Whether it failed in a way that moves a failover. */
    failed: boolean;
  }[];
  /** Since when one call probes this half-open target (the others skip it meanwhile). */
  probeSince?: number;
}

/**
 * Where health is kept, behind three synchronous calls, so that a store shared by several processes (kept in
 * Redis, say) can sit beside the in-process one. `now` is the store's clock, in ms.
 */
export interface HealthStore {
  /** The health of `key` (a target for one credential). */
  get(key: string): TargetHealth | undefined;
  /** Keeps `health` as what is known of `key`. */
  record(key: string, health: TargetHealth): void;
  /** Every target known, each with its state and observations (no token: credentials are hashes). */
  snapshot(): TargetHealth[];
  /** The store's clock, in ms. */
  now(): number;
  /** Forgets every target (`forgetHealth()` calls it on the process's memory); a store may leave it out. */
  clear?(): void;
}

/** A change of a breaker, or a hedge started or decided: what `onHealth` is told. */
export type HealthEvent =
  | {
      /** `"breaker"`: a target's breaker changed state. */
      type: "breaker";
      /** The target, `model:provider` or an endpoint's origin. */
      target: string;
      /** Its new state. */
      state: BreakerState;
      /** Failures within the window when it changed. */
      failures: number;
      /** When open: how long until one call may probe it, in ms. */
      cooldownMs?: number;
    }
  | {
      /** `"hedge"`: a second candidate was started beside the first (`winner` absent), or one of them won. */
      type: "hedge";
      /** The candidate that was running. */
      from: string;
      /** The candidate started beside it. */
      to: string;
      /** The one whose first token came first (the other was aborted); absent when the hedge starts. */
      winner?: string;
    };

/** The order of a call's candidates (the `routing` option). */
export interface RoutingOptions {
  /** By observed time to first token, observed tokens per second, or the catalog's price (input + output); default: as given. */
  sort?: "latency" | "throughput" | "price";
  /** Skip a router candidate whose catalog price (input or output) is above this, in dollars per million tokens. */
  maxPrice?: number;
  /** The share of calls that try another order so every candidate is measured again: from 0 to 1 (default 0.1 with `sort`). */
  explore?: number;
  /** The randomness of weights and exploration, a function giving numbers in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/** Hedged first tokens (the `hedge` option): `afterMs`, `percentile`, or both. */
export interface HedgeOptions {
  /**
   * When the running candidate has given no first token after this, the next one starts too: ms from 1 to 600 000.
   * With `percentile`, the wait while the candidate has fewer than 20 observed times to first token (default 1 000).
   */
  afterMs?: number;
  /**
   * Hedge after this percentile of the running candidate's observed times to first token (e.g. 95: its p95), once
   * health has 20 of them (its last 100 are kept); above 0 and below 100.
   */
  percentile?: number;
}

/** A provider of a `provider` list with its share of the calls (load balancing): `{ name: "groq", weight: 3 }`. */
export interface WeightedProvider {
  /** The provider's name. */
  name: string;
  /** Its share, relative to the others' (a positive number; default 1). */
  weight?: number;
}
