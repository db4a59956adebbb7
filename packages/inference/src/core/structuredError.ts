/**
 * The error of a structured answer. A file of its own, exported by the package and built into the structured
 * output's chunk as a copy (`tsup.config.ts`): `instanceof` recognises either by its `kind`.
 */
import { InferenceError } from "./errors";
import { redactText } from "./redact";
import type { StandardIssue } from "../types";

/** Why a structured answer was refused: cut at `max_tokens`, not JSON, or JSON that breaks the schema. */
export type StructuredOutputReason = "length" | "json" | "schema";

/** The most text kept from the answer. */
const KEPT = 65_536;

/**
 * A `json_schema` answer that is not the value asked for. `reason` says why: `"length"` (the answer was cut at
 * `max_tokens`: raise it; the model did not misbehave), `"json"` (not JSON) or `"schema"` (JSON that breaks the
 * schema: `issues` holds the validator's). `text` is the raw answer (its first 64 KiB, the token redacted).
 */
export class StructuredOutputError extends InferenceError {
  static override readonly kind: string = "StructuredOutputError";
  /** Why the answer was refused. */
  declare readonly reason: StructuredOutputReason;
  /** The raw text of the answer. */
  declare readonly text: string;
  /** The validator's issues (for `"schema"`; else empty). */
  declare readonly issues: readonly StandardIssue[];
  /** Which choice of the answer, from 0. */
  declare readonly choice: number;
  /** The choice's `finish_reason`, as the server sent it. */
  declare readonly finishReason: string | undefined;

  /** `detail` completes the message; `secret`, the access token, is redacted from the message and the text. */
  constructor(
    reason: StructuredOutputReason,
    detail: { text: string; issues?: readonly StandardIssue[]; choice: number; finishReason?: string; cause?: unknown },
    secret?: string,
  ) {
    const where = detail.choice > 0 ? ` (choice ${detail.choice})` : "";
    const message =
      reason === "length"
        ? `The answer${where} was cut at max_tokens (finish_reason "length") before its JSON ended: raise max_tokens`
        : reason === "json"
          ? `The answer${where} is not JSON: ${String((detail.cause as Error | undefined)?.message ?? "it does not parse")}`
          : `The answer${where} does not follow the schema: ${(detail.issues ?? []).slice(0, 5).map(describe).join("; ")}`;
    super(redactText(message, secret), { cause: detail.cause });
    this.reason = reason;
    this.text = redactText(detail.text.slice(0, KEPT + 256 + (secret?.length ?? 0)), secret).slice(0, KEPT);
    this.issues = detail.issues ?? [];
    this.choice = detail.choice;
    this.finishReason = detail.finishReason;
  }
}

function describe(issue: StandardIssue): string {
  const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}
