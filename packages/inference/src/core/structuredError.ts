/**
 * The error of a structured answer: the class, which the package exports and the chat core holds. How the structured
 * output builds one (its message, and what it keeps of the answer, bounded and redacted) is that feature's own
 * (`features/structuredFailure.ts`), loaded with it.
 */
import { InferenceError } from "./errors";
import type { StandardIssue } from "../types";

/** Why a structured answer was refused: cut at `max_tokens`, not JSON, or JSON that breaks the schema. */
export type StructuredOutputReason = "length" | "json" | "schema";

/** What a StructuredOutputError holds beside its message. */
export interface StructuredOutputFields {
  /** Why the answer was refused. */
  reason: StructuredOutputReason;
  /** The raw text of the answer (its first 64 KiB, the token redacted). */
  text: string;
  /** The validator's issues, as kept (for `"schema"`; else empty). */
  issues: readonly StandardIssue[];
  /** How many issues the validator gave. */
  issueCount: number;
  /** Which choice of the answer, from 0. */
  choice: number;
  /** The choice's `finish_reason`, as the server sent it. */
  finishReason: string | undefined;
}

/**
 * A `json_schema` answer that is not the value asked for. `reason` says why: `"length"` (the answer was cut at
 * `max_tokens`: raise it; the model did not misbehave), `"json"` (not JSON) or `"schema"` (JSON that breaks the
 * schema: `issues` holds the validator's). `text` is the raw answer (its first 64 KiB, the token redacted). What
 * comes from the answer is bounded and redacted: the first 100 issues (`issueCount` says how many there were),
 * each message cut to 500 characters, each path to 32 keys of 64 characters; the message names 5 issues at most.
 */
export class StructuredOutputError extends InferenceError {
  static override readonly kind: string = "StructuredOutputError";
  /** Why the answer was refused. */
  declare readonly reason: StructuredOutputReason;
  /** The raw text of the answer. */
  declare readonly text: string;
  /** The validator's issues (for `"schema"`; else empty): the first 100, `message` and `path` bounded and redacted. */
  declare readonly issues: readonly StandardIssue[];
  /** How many issues the validator gave (`issues` keeps the first 100 of them). */
  declare readonly issueCount: number;
  /** Which choice of the answer, from 0. */
  declare readonly choice: number;
  /** The choice's `finish_reason`, as the server sent it. */
  declare readonly finishReason: string | undefined;

  /** `message` and `fields` as the structured output made them (bounded, redacted); `cause`, what failed, redacted. */
  constructor(message: string, fields: StructuredOutputFields, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = fields.reason;
    this.text = fields.text;
    this.issues = fields.issues;
    this.issueCount = fields.issueCount;
    this.choice = fields.choice;
    this.finishReason = fields.finishReason;
  }
}
