import { isRecord } from "../http.js";

/** The tool call the mock model makes: deterministic arguments for the chosen function. */
export interface ToolCallPlan {
  name: string;
  arguments: Record<string, unknown>;
}

export type ToolChoice = { call: ToolCallPlan | undefined } | { error: string };

interface ToolDefinition {
  name: string;
  parameters: unknown;
}

/** TGI's tool grammar choice: "none" answers text, a named function must exist, else the first tool. */
export function chooseTool(body: Record<string, unknown>, configured: Record<string, unknown> | undefined): ToolChoice {
  const tools = toolDefinitions(body.tools);
  const choice = body.tool_choice;
  if (tools.length === 0 || choice === "none") return { call: undefined };
  const wanted = requestedName(choice);
  const tool = wanted === undefined ? tools[0] : tools.find((candidate) => candidate.name === wanted);
  if (!tool) return { error: `Tool with name ${wanted ?? ""} not found` };
  return { call: { name: tool.name, arguments: configured ?? argumentsFor(tool.parameters) } };
}

function toolDefinitions(tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    return isRecord(fn) && typeof fn.name === "string" ? [{ name: fn.name, parameters: fn.parameters }] : [];
  });
}

/** Old clients send the function name as a bare string; OpenAI's shape nests it. */
function requestedName(choice: unknown): string | undefined {
  if (typeof choice === "string") return ["auto", "required"].includes(choice) ? undefined : choice;
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === "string") {
    return choice.function.name;
  }
  return undefined;
}

/** A value for each required property of the JSON schema, the same every time. */
function argumentsFor(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema) || !isRecord(schema.properties)) return {};
  const required = Array.isArray(schema.required) ? schema.required : Object.keys(schema.properties);
  const args: Record<string, unknown> = {};
  for (const name of required) {
    if (typeof name === "string") args[name] = sampleValue(schema.properties[name]);
  }
  return args;
}

function sampleValue(property: unknown): unknown {
  if (!isRecord(property)) return null;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  const samples: Record<string, unknown> = { string: "Paris", integer: 3, number: 3, boolean: true, array: [], object: {} };
  return typeof property.type === "string" ? (samples[property.type] ?? null) : null;
}

/** The arguments JSON cut the way a tokenizer would: punctuation runs and words apart. */
export function argumentPieces(argumentsJson: string): string[] {
  return argumentsJson.match(/[{}[\]":,]+|[^{}[\]":,]+/g) ?? [argumentsJson];
}
