import { isRecord } from "./http.js";
import { grammarText, type Grammar } from "./structured.js";
import type { ToolCallPlan, ToolChoice } from "./tgi/tools.js";
import { jsonTokens, splitTokens } from "./tokens.js";
import type { StructuredOutputFault } from "./types.js";

/** What the mock model says to a chat request, on every server: tool calls, JSON for a grammar, what the tools said, or its own text. */

export interface ChatReply {
  /** The answer's tokens; empty when it calls tools. */
  tokens: readonly string[];
  /** The tools it calls instead, in order; empty when it answers in words. */
  calls: readonly ToolCallPlan[];
}

export interface ReplyOptions {
  /** The model's own answer. */
  tokens: readonly string[];
  /** What `response_format` (or TGI's `grammar`) constrains the answer to. */
  grammar: Grammar | undefined;
  takeFault(): StructuredOutputFault | undefined;
}

/**
 * Given tools (`choice` has calls): calls when the user spoke last or `tool_choice` forces one. Else JSON
 * under a grammar; else, given tools, a summary of the tool results when they came last; else the model's text.
 */
export function chatReply(
  body: Record<string, unknown>,
  choice: Extract<ToolChoice, { calls: unknown }>,
  options: ReplyOptions,
): ChatReply {
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  const last = roleOf(messages.at(-1));
  const withTools = choice.calls.length > 0;
  if (withTools && (choice.forced || last === "user")) return { tokens: [], calls: choice.calls };
  if (options.grammar)
    return { tokens: jsonTokens(grammarText(options.grammar, () => options.takeFault())), calls: [] };
  if (withTools && last === "tool") return { tokens: splitTokens(toolResultsText(messages)), calls: [] };
  return { tokens: options.tokens, calls: [] };
}

function roleOf(message: unknown): unknown {
  return isRecord(message) ? message.role : undefined;
}

/** "From the tools: weather: {…}; time: 12:00": the trailing tool messages, each as its function's name and its content. */
export function toolResultsText(messages: readonly unknown[]): string {
  let first = messages.length;
  while (first > 0 && roleOf(messages[first - 1]) === "tool") first--;
  const names = callNames(messages);
  const results = messages.slice(first).map((message) => {
    const own = isRecord(message) && typeof message.name === "string" ? message.name : undefined;
    const id = isRecord(message) ? String(message.tool_call_id) : "";
    return `${own ?? names.get(id) ?? "tool"}: ${messageText(message)}`;
  });
  return `From the tools: ${results.join("; ")}`;
}

/** The function each call id of the conversation named. */
function callNames(messages: readonly unknown[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    const calls: unknown[] = isRecord(message) && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    for (const call of calls) {
      if (isRecord(call) && isRecord(call.function) && typeof call.function.name === "string")
        names.set(String(call.id), call.function.name);
    }
  }
  return names;
}

/** A message's text: its string content, or its text parts joined. */
export function messageText(message: unknown): string {
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : "")).join(" ");
}
