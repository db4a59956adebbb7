import { InputError } from "./errors";
import type { ChatCompletionInput, TextGenerationInput, TextGenerationInputGenerateParameters } from "./types";

/**
 * Structural and range checks on OpenAI-style chat arguments, before any request. It checks what a
 * probability or a count must be, and does not second-guess the server (any role string passes).
 */
export function validateChatInput(args: ChatCompletionInput): void {
  validateMessages(args.messages);
  checkRange(args, "top_p", 0, 1);
  checkRange(args, "temperature", 0, Infinity);
  checkRange(args, "frequency_penalty", -2, 2);
  checkRange(args, "presence_penalty", -2, 2);
  checkPositiveInteger(args, "max_tokens");
  checkPositiveInteger(args, "n");
  if (args.top_logprobs != null && !(Number.isInteger(args.top_logprobs) && args.top_logprobs >= 0)) {
    throw new InputError(`\`top_logprobs\` must be an integer >= 0 (got ${show(args.top_logprobs)})`, "top_logprobs");
  }
  const stop = args.stop;
  if (stop != null && typeof stop !== "string" && !(Array.isArray(stop) && stop.every((s) => typeof s === "string"))) {
    throw new InputError("`stop` must be a string or an array of strings", "stop");
  }
}

function validateMessages(messages: unknown): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new InputError("`messages` must be a non-empty array of {role, content}", "messages");
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Record<string, unknown> | null;
    const at = `messages[${i}]`;
    if (typeof m !== "object" || m === null) throw new InputError(`\`${at}\` must be an object {role, content}`, at);
    if (typeof m.role !== "string" || m.role === "") {
      throw new InputError(`\`${at}.role\` must be a non-empty string`, `${at}.role`);
    }
    const c = m.content;
    const contentOk = typeof c === "string" || Array.isArray(c) || ((c === undefined || c === null) && m.tool_calls !== undefined);
    if (!contentOk) {
      throw new InputError(`\`${at}.content\` must be a string or an array of content parts`, `${at}.content`);
    }
  }
}

function show(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

function checkRange(args: Record<string, unknown>, field: string, min: number, max: number): void {
  const v = args[field];
  if (v === undefined || v === null) return;
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) {
    const range = max === Infinity ? `a finite number >= ${min}` : `a number between ${min} and ${max}`;
    throw new InputError(`\`${field}\` must be ${range} (got ${show(v)})`, field);
  }
}

function checkPositiveInteger(args: Record<string, unknown>, field: string): void {
  const v = args[field];
  if (v === undefined || v === null) return;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
    throw new InputError(`\`${field}\` must be a positive integer (got ${show(v)})`, field);
  }
}

/** Rejects what a TGI backend cannot honour, in the caller's terms. */
export function validateForTgi(args: ChatCompletionInput): void {
  if (args.n !== undefined && args.n !== null && args.n > 1) {
    throw new InputError(`\`n\` must be 1 for a TGI-served model, which returns one choice (got ${args.n})`, "n");
  }
  if (typeof args.presence_penalty === "number" && args.presence_penalty <= -2) {
    throw new InputError(
      `\`presence_penalty\` must be > -2 and <= 2 for a TGI-served model (got ${args.presence_penalty})`,
      "presence_penalty",
    );
  }
}

/** Checks `textGeneration` arguments: `inputs` a string, and the generate parameters' ranges. */
export function validateGenerateInput(args: TextGenerationInput): void {
  if (typeof args.inputs !== "string") throw new InputError("`inputs` must be a string", "inputs");
  const p = args.parameters;
  if (p === undefined) return;
  if (typeof p !== "object" || p === null) throw new InputError("`parameters` must be an object", "parameters");
  checkRange(p, "top_p", 0, 1);
  checkRange(p, "typical_p", 0, 1);
  checkRange(p, "temperature", 0, Infinity);
  checkPositiveInteger(p, "max_new_tokens");
  checkPositiveInteger(p, "top_k");
}

/**
 * OpenAI-style ranges mapped for `generate` (TGI and the pipeline alike): `temperature: 0` and
 * `top_p: 0` are greedy (`do_sample: false`), `top_p: 1` / `typical_p: 1` are the default.
 */
export function generateParameters(p: TextGenerationInputGenerateParameters | undefined): TextGenerationInputGenerateParameters | undefined {
  if (!p) return p;
  const out = { ...p };
  if (out.temperature === 0 || out.top_p === 0 || out.typical_p === 0) {
    out.do_sample = false;
    delete out.temperature;
    if (out.top_p === 0) delete out.top_p;
    if (out.typical_p === 0) delete out.typical_p;
  }
  if (out.top_p === 1) delete out.top_p;
  if (out.typical_p === 1) delete out.typical_p;
  return out;
}
