/**
 * Hedged first tokens (loaded with the failover, opt in): the `hedge` option checked, and what a call that hedges
 * keeps: when and the timer that starts the next candidate beside a silent one (after `afterMs`, or the percentile
 * of the silent target's observed times to first token), and the error its loser is aborted with.
 */
import { AbortError, InputError } from "../core/errors";
import { isRecord } from "../core/json";
import { describe } from "./breaker";

/** The longest `hedge.afterMs` (ten minutes). */
export const MAX_HEDGE_AFTER_MS = 600_000;

/** With `hedge.percentile`: the observed times to first token a target needs before its percentile is used. */
export const MIN_HEDGE_SAMPLES = 20;

/** With `hedge.percentile` and no `afterMs`: the wait before a target with too few samples is hedged. */
export const DEFAULT_HEDGE_AFTER_MS = 1_000;

/** The hedge option, checked: the fixed wait, and the percentile of the observed times that replaces it. */
export interface Hedge {
  readonly afterMs: number;
  readonly percentile: number | undefined;
}

const afterMsOk = (v: unknown): v is number => typeof v === "number" && v >= 1 && v <= MAX_HEDGE_AFTER_MS;

/** The call's `hedge` option checked (an InputError naming the field); undefined when off. */
export function hedgeOf(option: unknown): Hedge | undefined {
  if (option === undefined || option === false) return undefined;
  if (!isRecord(option))
    throw new InputError(
      `\`hedge\` must be false or an object { afterMs, percentile } (got ${describe(option)})`,
      "hedge",
    );
  const { afterMs, percentile } = option;
  if (percentile !== undefined && !(typeof percentile === "number" && percentile > 0 && percentile < 100)) {
    throw new InputError(
      `\`hedge.percentile\` must be a number above 0 and below 100 (got ${describe(percentile)})`,
      "hedge.percentile",
    );
  }
  if (afterMs === undefined && percentile !== undefined) return { afterMs: DEFAULT_HEDGE_AFTER_MS, percentile };
  if (afterMsOk(afterMs)) return { afterMs, percentile };
  const or = percentile === undefined ? " (or give `hedge.percentile`)" : "";
  throw new InputError(
    `\`hedge.afterMs\` must be a number of ms from 1 to ${MAX_HEDGE_AFTER_MS}${or} (got ${describe(afterMs)})`,
    "hedge.afterMs",
  );
}

/**
 * How long a target runs alone before it is hedged: with a percentile and at least {@link MIN_HEDGE_SAMPLES}
 * observed times to first token, their percentile (nearest rank, within 1 ms and `MAX_HEDGE_AFTER_MS`); else
 * `afterMs`.
 */
export function hedgeAfter(hedge: Hedge, observed: readonly unknown[] | undefined): number {
  if (hedge.percentile === undefined || observed === undefined) return hedge.afterMs;
  // A store shared with other processes is read as it is: what is not a time is left out.
  const times = observed.filter((t): t is number => typeof t === "number" && t >= 0 && t < Infinity);
  if (times.length < MIN_HEDGE_SAMPLES) return hedge.afterMs;
  times.sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((hedge.percentile / 100) * times.length));
  return Math.min(MAX_HEDGE_AFTER_MS, Math.max(1, Math.ceil(times[rank - 1] ?? hedge.afterMs)));
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
