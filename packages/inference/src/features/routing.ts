/** What a failover reports, in a file of its own (importing it does not load the failover): its error when every candidate failed. */
import { InferenceError } from "../core/errors";
import type { FailoverAttempt } from "../types";

/** Every candidate of a call that fails over failed or was skipped: `attempts` holds each, in order; `cause` is the last failure. */
export class FailoverError extends InferenceError {
  static override readonly kind: string = "FailoverError";
  /** Each candidate's failure (a typed error) or skip, in the order tried. */
  declare readonly attempts: readonly FailoverAttempt[];

  /** `message` names every candidate and what ended it (the failover writes it: `features/failover.ts`). */
  constructor(message: string, attempts: readonly FailoverAttempt[], options?: { cause?: unknown }) {
    super(message, options);
    this.attempts = attempts;
  }
}
