/**
 * The checks and request bodies of the tasks that are not chat: each an InputError naming the field
 * and what it must be, before any request.
 */
import { InputError } from "../core/errors";
import { checkInteger } from "./params";
import type { BaseArgs, TaskParameters } from "../types";
import { isRecord, type JsonObject } from "../core/json";

/** What a task sends: a JSON body, or a binary one (audio, an image) with its media type. */
export type TaskBody = { json: JsonObject } | { bytes: Blob | ArrayBuffer; contentType: string };

/** The call's own fields (token, model, route) are never sent: the rest is the body, as `@huggingface/inference` sends it. */
export function jsonBody(args: BaseArgs, extra?: JsonObject): { json: JsonObject } {
  const json: JsonObject = { ...args, ...extra };
  for (const own of ["accessToken", "model", "endpointUrl", "provider"]) delete json[own];
  return { json };
}

/** `value` at `field` is a string (non-empty unless `empty`). */
export function needString(value: unknown, field: string, empty = false): string {
  if (typeof value !== "string" || (!empty && value === ""))
    throw new InputError(`\`${field}\` must be a${empty ? "" : " non-empty"} string`, field);
  return value;
}

/** `value` at `field` is an array of at least `min` strings. */
export function needStrings(value: unknown, field: string, min = 1): string[] {
  if (!Array.isArray(value) || value.length < min || !value.every((s) => typeof s === "string")) {
    throw new InputError(`\`${field}\` must be an array of ${min > 0 ? `at least ${min} ` : ""}strings`, field);
  }
  return value;
}

/** `value` at `field` is an object. */
export function needObject(value: unknown, field: string): JsonObject {
  if (!isRecord(value)) throw new InputError(`\`${field}\` must be an object`, field);
  return value;
}

/** `parameters`, when given, is an object; `top_k` in it an integer >= 1. */
export function checkParameters(parameters: unknown): TaskParameters | undefined {
  if (parameters === undefined) return undefined;
  const p = needObject(parameters, "parameters");
  checkInteger(p, "top_k", 1, "parameters.");
  return p;
}

/** A table: column name to an array of strings, every column of the same length. */
export function checkTable(value: unknown, field: string): void {
  const table = needObject(value, field);
  const lengths = Object.entries(table).map(([name, column]) => needStrings(column, `${field}.${name}`, 0).length);
  if (lengths.length === 0) throw new InputError(`\`${field}\` must have at least one column`, field);
  if (lengths.some((n) => n !== lengths[0]))
    throw new InputError(`\`${field}\`: every column must have the same number of values`, field);
}

/** A Blob, an ArrayBuffer or a typed array holding at least one byte. */
export function needBinary(value: unknown, field: string): Blob | ArrayBuffer {
  let out: Blob | ArrayBuffer | undefined;
  if (typeof Blob !== "undefined" && value instanceof Blob) out = value;
  else if (value instanceof ArrayBuffer) out = value;
  else if (ArrayBuffer.isView(value))
    out = new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice().buffer;
  if (out === undefined)
    throw new InputError(`\`${field}\` must be a Blob or an ArrayBuffer (the audio or image file)`, field);
  if ((out instanceof ArrayBuffer ? out.byteLength : out.size) === 0)
    throw new InputError(`\`${field}\` must not be empty`, field);
  return out;
}

/** Which field holds a task's file: `inputs`, or the older `data` when only it is given. */
export const binaryField = (args: { inputs?: unknown; data?: unknown }): "inputs" | "data" =>
  args.data !== undefined && args.inputs === undefined ? "data" : "inputs";

/** The binary input of `args` (`inputs`, or the older `data`), checked: a Blob, an ArrayBuffer or a typed array of at least one byte. */
function binaryOf(args: { inputs?: unknown; data?: unknown }): Blob | ArrayBuffer {
  const field = binaryField(args);
  return needBinary(field === "data" ? args.data : args.inputs, field);
}

/** The binary input of `args` (`inputs`, or the older `data`), sent as the body with its own media type. */
export function binaryBody(args: { inputs?: unknown; data?: unknown }): TaskBody {
  const bytes = binaryOf(args);
  return { bytes, contentType: bytes instanceof ArrayBuffer ? "" : bytes.type };
}

/** The checks of a task on a file (audio, an image) on every target: the file (`inputs` or `data`), and `parameters` when given. */
export function checkBinary(args: { inputs?: unknown; data?: unknown; parameters?: unknown }): void {
  binaryOf(args);
  checkParameters(args.parameters);
}

/**
 * The checks of a task on audio on every target: the audio (`inputs` or `data`) a file, or a string (a provider
 * that fetches audio takes its http(s) URL, and says so in its own words: hf-inference takes files only), and
 * `parameters` when given.
 */
export function checkAudio(args: { inputs?: unknown; data?: unknown; parameters?: unknown }): void {
  const field = binaryField(args);
  const audio = field === "data" ? args.data : args.inputs;
  if (typeof audio === "string") {
    if (audio === "")
      throw new InputError(`\`${field}\` must be a Blob or an ArrayBuffer (the audio file), or the URL of one`, field);
  } else needBinary(audio, field);
  checkParameters(args.parameters);
}

/** The checks of a task on a prompt and an optional image on every target: the image, when given, is a file; `parameters`, when given, an object. */
export function checkOptionalImage(args: { inputs?: unknown; parameters?: unknown }): void {
  if (args.inputs !== undefined) needBinary(args.inputs, "inputs");
  checkParameters(args.parameters);
}

/** The checks of a task on a text on every target: `inputs` a non-empty string, and `parameters` (when given) an object. */
export function checkText(args: { inputs?: unknown; parameters?: unknown }): void {
  needString(args.inputs, "inputs");
  checkParameters(args.parameters);
}

/** The bytes of a binary input, base64-encoded (for the tasks that send an image inside JSON). */
export async function base64Of(value: unknown, field: string): Promise<string> {
  const binary = needBinary(value, field);
  return base64(new Uint8Array(binary instanceof ArrayBuffer ? binary : await binary.arrayBuffer()));
}

/** Bytes as base64. */
export function base64(bytes: Uint8Array): string {
  let text = "";
  // In pieces: `String.fromCharCode(...bytes)` of a large image overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** `inputs` is a string, and `parameters` (if any) an object: the body is the arguments as they are. */
export function textBody(args: BaseArgs & { inputs?: unknown; parameters?: unknown }): TaskBody {
  checkText(args);
  return jsonBody(args);
}

/** `args` and its `inputs` are objects (checked further by `check`): the body is the arguments as they are. */
export function objectBody(
  args: BaseArgs & { inputs?: unknown; parameters?: unknown },
  check: (inputs: JsonObject) => void,
): TaskBody {
  check(needObject(args.inputs, "inputs"));
  checkParameters(args.parameters);
  return jsonBody(args);
}
