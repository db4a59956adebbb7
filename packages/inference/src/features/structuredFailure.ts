/**
 * A StructuredOutputError as the structured output makes one: what comes from the answer is bounded and redacted
 * (the first 64 KiB of its text, 100 issues, each message cut to 500 characters, each path to 32 keys of 64), and
 * the message names 5 issues at most.
 */
import { redactError, redactText, serverText } from "../core/redact";
import { StructuredOutputError, type StructuredOutputReason } from "../core/structuredError";
import type { StandardIssue, StandardPathSegment } from "../types";

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

/** The error for `reason`; `detail` completes the message; `secret`, the access token, is redacted from the message and the text. */
export function structuredFailure(
  reason: StructuredOutputReason,
  detail: { text: string; issues?: readonly StandardIssue[]; choice: number; finishReason?: string; cause?: unknown },
  secret?: string,
): StructuredOutputError {
  const given = Array.isArray(detail.issues) ? detail.issues : [];
  const issues = given.slice(0, KEPT_ISSUES).map((issue: StandardIssue) => keptIssue(issue, secret));
  const text = redactText(detail.text.slice(0, KEPT + 256 + (secret?.length ?? 0)), secret).slice(0, KEPT);
  const fields = {
    reason,
    text,
    issues,
    issueCount: given.length,
    choice: detail.choice,
    finishReason: detail.finishReason,
  };
  const message = messageOf(reason, detail, issues, given.length, secret);
  return new StructuredOutputError(
    message,
    fields,
    detail.cause === undefined ? undefined : { cause: redactError(detail.cause, secret) },
  );
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
