import { isRecord, textResponse } from "../http.js";

/** axum's `Json` extractor rejections, as TGI answers them (text/plain). */

export type FieldType = "sequence" | "string";

export interface BodyShape {
  /** Required fields in declaration order (serde reports the first one missing). */
  required: readonly string[];
  /** Fields whose JSON type is checked when present and not null. */
  types: Readonly<Record<string, FieldType>>;
}

export type BodyResult = { body: Record<string, unknown> } | { rejection: Response };

const DESERIALIZE = "Failed to deserialize the JSON body into the target type";

export function readJsonBody(request: Request, text: string, shape: BodyShape): BodyResult {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    return { rejection: textResponse(415, "Expected request with `Content-Type: application/json`") };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { rejection: textResponse(400, `Failed to parse the request body as JSON: ${syntaxError(text, error)}`) };
  }
  const problem = dataError(text, value, shape);
  if (problem) return { rejection: textResponse(422, `${DESERIALIZE}: ${problem}`) };
  return { body: value as Record<string, unknown> };
}

function isJsonContentType(contentType: string | null): boolean {
  const mime = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mime === "application/json" || mime.endsWith("+json");
}

function dataError(text: string, value: unknown, shape: BodyShape): string | undefined {
  if (!isRecord(value)) return `invalid type: ${describe(value)}, expected a map ${position(text, text.length)}`;
  const missing = shape.required.find((field) => !(field in value) || value[field] === null);
  if (missing) return `missing field \`${missing}\` ${position(text, text.length)}`;
  for (const [field, expected] of Object.entries(shape.types)) {
    const actual = value[field];
    if (actual === undefined || actual === null || hasType(actual, expected)) continue;
    const end = valueSpan(text, [field])?.end ?? text.length;
    return `${field}: invalid type: ${describe(actual)}, expected a ${expected} ${position(text, end)}`;
  }
  return undefined;
}

function hasType(value: unknown, expected: FieldType): boolean {
  return expected === "sequence" ? Array.isArray(value) : typeof value === "string";
}

/** axum's 422 for a value serde refused, `path: problem`, located just past the value at `path` (the whole body without it). */
export function deserializeRejection(text: string, path: readonly string[], problem: string): Response {
  const end = valueSpan(text, path)?.end ?? text.length;
  return textResponse(422, `${DESERIALIZE}: ${path.join(".")}: ${problem} ${position(text, end)}`);
}

/** serde's words for an unexpected value. */
export function describe(value: unknown): string {
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "number")
    return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (Array.isArray(value)) return "sequence";
  return value === null ? "null" : "map";
}

/** serde's "at line L column C", C counting the characters of the line up to `offset`. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1);
  return `at line ${line} column ${column}`;
}

/** serde's words for a syntax error, located from V8's message as closely as it says. */
function syntaxError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const at = /position (\d+)/.exec(message)?.[1];
  const token = /Unexpected token '(.)'/.exec(message)?.[1];
  const offset = at !== undefined ? Number(at) : token !== undefined ? text.indexOf(token) : text.length;
  if (offset < 0 || offset >= text.length) return `EOF while parsing a value ${position(text, text.length)}`;
  return `expected value ${position(text, offset + 1)}`;
}

/** Where the value at `path` (keys of nested objects) starts and ends in the raw text, found by scanning it. */
function valueSpan(text: string, path: readonly string[]): { start: number; end: number } | undefined {
  let span: { start: number; end: number } | undefined = { start: skipSpace(text, 0), end: text.length };
  for (const key of path) span = span && text[span.start] === "{" ? fieldSpan(text, span.start, key) : undefined;
  return span;
}

/** The value of `field` in the object that opens at `open`. */
function fieldSpan(text: string, open: number, field: string): { start: number; end: number } | undefined {
  for (let i = open + 1; ;) {
    const keyStart = skipSpace(text, i);
    if (text[keyStart] !== '"') return undefined;
    const keyEnd = skipValue(text, keyStart);
    const start = skipSpace(text, text.indexOf(":", keyEnd) + 1);
    const end = skipValue(text, start);
    if (JSON.parse(text.slice(keyStart, keyEnd)) === field) return { start, end };
    const next = skipSpace(text, end);
    if (text[next] !== ",") return undefined;
    i = next + 1;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (/\s/.test(text[i] ?? "")) i++;
  return i;
}

/** Skips whitespace then one JSON value starting at `from`; returns the offset after it. */
function skipValue(text: string, from: number): number {
  let i = from;
  while (/\s/.test(text[i] ?? "")) i++;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      if (!inString && depth === 0) return i + 1;
    } else if (depth === 0 && (char === "," || char === "}" || char === "]")) {
      return text.slice(0, i).trimEnd().length;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if ((char === "}" || char === "]") && --depth === 0) return i + 1;
  }
  return i;
}
