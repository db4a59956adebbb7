/**
 * The loop over a call's candidates (loaded with the failover): the policy's order, the catalog's and the price
 * cap's skips, health's skips of open targets, each try counted by health, each move reported, the all-failed error,
 * and hedged first tokens (`hedge.ts`).
 */
import type { Call } from "../core/call";
import { HttpError, type InferenceError, InputError } from "../core/errors";
import { sealError } from "../core/redact";
import { checkArgs } from "../checks/params";
import type {
  BaseArgs,
  FailoverAttempt,
  FailoverReason,
  Options,
  RouterModel,
  RouterModelPricing,
  Served,
} from "../types";
import type { Outcome } from "./breaker";
import type { Candidate, Candidates } from "./candidates";
import { callHealth } from "./health";
import { hedgeAfter, hedgeLost, hedgeOf, hedgeTimer } from "./hedge";
import { ordered, policyOf, priced } from "./policy";
import { FailoverError } from "./routing";

/** What a candidate's success is handed on with: who served it, its price, and `end` (once its body is done with, with the output tokens when known). */
export type Serve<T> = (
  value: T,
  served: Served,
  price: RouterModelPricing | undefined,
  end: (tokens?: number) => void,
) => T;

/**
 * One candidate's run: its value, the provider the router said answered, and `end` (called once its body is done
 * with). `signal` aborts it (the call failed, or it lost a hedge), before its value or after, until `end`.
 */
export type Run<A, T> = (
  c: Candidate<A>,
  last: boolean,
  moves: number,
  signal: AbortSignal,
) => Promise<{ value: T; answeredBy: string | undefined; end: () => void }>;

/** What the loop takes from the failover: the catalog's reading and checks, and the rule of what moves a call. */
export interface Rules {
  readonly catalogOf: (
    token: string | undefined,
    options: Options,
    span: Call,
  ) => Promise<readonly RouterModel[] | undefined>;
  readonly unfit: (c: Candidate<object>, catalog: readonly RouterModel[]) => FailoverReason | undefined;
  readonly movesOn: (error: InferenceError) => FailoverReason | undefined;
  readonly priceOf: (
    catalog: readonly RouterModel[] | undefined,
    model: string,
    provider: string,
  ) => RouterModelPricing | undefined;
}

/** One candidate's try in flight: its abort (chained to the call's), its start, and its hedge timer while alone. */
interface Flight<A, T> {
  readonly c: Candidate<A>;
  readonly stop: AbortController;
  readonly unlink: () => void;
  /** When it started, in health's clock (its time to first token is measured from here). */
  readonly started: number;
  /** How its try ended: its value, or its error. */
  readonly result: Promise<Settled<A, T>>;
  /** Part of a hedge (started beside another, or hedged): never hedged again. */
  paired: boolean;
  /** Resolves when it has been alone and silent for the hedge's `afterMs` (or its target's observed percentile). */
  timer?: { due: Promise<"hedge">; clear: () => void };
}

type Settled<A, T> =
  | { readonly f: Flight<A, T>; readonly out: Awaited<ReturnType<Run<A, T>>> }
  | { readonly f: Flight<A, T>; readonly error: unknown };

/**
 * The loop over the candidates: skips, moves on what another could serve, reports each move, the all-failed error.
 * With `hedge`, a candidate alone and silent for `afterMs` (or the percentile of its observed times to first token)
 * gets the next one started beside it: the first of the two to commit serves the call, the other is aborted (two
 * tries in flight at most, each hedged once at most).
 */
