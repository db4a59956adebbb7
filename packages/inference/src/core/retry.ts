import {
  ConnectionError,
  HttpError,
  type InferenceError,
  ModelLoadingError,
  RateLimitError,
  ServerError,
} from "./errors";
import type { Logger, RetryEvent } from "../types";
import { warnOnce } from "./logger";
import type { Call } from "./call";
import { sealError } from "./redact";

export interface RetryPolicy {
  /** `retry_on_error !== false`. */
  enabled: boolean;
  /** Extra tries after a 429, 5xx or connection failure (loading waits are bounded by time instead). */
  maxRetries: number;
  logger: Logger;
  onRetry?: (event: RetryEvent) => void;
  /** `HFKIT_LOG=debug`: a line per retry. */
  debug?: (line: string) => void;
  /** Named in the loading warning. */
  model: string;
  random?: () => number;
  /** When given, only the errors it accepts are retried (a billed submission: only what says nothing was accepted). */
  retryable?: (error: InferenceError) => boolean;
}

interface Plan {
  delayMs: number;
  reason: RetryEvent["reason"];
  estimatedTime?: number;
}

const BASE_DELAY = 500;
const MAX_DELAY = 8000;
/** When a 503 says "currently loading" but gives no estimate. */
const DEFAULT_LOADING_WAIT = 10_000;
/** A loading wait is the server's estimate held within these bounds: never a tight loop, never a day. */
export const MIN_LOADING_WAIT = 1000;
export const MAX_LOADING_WAIT = 60_000;
/** Loading waits per call, at most (a model that never finishes loading must end the call). */
export const MAX_LOADING_WAITS = 30;
/** The longest `retry-after` honoured; a server asking for longer fails the call at once. */
export const MAX_RETRY_AFTER = 60_000;

/**
 * Whether and how long to wait before the next try; undefined: do not retry. Backoff has full
 * jitter (uniform in [0, base·2ⁿ]), so clients refused together do not come back together; a
 * server's wait (`retry-after`, `estimated_time`) is a minimum that jitter only adds to.
 */
export function planRetry(
  error: InferenceError,
  retriesSoFar: number,
  policy: RetryPolicy,
  loadingWaitsSoFar = 0,
): Plan | undefined {
  if (!policy.enabled || policy.retryable?.(error) === false) return undefined;
  const random = policy.random ?? Math.random;
  if (error instanceof ModelLoadingError) {
    if (loadingWaitsSoFar >= MAX_LOADING_WAITS) return undefined;
    const est = error.estimatedTime;
    const base =
      est === undefined ? DEFAULT_LOADING_WAIT : Math.min(MAX_LOADING_WAIT, Math.max(MIN_LOADING_WAIT, est * 1000));
    return { delayMs: base + random() * 250, reason: "loading", estimatedTime: est };
  }
  if (retriesSoFar >= policy.maxRetries) return undefined;
  let reason: Plan["reason"];
  if (error instanceof RateLimitError) reason = error.status === 429 ? "rate-limit" : "overloaded";
  else if (error instanceof ServerError) reason = "server-error";
  else if (error instanceof ConnectionError) reason = "connection";
  else return undefined;
  const serverMinimum = (error instanceof HttpError ? error.retryAfterMs : undefined) ?? 0;
  if (serverMinimum > MAX_RETRY_AFTER) return undefined;
  const exp = Math.min(MAX_DELAY, BASE_DELAY * 2 ** retriesSoFar);
  return { delayMs: serverMinimum + random() * exp, reason };
}

/**
 * Runs `attempt` until it succeeds or fails for good. `attempt` must throw before it hands anything
 * to the caller, so nothing is ever replayed. A wait that would pass a deadline fails at once.
 */
export async function withRetries<C extends { readonly call: Call; readonly policy: RetryPolicy }, T>(
  ctx: C,
  attempt: (ctx: C) => Promise<T>,
): Promise<T> {
  const { call, policy } = ctx;
  let retries = 0;
  let loadingWaits = 0;
  for (let n = 1; ; n++) {
    try {
      return await attempt(ctx);
    } catch (e) {
      const error = call.translate(e);
      const plan = planRetry(error, retries, policy, loadingWaits);
      if (!plan || call.failure || plan.delayMs > call.remaining()) throw sealError(error, call.secret);
      if (plan.reason === "loading") {
        call.waitForModel = true;
        loadingWaits++;
        warnLoadingOnce(policy, plan.estimatedTime);
      } else retries++;
      const { status }: InferenceError & { status?: number } = error;
      policy.onRetry?.({
        attempt: n + 1,
        delayMs: plan.delayMs,
        status,
        reason: plan.reason,
        estimatedTime: plan.estimatedTime,
      });
      policy.debug?.(
        `retry ${n} in ${Math.round(plan.delayMs)} ms (${plan.reason}${status ? `, HTTP ${status}` : ""})`,
      );
      await call.sleep(plan.delayMs);
    }
  }
}

function warnLoadingOnce(policy: RetryPolicy, estimatedTime: number | undefined): void {
  const about = estimatedTime !== undefined && estimatedTime < 1e6 ? ` (about ${Math.round(estimatedTime)} s)` : "";
  warnOnce(
    policy.logger,
    `loading:${policy.model}`,
    `Model ${policy.model} is loading on the server${about}; waiting for it.`,
  );
}
