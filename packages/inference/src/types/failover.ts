/** Failover across providers and models: what a chat call takes, what it reports, what its answer says. */

/** Why a failover moved past a candidate: a failure (the candidate was tried) or a skip (nothing was sent to it). */
export type FailoverReason =
  /** Refused, reset or lost before the first token. */
  | "connection"
  /** A 5xx other than a 503 for a model that is loading. */
  | "server-error"
  /** A 429. */
  | "rate-limit"
  /** A 503 that is not a loading model (the server is overloaded). */
  | "overloaded"
  /** The model was still loading when the loading waits ran out (or would pass the deadline). */
  | "loading"
  /** `firstChunkTimeout`, `idleTimeout` or `stallTimeout` fired before the first token (the call's `timeout` ends the call instead). */
  | "timeout"
  /** An error inside a 200 stream, or a stream that ended or broke, before the first token. */
  | "stream-error"
  /** The router answered that this provider does not serve the model, that no enabled provider does, or a 404 for it. */
  | "not-served"
  /** Skipped: the call has `tools` and the router's catalog says the provider does not take them. */
  | "no-tools"
  /** Skipped: the call asks for a JSON-schema `response_format` and the catalog says the provider does not honour it. */
  | "no-structured-output"
  /** Skipped: the catalog gives the provider a `status` other than `"live"` (or, for the router's choice, no provider is live). */
  | "not-live"
  /** Skipped: the catalog's `context_length` for the provider is smaller than `max_tokens`. */
  | "context-length"
  /** Skipped: the target's circuit breaker is open (it failed lately; `health`), and another candidate could be tried. */
  | "circuit-open"
  /** Skipped: the catalog prices the provider above `routing.maxPrice`. */
  | "price"
  /** A hedge's loser: the other candidate gave its first token first, and this one was aborted. */
  | "hedge-lost";

/** One move of a failover, as `onFailover` is told of it. */
export interface FailoverEvent {
  /** The candidate left, as `model:provider` (`model:auto` for the router's choice; an endpoint as its origin). */
  from: string;
  /** The candidate tried next, the same way. */
  to: string;
  /** Why the call moved on. */
  reason: FailoverReason;
  /** The failure (redacted); undefined for a skip. */
  error?: Error;
}

/** One candidate of a failover that failed or was skipped, in the order tried. */
export interface FailoverAttempt {
  /** The candidate, as `model:provider`. */
  candidate: string;
  /** Why it did not answer. */
  reason: FailoverReason;
  /** The failure (redacted, typed: an `InferenceError`); undefined for a skip. */
  error?: Error;
}

/** What a call's usage cost, estimated from the router catalog's prices (dollars; an estimate, not a bill). */
export interface CostEstimate {
  /** Prompt tokens × the input price. */
  input: number;
  /** Generated tokens × the output price. */
  output: number;
  /** Their sum. */
  total: number;
  /** Always `"USD"`. */
  currency: "USD";
}

/** Which candidate answered a call that fails over: on the whole answer and on each chunk, as `served`. */
export interface Served {
  /** The model id of the candidate that answered (`org/name`). */
  model: string;
  /** The provider that answered: the router's `x-inference-provider`, else the candidate's; `"endpoint"` for a dedicated endpoint. */
  provider: string;
  /** Its usage priced by the catalog, when the answer has `usage` and the catalog lists the provider's prices. */
  cost?: CostEstimate;
  /** A hedge ran (`hedge`): the candidate started beside the first, and whether it won (the other was aborted). */
  hedge?: {
    /** The candidate that was silent past the hedge's wait (`afterMs`, or its observed `percentile`). */
    from: string;
    /** The candidate started beside it. */
    to: string;
    /** The one whose first token came first: `from` or `to`. */
    winner: string;
  };
}
