import { isRecord } from "./http.js";
import { samplePattern } from "./schema/pattern.js";
import { valueFor, violationOf } from "./schema/values.js";
import type { StructuredOutputFault } from "./types.js";

/** What a request constrains the answer to: JSON valid for a schema, or text a regular expression matches. */
export type Grammar = { type: "json"; schema: unknown } | { type: "regex"; pattern: string };

/** OpenAI's JSON mode (`json_object` without a schema): an object, here `{"answer": "…"}`. */
const JSON_MODE = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };

/**
 * The text the model writes under `grammar`: the schema's value as compact JSON, or a string the pattern
 * matches. A JSON answer uses the next structured-answer fault, which breaks it.
 */
export function grammarText(grammar: Grammar, takeFault: () => StructuredOutputFault | undefined): string {
  if (grammar.type === "regex") return samplePattern(grammar.pattern) ?? "";
  const value = valueFor(grammar.schema);
  const fault = takeFault();
  if (fault?.type === "badJson") return `Here is the JSON you asked for: ${JSON.stringify(value).slice(0, -1)}`;
  return JSON.stringify(fault?.type === "schemaViolation" ? violationOf(grammar.schema, value) : value);
}

export type FormatRead = { grammar: Grammar | undefined } | { error: string };

/**
 * OpenAI's `response_format` as vLLM, SGLang, llama.cpp and the router's providers take it: `text`,
 * `json_object` (JSON mode; llama.cpp also reads a `schema` beside it: `schemaBesideJsonObject`) or
 * `json_schema` with `{name, schema, strict?}`.
 */
export function openAiGrammar(format: unknown, schemaBesideJsonObject = false): FormatRead {
  if (format === undefined || format === null) return { grammar: undefined };
  const type = isRecord(format) ? format.type : undefined;
  if (type === "text") return { grammar: undefined };
  if (type === "json_object") {
    const schema = schemaBesideJsonObject && isRecord(format) && isRecord(format.schema) ? format.schema : JSON_MODE;
    return { grammar: { type: "json", schema } };
  }
  if (type === "json_schema" && isRecord(format)) {
    const spec = format.json_schema;
    return { grammar: { type: "json", schema: isRecord(spec) && "schema" in spec ? spec.schema : JSON_MODE } };
  }
  return { error: "response_format.type: Input should be 'text', 'json_object' or 'json_schema'" };
}

/**
 * A chat body as the router hands it to a TGI-served model: OpenAI's `json_schema` response format becomes TGI's
 * `{type: "json", value: schema}` (the router, not the client, speaks each server's dialect); anything else as sent.
 */
export function routerToTgi(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isRecord(body) || !isRecord(body.response_format) || body.response_format.type !== "json_schema") return text;
  const read = openAiGrammar(body.response_format);
  if (!("grammar" in read) || read.grammar?.type !== "json") return text;
  return JSON.stringify({ ...body, response_format: { type: "json", value: read.grammar.schema } });
}
