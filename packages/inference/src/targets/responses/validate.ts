import { InputError } from "../../core/errors";
import { checkBoolean, checkInteger, checkRange } from "../../checks/params";
import type { ResponsesInput } from "../../types";
import { isRecord, type JsonObject } from "../../core/json";

/** The types of `text.format`. */
const FORMAT_TYPES: unknown[] = ["text", "json_object", "json_schema"];

/**
 * Structural and range checks on Responses arguments, before any request: each InputError names the
 * field (`input[2].call_id`) and what it must be. As for chat, roles and tool types are not second-guessed.
 */
export function validateResponsesInput(args: ResponsesInput): void {
  // Each check reads its field as unknown: what JavaScript callers pass may hold any field, of any type.
  validateInput(args.input);
  if (args.instructions != null && typeof args.instructions !== "string")
    throw new InputError("`instructions` must be a string", "instructions");
  checkRange(args, "temperature", 0, 2);
  checkRange(args, "top_p", 0, 1);
  checkInteger(args, "max_output_tokens", 1);
  checkBoolean(args, "parallel_tool_calls");
  validateTools(args.tools);
  validateToolChoice(args.tool_choice);
  if (args.reasoning != null && !isRecord(args.reasoning))
    throw new InputError('`reasoning` must be an object such as {effort: "low"}', "reasoning");
  validateFormat(args.text);
}

function validateInput(input: unknown): void {
  if (typeof input === "string") return;
  if (!Array.isArray(input) || input.length === 0) {
    throw new InputError(
      "`input` must be a string or a non-empty array of items ({role, content}, function_call, function_call_output)",
      "input",
    );
  }
  input.forEach((item: unknown, i) => validateItem(item, `input[${i}]`));
}

function requireString(item: JsonObject, field: string, at: string): void {
  if (typeof item[field] !== "string") throw new InputError(`\`${at}.${field}\` must be a string`, `${at}.${field}`);
}

function validateItem(item: unknown, at: string): void {
  if (!isRecord(item))
    throw new InputError(`\`${at}\` must be an object: {role, content}, a function_call or a function_call_output`, at);
  const type = item.type ?? "message";
  if (type === "function_call") {
    for (const field of ["call_id", "name", "arguments"]) requireString(item, field, at);
  } else if (type === "function_call_output") {
    for (const field of ["call_id", "output"]) requireString(item, field, at);
  } else if (type === "message") {
    if (typeof item.role !== "string" || item.role === "")
      throw new InputError(`\`${at}.role\` must be a non-empty string`, `${at}.role`);
    const c = item.content;
    if (
      typeof c !== "string" &&
      !(Array.isArray(c) && c.every((part) => isRecord(part) && typeof part.type === "string"))
    ) {
      throw new InputError(`\`${at}.content\` must be a string or an array of parts {type, …}`, `${at}.content`);
    }
  } else if (typeof type !== "string") throw new InputError(`\`${at}.type\` must be a string`, `${at}.type`);
}

function validateTools(tools: unknown): void {
  if (tools == null) return;
  if (!Array.isArray(tools))
    throw new InputError('`tools` must be an array of tools such as {type: "function", name, parameters}', "tools");
  tools.forEach((tool: unknown, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(tool) || typeof tool.type !== "string")
      throw new InputError(`\`${at}\` must be an object with a \`type\``, at);
    if (tool.type === "function" && (typeof tool.name !== "string" || tool.name === "")) {
      throw new InputError(`\`${at}.name\` must be a non-empty string`, `${at}.name`);
    }
  });
}

function validateToolChoice(choice: unknown): void {
  if (choice == null || choice === "auto" || choice === "none" || choice === "required") return;
  if (isRecord(choice) && typeof choice.type === "string") return;
  throw new InputError('`tool_choice` must be "auto", "none", "required" or {type: "function", name}', "tool_choice");
}

function validateFormat(text: unknown): void {
  if (text == null) return;
  if (!isRecord(text))
    throw new InputError('`text` must be an object such as {format: {type: "json_schema", name, schema}}', "text");
  const format = text.format;
  if (format == null) return;
  if (!isRecord(format) || !FORMAT_TYPES.includes(format.type)) {
    throw new InputError('`text.format.type` must be "text", "json_object" or "json_schema"', "text.format.type");
  }
  if (format.type === "json_schema") {
    if (typeof format.name !== "string" || format.name === "")
      throw new InputError("`text.format.name` must be a non-empty string", "text.format.name");
    if (!isRecord(format.schema))
      throw new InputError("`text.format.schema` must be a JSON Schema object", "text.format.schema");
  }
}
