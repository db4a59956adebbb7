import { stableHex } from "../ids.js";
import type { ToolCallPlan } from "../tgi/tools.js";
import { jsonTokens } from "../tokens.js";

/** Tool calls in OpenAI's protocol (vLLM, SGLang, llama.cpp, the router's providers): every call at once, arguments as JSON text. */

type Json = Record<string, unknown>;

/** Each call's id, made by `makeId` from 32 hex digits that depend on `seed` (the model), the call's place and its function. */
export function callIds(calls: readonly ToolCallPlan[], seed: string, makeId: (hex: string) => string): string[] {
  return calls.map((call, i) => makeId(stableHex(`${seed}#${i}:${call.name}`, 32)));
}

/** `message.tool_calls` of a whole answer. */
export function toolCallsField(calls: readonly ToolCallPlan[], ids: readonly string[]): Json[] {
  return calls.map((call, i) => ({
    id: ids[i],
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

/** The deltas that stream the calls: one opening each call (its id, name and `arguments: ""`), then its arguments a few characters a delta. */
export function toolCallDeltas(calls: readonly ToolCallPlan[], ids: readonly string[]): Json[] {
  return calls.flatMap((call, index) => [
    { tool_calls: [{ index, id: ids[index], type: "function", function: { name: call.name, arguments: "" } }] },
    ...argumentTokens(call).map((piece) => ({ tool_calls: [{ index, function: { arguments: piece } }] })),
  ]);
}

/** The tokens the calls take: their arguments', measured as any JSON text. */
export function callTokens(calls: readonly ToolCallPlan[]): number {
  return calls.reduce((total, call) => total + argumentTokens(call).length, 0);
}

function argumentTokens(call: ToolCallPlan): string[] {
  return jsonTokens(JSON.stringify(call.arguments));
}
