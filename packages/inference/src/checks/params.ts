import { InputError } from "../core/errors";
import type { ChatCompletionInput, Options } from "../types";

/** More retries than this only hammer a failing server. */
const MAX_RETRIES = 100;

const BACKEND_NAMES: readonly unknown[] = ["tgi", "transformers", "openai"];

function checkOptions(options: Options): void {
  if (options.backend !== undefined && !BACKEND_NAMES.includes(options.backend)) {
    throw new InputError(
      `\`backend\` must be "tgi", "transformers" or "openai" (got ${JSON.stringify(options.backend)})`,
      "backend",
    );
  }
  const r = options.maxRetries;
  if (r !== undefined && !(Number.isInteger(r) && r >= 0 && r <= MAX_RETRIES)) {
    throw new InputError(`\`maxRetries\` must be an integer from 0 to ${MAX_RETRIES} (got ${String(r)})`, "maxRetries");
  }
}

/** The checks every call makes of its arguments object, its token and its options, before anything else. */
export function checkArgs(args: unknown, options: Options): void {
  if (typeof args !== "object" || args === null) throw new InputError("The arguments must be an object", "args");
  const { accessToken: token }: { accessToken?: unknown } = args;
  // Never echoed: the message names what is wrong, not the value.
  // A header value: printable ASCII without spaces (a control character would split the request).
  // A blank one is no token (`""` sends none).
  if (token !== undefined && (typeof token !== "string" || (token.trim() !== "" && /[^!-~]/.test(token)))) {
    throw new InputError(
      "`accessToken` must be a string of printable ASCII without white space (a token read from a file may end in a newline: trim it)",
      "accessToken",
    );
  }
  checkOptions(options);
}

/**
 * Structural and range checks on OpenAI-style chat arguments, before any request. It checks what a
 * probability or a count must be, and does not second-guess the server (any role string passes).
 */
export function validateChatInput(args: ChatCompletionInput): void {
  // Each check reads its field as unknown: what JavaScript callers pass may hold any field, of any type.
  validateMessages(args.messages);
  checkRange(args, "top_p", 0, 1);
  checkRange(args, "temperature", 0, Infinity);
  checkRange(args, "frequency_penalty", -2, 2);
  checkRange(args, "presence_penalty", -2, 2);
  checkInteger(args, "max_tokens", 1);
  checkInteger(args, "n", 1);
  checkInteger(args, "top_logprobs", 0);
  checkInteger(args, "seed", -Number.MAX_SAFE_INTEGER);
  checkBoolean(args, "logprobs");
  checkStop(args);
  const extra = args.extra_body;
  if (extra != null && (typeof extra !== "object" || Array.isArray(extra))) {
    throw new InputError("`extra_body` must be an object of fields to add to the request body", "extra_body");
  }
  const so = args.stream_options;
  if (so != null) {
    if (typeof so !== "object")
      throw new InputError("`stream_options` must be an object such as {include_usage: true}", "stream_options");
    checkBoolean(so, "include_usage", "stream_options.");
  }
}

/** The fields a check reads, each of any type: a typed argument or a record passes. */
type Fields<K extends string> = { readonly [F in K]?: unknown };

export function checkStop(args: Fields<"stop">, prefix = ""): void {
  const stop = args.stop;
  if (stop != null && typeof stop !== "string" && !(Array.isArray(stop) && stop.every((s) => typeof s === "string"))) {
    throw new InputError(`\`${prefix}stop\` must be a string or an array of strings`, `${prefix}stop`);
  }
}

function validateMessages(messages: unknown): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new InputError("`messages` must be a non-empty array of {role, content}", "messages");
  }
  for (let i = 0; i < messages.length; i++) {
    const item: unknown = messages[i];
    const at = `messages[${i}]`;
    if (typeof item !== "object" || item === null)
      throw new InputError(`\`${at}\` must be an object {role, content}`, at);
    const m: Fields<"role" | "content" | "tool_calls"> = item;
    if (typeof m.role !== "string" || m.role === "") {
      throw new InputError(`\`${at}.role\` must be a non-empty string`, `${at}.role`);
    }
    const c = m.content;
    const contentOk =
      typeof c === "string" || Array.isArray(c) || ((c === undefined || c === null) && m.tool_calls !== undefined);
    if (!contentOk) {
      throw new InputError(`\`${at}.content\` must be a string or an array of content parts`, `${at}.content`);
    }
  }
}

function show(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

/** A finite number in [min, max]; `above` makes min exclusive (a penalty factor must be > 0). */
export function checkRange<K extends string>(
  args: Fields<K>,
  field: K,
  min: number,
  max: number,
  prefix = "",
  above = false,
): void {
  const v = args[field];
  if (v === undefined || v === null) return;
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || (above && v === min) || v > max) {
    const from = `${above ? ">" : ">="} ${min}`;
    const range = max === Infinity ? `a finite number ${from}` : `a number between ${min} and ${max}`;
    throw new InputError(`\`${prefix}${field}\` must be ${range} (got ${show(v)})`, prefix + field);
  }
}

/** An integer from `min` that a JSON number holds exactly (a seed, a count). */
export function checkInteger<K extends string>(args: Fields<K>, field: K, min: number, prefix = ""): void {
  const v = args[field];
  if (v === undefined || v === null) return;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) {
    const what = min === 1 ? "a positive integer" : min === 0 ? "an integer >= 0" : "an integer";
    throw new InputError(`\`${prefix}${field}\` must be ${what} (got ${show(v)})`, prefix + field);
  }
}

export function checkBoolean<K extends string>(args: Fields<K>, field: K, prefix = ""): void {
  const v = args[field];
  if (v !== undefined && v !== null && typeof v !== "boolean") {
    throw new InputError(`\`${prefix}${field}\` must be true or false (got ${show(v)})`, prefix + field);
  }
}

/** Sampling settings in either vocabulary (OpenAI's chat, TGI's `generate`). */
interface Sampling {
  temperature?: number | null;
  top_p?: number | null;
  typical_p?: number | null;
}

/**
 * The one rule of greedy decoding in OpenAI's ranges, on every route: `temperature: 0`, `top_p: 0` (or
 * `typical_p: 0`) mean "the likeliest token", which each server is sent in its own words (TGI's is `do_sample: false`).
 */
export function isGreedy(p: Sampling): boolean {
  return p.temperature === 0 || p.top_p === 0 || p.typical_p === 0;
}
