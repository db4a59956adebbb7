/**
 * Hedged first tokens (loaded with the failover, opt in): the `hedge` option checked, and what a call that hedges
 * keeps: the timer that starts the next candidate beside a silent one, and the error its loser is aborted with.
 */
import { AbortError, InputError } from "../core/errors";
import { isRecord } from "../core/json";
import { describe } from "./breaker";

/** The longest `hedge.afterMs` (ten minutes). */
export const MAX_HEDGE_AFTER_MS = 600_000;

/** The call's `hedge` option checked (an InputError naming the field): its `afterMs`, or undefined when off. */
export function hedgeOf(option: unknown): number | undefined {
  if (option === undefined || option === false) return undefined;
  if (!isRecord(option))
    throw new InputError(`\`hedge\` must be false or an object { afterMs } (got ${describe(option)})`, "hedge");
  const afterMs: unknown = option.afterMs;
  if (typeof afterMs === "number" && afterMs >= 1 && afterMs <= MAX_HEDGE_AFTER_MS) return afterMs;
  throw new InputError(
    `\`hedge.afterMs\` must be a number of ms from 1 to ${MAX_HEDGE_AFTER_MS} (got ${describe(afterMs)})`,
    "hedge.afterMs",
  );
}

/** A promise that resolves after `ms` (the hedge's start), and how to clear it. */
export function hedgeTimer(ms: number): { due: Promise<"hedge">; clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const due = new Promise<"hedge">((resolve) => {
    timer = setTimeout(() => resolve("hedge"), ms);
  });
  return { due, clear: () => clearTimeout(timer) };
}

/** What a hedge's loser is aborted with (never a failure of its target: health does not count it). */
export const hedgeLost = (winner: string): AbortError =>
  new AbortError(`Aborted: another candidate (${winner}) gave its first token first (a hedge)`);
