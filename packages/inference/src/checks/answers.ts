/**
 * What each task's answer must look like, checked as `@huggingface/inference` checks it: an answer of
 * another shape is an `InferenceClientProviderOutputError` quoting its start (redacted), never passed on.
 */
import { InferenceClientProviderOutputError } from "../core/hfErrors";
import { serverText } from "../core/redact";
import { isRecord } from "../core/json";

/** A check of one value of an answer. */
export type Check = (value: unknown) => boolean;

/** What shapes an answer: the JSON value or the Blob, and the token to redact from what an error quotes. */
export type Answer<O> = (value: unknown, secret: string | undefined) => O | Promise<O>;

/** A JSON object (not null, not an array). */
export { isRecord } from "../core/json";

export const isString: Check = (v) => typeof v === "string";
export const isNumber: Check = (v) => typeof v === "number" && Number.isFinite(v);
/** Absent, or passing `check`. */
export const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);
/** An array whose every element passes `check`. */
export const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
/** An object whose named fields pass their checks (other fields are let through). */
export const fields =
  (checks: Record<string, Check>): Check =>
  (v) =>
    isRecord(v) && Object.entries(checks).every(([k, check]) => check(v[k]));
/** A label and its score. */
export const labelScore: Check = /* @__PURE__ */ fields({ label: isString, score: isNumber });

/** The error of an answer that is not what `task` answers. */
export function malformed(
  task: string,
  expected: string,
  value: unknown,
  secret: string | undefined,
): InferenceClientProviderOutputError {
  let shown: string;
  if (typeof Blob !== "undefined" && value instanceof Blob)
    shown = `a ${value.type || "binary"} body of ${value.size} bytes`;
  else shown = serverText(value, secret);
  return new InferenceClientProviderOutputError(
    `Received malformed response from the ${task} API: expected ${expected}, got ${shown}`,
  );
}

/** An answer that must pass `check` (described by `expected`), then shaped by `pick`. */
export function shaped<O>(
  task: string,
  check: Check,
  expected: string,
  pick: (value: never) => O = (v) => v,
): Answer<O> {
  return (value, secret) => {
    if (!check(value)) throw malformed(task, expected, value, secret);
    return pick(value as never);
  };
}

/** An answer that must be binary (audio, an image). */
export function blobAnswer(task: string): Answer<Blob> {
  return (value, secret) => {
    if (typeof Blob !== "undefined" && value instanceof Blob) return value;
    throw malformed(task, "a binary body (audio or image)", value, secret);
  };
}

/** The first element of an array answer, or the answer itself when the server sent one object. */
export const first = <T>(value: T | T[]): T => (Array.isArray(value) ? (value[0] as T) : value);

/** An array of `check`, or one element alone. */
export const oneOrMany =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) ? v.length > 0 && v.every(check) : check(v);

/** A non-empty array whose every element passes `check`. */
export const listOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.length > 0 && v.every(check);

/** Numbers, or arrays of them nested at most `depth` deep (embeddings: per input, per token). */
export const nested =
  (depth: number): Check =>
  (v) =>
    isNumber(v) ? true : depth > 0 && arrayOf(nested(depth - 1))(v);
