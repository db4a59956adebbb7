/**
 * The loop over a call's candidates (loaded with the failover): the policy's order, the catalog's and the price
 * cap's skips, health's skips of open targets, each try counted by health, each move reported, the all-failed error.
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
import { ordered, policyOf, priced } from "./policy";
import { FailoverError } from "./routing";

/** What a candidate's success is handed on with: who served it, its price, and `end` (once its body is done with, with the output tokens when known). */
export type Serve<T> = (
  value: T,
  served: Served,
  price: RouterModelPricing | undefined,
  end: (tokens?: number) => void,
) => T;

/** One candidate's run: its value, the provider the router said answered, and `end` (called once its body is done with). */
export type Run<A, T> = (
  c: Candidate<A>,
  last: boolean,
  moves: number,
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

/** The loop over the candidates: skips, moves on what another could serve, reports each move, the all-failed error. */
export async function overCandidates<A extends BaseArgs, T>(
  args: A,
  options: Options,
  span: Call,
  candidatesFor: () => Candidates<A>,
  run: Run<A, T>,
  serve: Serve<T>,
  rules: Rules,
): Promise<T> {
  try {
    checkArgs(args, options);
    const { onFailover, onHealth } = options;
    if (onFailover !== undefined && typeof onFailover !== "function")
      throw new InputError("`onFailover` must be a function", "onFailover");
    if (onHealth !== undefined && typeof onHealth !== "function")
      throw new InputError("`onHealth` must be a function", "onHealth");
    const health = callHealth(options.health, onHealth);
    const policy = policyOf(options.routing);
    const { list, catalog: reader } = candidatesFor();
    const catalog =
      reader && list.some((c) => c.router) ? await rules.catalogOf(reader.token, options, span) : undefined;
    const candidates = ordered(list, policy, health?.of, catalog);
    const skips = candidates.map(
      (c) => (catalog && c.router ? rules.unfit(c, catalog) : undefined) ?? priced(c, policy, catalog),
    );
    const attempts: FailoverAttempt[] = [];
    let moves = 0;
    for (const [i, c] of candidates.entries()) {
      const next = candidates[i + 1];
      let reason = skips[i];
      if (
        reason === undefined &&
        health &&
        !health.admit(
          c,
          candidates.filter((_, j) => j > i && skips[j] === undefined),
        )
      )
        reason = "circuit-open";
      let error: InferenceError | undefined;
      if (reason === undefined) {
        const started = health?.now() ?? 0;
        try {
          const { value, answeredBy, end } = await run(c, next === undefined, moves);
          const firstAt = health?.now() ?? 0;
          health?.settle(c, { ok: true, latencyMs: firstAt - started });
          const provider = answeredBy ?? (c.router ? (c.provider ?? "auto") : (c.provider ?? "endpoint"));
          const ended = (tokens?: number): void => {
            end();
            if (tokens !== undefined) health?.throughput(c, tokens, (health?.now() ?? 0) - started);
          };
          return serve(value, { model: c.model, provider }, rules.priceOf(catalog, c.model, provider), ended);
        } catch (e) {
          if (span.failure) {
            health?.settle(c, { ok: undefined });
            throw span.failure;
          }
          error = e as InferenceError;
          reason = rules.movesOn(error);
          health?.settle(c, outcomeOf(error, reason));
          if (reason === undefined) throw error;
          moves++;
        }
      }
      attempts.push(error === undefined ? { candidate: c.name, reason } : { candidate: c.name, reason, error });
      if (next === undefined) throw failedOver(attempts);
      onFailover?.(
        error === undefined ? { from: c.name, to: next.name, reason } : { from: c.name, to: next.name, reason, error },
      );
    }
    throw new InputError("A call that fails over needs at least one candidate", "provider"); // candidatesOf gives one at least
  } catch (e) {
    throw sealError(e, span.secret);
  }
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
