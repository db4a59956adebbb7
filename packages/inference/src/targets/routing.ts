/** What a failover reports, in a file of its own (importing them does not load the failover): its error when every candidate failed, and the cost estimate of an answer. */
import { InferenceError } from "../core/errors";
import type { ChatCompletionUsage, CostEstimate, FailoverAttempt, RouterModelPricing } from "../types";

/** Every candidate of a call that fails over failed or was skipped: `attempts` holds each, in order; `cause` is the last failure. */
export class FailoverError extends InferenceError {
  static override readonly kind: string = "FailoverError";
  /** Each candidate's failure (a typed error) or skip, in the order tried. */
  declare readonly attempts: readonly FailoverAttempt[];

  /** `message` names every candidate and what ended it (the failover writes it: `targets/failover.ts`). */
  constructor(message: string, attempts: readonly FailoverAttempt[], options?: { cause?: unknown }) {
    super(message, options);
    this.attempts = attempts;
  }
}

/** What `usage` costs at `pricing` (dollars per million tokens, as the router's catalog gives it): an estimate, not a bill. */
export function estimateCost(usage: Pick<ChatCompletionUsage, "prompt_tokens" | "completion_tokens">, pricing: RouterModelPricing): CostEstimate {
  const input = ((usage.prompt_tokens || 0) * pricing.input) / 1e6;
  const output = ((usage.completion_tokens || 0) * pricing.output) / 1e6;
  return { input, output, total: input + output, currency: "USD" };
}
