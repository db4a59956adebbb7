import { isRecord, parseJson, tgiError } from "../http.js";
import type { Grammar } from "../structured.js";
import { supports } from "../version.js";
import { describe, deserializeRejection } from "./json-body.js";

/**
 * TGI's `GrammarType`, an adjacently tagged enum `{"type": …, "value": …}` (chat's `response_format`,
 * generate's `parameters.grammar`), read as serde reads it: `json` (its schema an object or a JSON string)
 * and `regex`; from 2.1 `json_object` as another name of `json`; from 3.3 `json_schema` with `value: {name, schema}`.
 * Anything else is axum's 422, e.g. OpenAI's `{"type": "json_schema", "json_schema": …}` before 3.3.
 */

export type GrammarRead = { grammar: Grammar | undefined } | { rejection: Response };

export function readGrammar(
  text: string,
  body: Record<string, unknown>,
  path: readonly string[],
  version: string,
): GrammarRead {
  const format = path.reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), body);
  if (format === undefined || format === null) return { grammar: undefined };
  const refuse = (at: readonly string[], problem: string): GrammarRead => ({
    rejection: deserializeRejection(text, at, problem),
  });
  if (!isRecord(format))
    return refuse(path, `invalid type: ${describe(format)}, expected adjacently tagged enum GrammarType`);
  const { type, value } = format;
  const variants = grammarVariants(version);
  if (type === undefined) return refuse(path, "missing field `type`");
  if (typeof type !== "string")
    return refuse([...path, "type"], `invalid type: ${describe(type)}, expected variant identifier`);
  if (!variants.includes(type))
    return refuse([...path, "type"], `unknown variant \`${type}\`, ${expectedOneOf(variants)}`);
  if (!("value" in format)) return refuse(path, "missing field `value`");
  const at = [...path, "value"];
  if (type === "regex") {
    if (typeof value !== "string") return refuse(at, `invalid type: ${describe(value)}, expected a string`);
    return { grammar: { type: "regex", pattern: value } };
  }
  if (type === "json_schema") {
    if (!isRecord(value) || !("schema" in value)) return refuse(at, "missing field `schema`");
    return { grammar: { type: "json", schema: value.schema } };
  }
  // `json` takes the schema as JSON or as a string of JSON.
  return { grammar: { type: "json", schema: typeof value === "string" ? (parseJson(value) ?? {}) : value } };
}

/** serde's variant list: the names in declaration order, an alias right after its variant's name. */
function grammarVariants(version: string): string[] {
  const json = supports(version, "responseFormat") ? ["json", "json_object"] : ["json"];
  return supports(version, "jsonSchemaGrammar") ? [...json, "regex", "json_schema"] : [...json, "regex"];
}

function expectedOneOf(names: readonly string[]): string {
  const quoted = names.map((name) => `\`${name}\``);
  return quoted.length === 2 ? `expected ${quoted[0]} or ${quoted[1]}` : `expected one of ${quoted.join(", ")}`;
}

/** `response_format` beside `tools`: TGI's own error type before 2.4.1, a tool error from then on. */
export function grammarAndTools(version: string): Response {
  const message = "Grammar and tools are mutually exclusive";
  if (supports(version, "grammarToolsToolError")) return tgiError(422, `Tool error: ${message}`, "tool_error");
  return tgiError(422, message, "grammar and tools");
}
