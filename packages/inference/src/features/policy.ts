/**
 * The order a call tries its candidates in (loaded with the failover): as given; by weight (`provider: [{ name,
 * weight }]`: the first drawn in proportion to the weights, then the rest); or sorted by what health observed
 * (time to first token, tokens per second) or by the catalog's price, with some calls exploring another first
 * candidate so that one that was slow once is measured again. `maxPrice` skips what the catalog prices above it.
 */
import { InputError } from "../core/errors";
import { isRecord } from "../core/json";
import type { FailoverReason, RouterModel, RouterModelPricing, RoutingOptions, TargetHealth } from "../types";
import { describe } from "./breaker";
import type { Candidate } from "./candidates";

/** The routing option, checked. */
export interface Policy {
  readonly sort: RoutingOptions["sort"];
  readonly maxPrice: number | undefined;
  readonly explore: number;
  readonly random: () => number;
}

/** The share of calls that explore when a `sort` is set and `explore` is not. */
export const DEFAULT_EXPLORE = 0.1;

const SORTS = ["latency", "throughput", "price"];

/** The call's `routing` option checked (an InputError naming the field). */
export function policyOf(option: unknown): Policy {
  if (option !== undefined && !isRecord(option))
    throw new InputError(`\`routing\` must be an object (got ${describe(option)})`, "routing");
  const { sort, maxPrice, explore, random } = (option ?? {}) as RoutingOptions;
  if (sort !== undefined && !SORTS.includes(sort)) {
    throw new InputError(
      `\`routing.sort\` must be "latency", "throughput" or "price" (got ${JSON.stringify(sort)})`,
      "routing.sort",
    );
  }
  if (maxPrice !== undefined && !(typeof maxPrice === "number" && maxPrice >= 0 && maxPrice < Infinity)) {
    throw new InputError(
      `\`routing.maxPrice\` must be a number of dollars per million tokens, 0 or more (got ${describe(maxPrice)})`,
      "routing.maxPrice",
    );
  }
  if (explore !== undefined && !(typeof explore === "number" && explore >= 0 && explore <= 1)) {
    throw new InputError(
      `\`routing.explore\` must be a number from 0 to 1 (got ${describe(explore)})`,
      "routing.explore",
    );
  }
  if (random !== undefined && typeof random !== "function")
    throw new InputError("`routing.random` must be a function", "routing.random");
  return { sort, maxPrice, explore: explore ?? (sort ? DEFAULT_EXPLORE : 0), random: random ?? Math.random };
}

/** The catalog's price of `c`: its provider's, or for the router's choice the cheapest live one; undefined when unknown. */
export function priceOf(
  c: Candidate<object>,
  catalog: readonly RouterModel[] | undefined,
): RouterModelPricing | undefined {
  const providers = catalog?.find((m) => m.id === c.model)?.providers ?? [];
  const prices = providers.filter((p) =>
    c.provider === undefined ? p.status === undefined || p.status === "live" : p.provider === c.provider,
  );
  const priced = prices.flatMap((p) => (p.pricing ? [p.pricing] : []));
  return priced.sort((a, b) => a.input + a.output - (b.input + b.output))[0];
}

/** Why `policy` skips `c` (its price is above `maxPrice`); undefined: keep it. */
export function priced(
  c: Candidate<object>,
  policy: Policy,
  catalog: readonly RouterModel[] | undefined,
): FailoverReason | undefined {
  if (policy.maxPrice === undefined || !c.router) return undefined;
  const price = priceOf(c, catalog);
  return price && (price.input > policy.maxPrice || price.output > policy.maxPrice) ? "price" : undefined;
}

/** `list` in the order the policy tries it; `measured` gives what health observed of a candidate. */
export function ordered<C extends Candidate<object>>(
  list: readonly C[],
  policy: Policy,
  measured: ((c: C) => TargetHealth) | undefined,
  catalog: readonly RouterModel[] | undefined,
): C[] {
  if (policy.sort !== undefined) {
    const score = scorer(policy.sort, measured, catalog);
    const sorted = list
      .map((c, i) => ({ c, i, s: score(c) }))
      .sort((a, b) => a.s - b.s || a.i - b.i)
      .map((x) => x.c);
    if (sorted.length > 1 && policy.random() < policy.explore) {
      const [explored] = sorted.splice(1 + Math.floor(policy.random() * (sorted.length - 1)), 1);
      if (explored) sorted.unshift(explored);
    }
    return sorted;
  }
  return list.some((c) => c.weight !== undefined) ? drawn(list, policy.random) : [...list];
}

/** A lower score is tried first: time to first token; tokens per second, negated; price. Unmeasured goes first, unpriced last. */
function scorer<C extends Candidate<object>>(
  sort: NonNullable<RoutingOptions["sort"]>,
  measured: ((c: C) => TargetHealth) | undefined,
  catalog: readonly RouterModel[] | undefined,
): (c: C) => number {
  if (sort === "price") {
    return (c) => {
      const price = priceOf(c, catalog);
      return price === undefined ? Infinity : price.input + price.output;
    };
  }
  if (sort === "latency") return (c) => measured?.(c).latencyMs ?? -Infinity;
  return (c) => -(measured?.(c).tokensPerSecond ?? Infinity);
}

/** The weighted candidates (those given a weight, in the list's first places) drawn in turn in proportion to their weights; the rest after, in order. */
function drawn<C extends Candidate<object>>(list: readonly C[], random: () => number): C[] {
  const pool = list.filter((c) => c.weight !== undefined);
  const out: C[] = [];
  while (pool.length > 0) {
    const total = pool.reduce((sum, c) => sum + (c.weight ?? 0), 0);
    let at = random() * total;
    let i = 0;
    while (i < pool.length - 1 && (at -= pool[i]?.weight ?? 0) >= 0) i++;
    out.push(...pool.splice(i, 1));
  }
  return [...out, ...list.filter((c) => c.weight === undefined)];
}
