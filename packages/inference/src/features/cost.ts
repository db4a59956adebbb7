/** The cost estimate of an answer: public, and used by the failover (whose chunk carries a copy of its own: `tsup.config.ts`). */
import type { ChatCompletionUsage, CostEstimate, RouterModelPricing } from "../types";

/** What `usage` costs at `pricing` (dollars per million tokens, as the router's catalog gives it): an estimate, not a bill. */
export function estimateCost(
  usage: Pick<ChatCompletionUsage, "prompt_tokens" | "completion_tokens">,
  pricing: RouterModelPricing,
): CostEstimate {
  const input = ((usage.prompt_tokens || 0) * pricing.input) / 1e6;
  const output = ((usage.completion_tokens || 0) * pricing.output) / 1e6;
  return { input, output, total: input + output, currency: "USD" };
}
