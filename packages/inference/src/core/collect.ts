/**
 * A stream's chunks assembled into one answer as they come: content and reasoning joined, tool calls merged by
 * index, usage kept (`collectStream`, and the tool runner's streamed steps).
 */
import { MalformedEventError } from "./errors";
import { grow } from "./body";
import type {
  ChatCompletionOutput,
  ChatCompletionOutputComplete,
  ChatCompletionOutputToolCall,
  ChatCompletionStreamOutput,
} from "../types";

const MAX_TOOL_CALLS = 1024;

/** Takes chunks one by one (`add`); `answer()` is the answer they make so far. */
export class StreamCollector {
  private readonly out: ChatCompletionOutput = {
    id: "",
    created: 0,
    model: "",
    system_fingerprint: "",
    choices: [],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
  private readonly byIndex = new Map<number, ChatCompletionOutputComplete>();

  /** Adds one chunk. */
  add(chunk: ChatCompletionStreamOutput): void {
    const { out } = this;
    out.id ||= chunk.id;
    out.created ||= chunk.created;
    out.model ||= chunk.model;
    out.system_fingerprint ||= chunk.system_fingerprint;
    if (chunk.usage) out.usage = chunk.usage;
    if (chunk.served) out.served = chunk.served;
    for (const c of chunk.choices) {
      let choice = this.byIndex.get(c.index);
      if (!choice) {
        choice = { index: c.index, message: { role: c.delta?.role || "assistant", content: "" }, finish_reason: "" };
        this.byIndex.set(c.index, choice);
      }
      if (c.delta?.content) choice.message.content = grow(choice.message.content ?? "", c.delta.content);
      if (c.delta?.reasoning) choice.message.reasoning = grow(choice.message.reasoning ?? "", c.delta.reasoning);
      if (c.delta?.tool_calls) mergeToolCalls(choice, c.delta.tool_calls);
      if (c.finish_reason) choice.finish_reason = c.finish_reason;
    }
  }

  /** The answer the chunks make. */
  answer(): ChatCompletionOutput {
    this.out.choices = [...this.byIndex.values()].sort((a, b) => a.index - b.index);
    return this.out;
  }
}

function mergeToolCalls(
  choice: ChatCompletionOutputComplete,
  deltas: NonNullable<ChatCompletionStreamOutput["choices"][number]["delta"]["tool_calls"]>,
): void {
  const calls = (choice.message.tool_calls ??= []);
  for (const d of deltas) {
    const at = d.index ?? 0;
    // A server's index becomes an array length: `index: 1e9` must not make a billion holes.
    if (!(Number.isInteger(at) && at >= 0 && at < MAX_TOOL_CALLS))
      throw new MalformedEventError(
        `A tool call's index must be an integer from 0 to ${MAX_TOOL_CALLS - 1}`,
        String(at).slice(0, 40),
      );
    const call: ChatCompletionOutputToolCall = (calls[at] ??= {
      id: "",
      type: "function",
      function: { name: "", arguments: "" },
    });
    if (d.id) call.id = d.id;
    if (d.type) call.type = d.type;
    if (d.function?.name) call.function.name = grow(call.function.name, d.function.name);
    if (d.function?.arguments) call.function.arguments = grow(call.function.arguments, d.function.arguments);
  }
}
