import { isRecord } from "../http.js";
import { stableHex } from "../ids.js";
import { valueFor } from "../schema/values.js";

/** A tool call the mock model makes: deterministic arguments for the chosen function. */
export interface ToolCallPlan {
  name: string;
  arguments: Record<string, unknown>;
}

export type ToolChoice =
  /** `forced`: `tool_choice` is "required" or names a function, so the model calls even after tool results. */
  | { calls: ToolCallPlan[]; forced: boolean }
  /** `tool_choice` names a function that `tools` does not have. */
  | { missing: string };

interface ToolDefinition {
  name: string;
  parameters: unknown;
}

/**
 * The calls `tool_choice` allows: none for "none" or without tools; the function it names (which must be
 * among the tools); else the first tool (TGI's grammar picks one) or, `parallel`, every tool at once.
 */
export function chooseTools(
  body: Record<string, unknown>,
  configured: Record<string, unknown> | undefined,
  parallel: boolean,
): ToolChoice {
  const tools = toolDefinitions(body.tools);
  const choice = body.tool_choice;
  if (tools.length === 0 || choice === "none") return { calls: [], forced: false };
  const wanted = requestedName(choice);
  const chosen =
    wanted !== undefined ? tools.filter((tool) => tool.name === wanted) : parallel ? tools : tools.slice(0, 1);
  if (chosen.length === 0) return { missing: wanted ?? "" };
  const calls = chosen.map((tool) => ({ name: tool.name, arguments: configured ?? argumentsFor(tool.parameters) }));
  return { calls, forced: wanted !== undefined || choice === "required" };
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

/** Arguments valid for the tool's `parameters` schema, the same every time (`{}` without one). */
function argumentsFor(schema: unknown): Record<string, unknown> {
  const value = valueFor(schema ?? {}, "arguments");
  return isRecord(value) ? value : {};
}

/**
 * TGI 3.2's id of a streamed call: one more than the largest integer id among the conversation's calls ("0"
 * at first); TGI takes a random UUID when an id is not an integer, here one derived from the ids.
 */
export function nextToolCallId(messages: unknown): string {
  const ids = (Array.isArray(messages) ? messages : []).flatMap((message: unknown) => {
    const calls = isRecord(message) && Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
    return calls.map((call) => (isRecord(call) ? String(call.id) : ""));
  });
  if (ids.some((id) => !/^\d+$/.test(id))) {
    const hex = stableHex(ids.join(","), 32);
    return [hex.slice(0, 8), hex.slice(8, 12), `4${hex.slice(13, 16)}`, `8${hex.slice(17, 20)}`, hex.slice(20)].join(
      "-",
    );
  }
  return String(ids.reduce((next, id) => Math.max(next, Number(id) + 1), 0));
}