export async function overCandidates<A extends BaseArgs, T>(
  args: A,
  options: Options,
  span: Call,
  candidatesFor: () => Candidates<A>,
  run: Run<A, T>,
  serve: Serve<T>,
  rules: Rules,
): Promise<T> {
  const flights: Flight<A, T>[] = [];
  try {
    checkArgs(args, options);
    const { onFailover, onHealth } = options;
    if (onFailover !== undefined && typeof onFailover !== "function")
      throw new InputError("`onFailover` must be a function", "onFailover");
    if (onHealth !== undefined && typeof onHealth !== "function")
      throw new InputError("`onHealth` must be a function", "onHealth");
    const health = callHealth(options.health, onHealth);
    const policy = policyOf(options.routing);
    const hedging = hedgeOf(options.hedge);
    const { list, catalog: reader } = candidatesFor();
    const catalog =
      reader && list.some((c) => c.router) ? await rules.catalogOf(reader.token, options, span) : undefined;
    const candidates = ordered(list, policy, health?.of, catalog);
    const skips = candidates.map(
      (c) => (catalog && c.router ? rules.unfit(c, catalog) : undefined) ?? priced(c, policy, catalog),
    );
    const attempts: FailoverAttempt[] = [];
    let moves = 0;
    /** The next candidate to consider. */
    let cursor = 0;
    let hedge: { from: string; to: string } | undefined;

    /** The next candidate from `from` that is tried (and its index), each skip on the way recorded and told. */
    const runnable = (from: number): [number, Candidate<A>] | undefined => {
      for (const [i, c] of candidates.entries()) {
        if (i < from) continue;
        const next = candidates[i + 1];
        const later = candidates.filter((_, j) => j > i && skips[j] === undefined);
        const reason = skips[i] ?? (health && !health.admit(c, later) ? "circuit-open" : undefined);
        if (reason === undefined) return [i, c];
        attempts.push({ candidate: c.name, reason });
        if (next !== undefined) onFailover?.({ from: c.name, to: next.name, reason });
      }
      return undefined;
    };

    const start = ([i, c]: [number, Candidate<A>], paired: boolean): Flight<A, T> => {
      cursor = i + 1;
      const stop = new AbortController();
      const unlink = span.onCancel((e) => stop.abort(e));
      if (span.failure) stop.abort(span.failure);
      const flight: Flight<A, T> = {
        c,
        stop,
        unlink,
        started: health?.now() ?? 0,
        paired,
        result: run(c, i === candidates.length - 1, moves, stop.signal).then(
          (out) => ({ f: flight, out }),
          (error: unknown) => ({ f: flight, error }),
        ),
      };
      if (hedging !== undefined && !paired && cursor < candidates.length)
        flight.timer = hedgeTimer(hedgeAfter(hedging, health?.of(c).latencies));
      flights.push(flight);
      return flight;
    };

    const first = runnable(0);
    if (first === undefined) throw failedOver(attempts);
    start(first, false);
    for (;;) {
      const alone = flights.length === 1 ? flights[0] : undefined;
      const due = alone && !alone.paired ? alone.timer?.due : undefined;
      const settled = await Promise.race([...flights.map((f) => f.result), ...(due ? [due] : [])]);
      if (settled === "hedge") {
        const from = alone;
        if (from === undefined) continue; // never: the timer is raced only while one try is alone
        from.paired = true;
        from.timer?.clear();
        const i = runnable(cursor);
        if (i === undefined) {
          cursor = candidates.length;
          continue;
        }
        const to = start(i, true);
        hedge = { from: from.c.name, to: to.c.name };
        onHealth?.({ type: "hedge", ...hedge });
        continue;
      }
      const { f } = settled;
      flights.splice(flights.indexOf(f), 1);
      f.timer?.clear();
      if ("out" in settled) {
        const { value, answeredBy, end } = settled.out;
        const c = f.c;
        for (const other of flights.splice(0)) lose(other, c.name, health);
        const firstAt = health?.now() ?? 0;
        health?.settle(c, { ok: true, latencyMs: firstAt - f.started });
        const provider = answeredBy ?? (c.router ? (c.provider ?? "auto") : (c.provider ?? "endpoint"));
        const served: Served = { model: c.model, provider };
        if (hedge && (hedge.from === c.name || hedge.to === c.name)) {
          served.hedge = { ...hedge, winner: c.name };
          onHealth?.({ type: "hedge", ...hedge, winner: c.name });
        }
        const ended = (tokens?: number): void => {
          f.unlink(); // until its body is done with, the call's failure aborts it
          end();
          if (tokens !== undefined) health?.throughput(c, tokens, (health?.now() ?? 0) - f.started);
        };
        return serve(value, served, rules.priceOf(catalog, c.model, provider), ended);
      }
      f.unlink();
      if (span.failure) {
        health?.settle(f.c, { ok: undefined });
        throw span.failure;
      }
      const error = settled.error as InferenceError;
      const reason = rules.movesOn(error);
      health?.settle(f.c, outcomeOf(error, reason));
      if (reason === undefined) throw error;
      moves++;
      attempts.push({ candidate: f.c.name, reason, error });
      const other = flights[0];
      if (other !== undefined) {
        // The other of a hedge goes on alone: the call has moved to it.
        onFailover?.({ from: f.c.name, to: other.c.name, reason, error });
        continue;
      }
      const next = candidates[cursor];
      if (next === undefined) throw failedOver(attempts);
      onFailover?.({ from: f.c.name, to: next.name, reason, error });
      const i = runnable(cursor);
      if (i === undefined) throw failedOver(attempts);
      start(i, false);
    }
  } catch (e) {
    for (const f of flights.splice(0)) {
      f.timer?.clear();
      f.unlink();
      f.stop.abort(span.failure ?? e);
      void f.result.then((s) => "out" in s && s.out.end());
    }
    throw sealError(e, span.secret);
  }
}

/** A hedge's loser: aborted (its connection closed) before any of its tokens is handed on; never counted as a failure. */
function lose<A extends BaseArgs, T>(f: Flight<A, T>, winner: string, health: ReturnType<typeof callHealth>): void {
  f.timer?.clear();
  f.unlink();
  f.stop.abort(hedgeLost(winner));
  health?.settle(f.c, { ok: undefined });
  // A loser that committed meanwhile: its body is cancelled by the abort, its call ended here.
  void f.result.then((s) => "out" in s && s.out.end());
}

/** How health counts a try that failed: a failure when it moves the call (a 429 with its `Retry-After`), else nothing. */
function outcomeOf(error: InferenceError, reason: FailoverReason | undefined): Outcome {
  if (reason === undefined) return { ok: undefined };
  const retryAfterMs = reason === "rate-limit" && error instanceof HttpError ? error.retryAfterMs : undefined;
  return retryAfterMs === undefined ? { ok: false } : { ok: false, retryAfterMs };
}

/** The longest text quoted from one attempt's error in the message (each error keeps its whole message). */
const QUOTED = 200;

/** The error of a call whose candidates all failed or were skipped: its message names each and what ended it. */
function failedOver(attempts: FailoverAttempt[]): FailoverError {
  const describe = ({ candidate, reason, error }: FailoverAttempt): string => {
    if (error === undefined) return `${candidate} skipped (${reason})`;
    const text = error.message.length > QUOTED ? `${error.message.slice(0, QUOTED)}…` : error.message;
    return `${candidate} ${reason} (${error.name}: ${text})`;
  };
  const last = attempts.filter((a) => a.error !== undefined).at(-1)?.error;
  return new FailoverError(
    `Every candidate failed: ${attempts.map(describe).join("; ")}`,
    attempts,
    last === undefined ? undefined : { cause: last },
  );
}
