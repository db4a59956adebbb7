/**
 * The error of a structured answer. A file of its own, exported by the package and built into the structured
 * output's chunk as a copy (`tsup.config.ts`): `instanceof` recognises either by its `kind`.
 */
import { InferenceError } from "./errors";
import { redactError, redactText, serverText } from "./redact";
import type { StandardIssue, StandardPathSegment } from "../types";

/** Why a structured answer was refused: cut at `max_tokens`, not JSON, or JSON that breaks the schema. */
export type StructuredOutputReason = "length" | "json" | "schema";

/** The most text kept from the answer. */
const KEPT = 65_536;
/** The most issues kept (a validator may give millions for a large answer); `issueCount` counts them all. */
const KEPT_ISSUES = 100;
/** The most characters kept of an issue's message, and of a key of its path; the most keys of a path. */
const ISSUE_CHARS = 500;
const KEY_CHARS = 64;
const PATH_KEYS = 32;
/** How many issues the message names, each cut to a line's length. */
const NAMED_ISSUES = 5;
const NAMED_CHARS = 200;

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

  /** `detail` completes the message; `secret`, the access token, is redacted from the message and the text. */
  constructor(
    reason: StructuredOutputReason,
    detail: { text: string; issues?: readonly StandardIssue[]; choice: number; finishReason?: string; cause?: unknown },
    secret?: string,
  ) {
    const given = Array.isArray(detail.issues) ? detail.issues : [];
    const issues = given.slice(0, KEPT_ISSUES).map((issue: StandardIssue) => keptIssue(issue, secret));
    const cause = detail.cause === undefined ? undefined : { cause: redactError(detail.cause, secret) };
    super(messageOf(reason, detail, issues, given.length, secret), cause);
    this.reason = reason;
    this.text = redactText(detail.text.slice(0, KEPT + 256 + (secret?.length ?? 0)), secret).slice(0, KEPT);
    this.issues = issues;
    this.issueCount = given.length;
    this.choice = detail.choice;
    this.finishReason = detail.finishReason;
  }
}

/** The message: made of bounded, redacted parts only. */
function messageOf(
  reason: StructuredOutputReason,
  detail: { choice: number; cause?: unknown },
  issues: StandardIssue[],
  count: number,
  secret?: string,
): string {
  const where = detail.choice > 0 ? ` (choice ${detail.choice})` : "";
  if (reason === "length") {
    return `The answer${where} was cut at max_tokens (finish_reason "length") before its JSON ended: raise max_tokens`;
  }
  if (reason === "json") {
    const { cause } = detail;
    const why = cause instanceof Error ? serverText(cause.message, secret, NAMED_CHARS) : "it does not parse";
    return `The answer${where} is not JSON: ${why}`;
  }
  const named = issues.slice(0, NAMED_ISSUES).map((issue) => describe(issue).slice(0, NAMED_CHARS));
  const more = count > named.length ? ` (and ${count - named.length} more)` : "";
  return `The answer${where} does not follow the schema: ${named.join("; ")}${more}`;
}

/** An issue as kept: its message and path only, bounded and redacted (they quote the model's keys and values). */
function keptIssue(issue: StandardIssue, secret?: string): StandardIssue {
  const text = typeof issue?.message === "string" ? issue.message : String(issue?.message);
  const message = serverText(text, secret, ISSUE_CHARS);
  if (!Array.isArray(issue?.path)) return { message };
  return { message, path: issue.path.slice(0, PATH_KEYS).map((key: unknown) => keptKey(key, secret)) };
}

/** A key of a path (a segment object keeps its shape, `{ key }`). */
function keptKey(key: unknown, secret?: string): PropertyKey | StandardPathSegment {
  return typeof key === "object" && key !== null ? { key: keyOf(Reflect.get(key, "key"), secret) } : keyOf(key, secret);
}

function keyOf(key: unknown, secret?: string): PropertyKey {
  return typeof key === "number" || typeof key === "symbol" ? key : serverText(String(key), secret, KEY_CHARS);
}

function describe(issue: StandardIssue): string {
  const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p)).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}
