/**
 * Builds a response and its stream events, in OpenAI's order, from pieces of an answer: thinking,
 * text, function-call pieces, then the end. One writer per response: its ids (`resp_…`, `rs_…`,
 * `msg_…`, `fc_…`) are the same in every event, `sequence_number` counts from 0, and each item's
 * `output_index` is its place in `output`.
 */
import type {
  ChatCompletionUsage,
  OneResponsesArgs,
  ResponsesFunctionCall,
  ResponsesOutput,
  ResponsesOutputMessage,
  ResponsesReasoningItem,
  ResponsesStreamEvent,
  ResponsesUsage,
} from "../../types";
import { newId } from "./ids";
import { grow } from "../../core/body";
import { isRecord } from "../../core/json";

type TextItem = ResponsesOutputMessage | ResponsesReasoningItem;
/** An event before it is numbered. */
type Unnumbered = ResponsesStreamEvent extends infer E
  ? E extends unknown
    ? Omit<E, "sequence_number">
    : never
  : never;

/** A copy of a value made of JSON, so that an event keeps what was true when it was made. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A response's envelope before any output, from the call's arguments. */
export function envelope(args: OneResponsesArgs, model: string, id = newId("resp")): ResponsesOutput {
  return {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "in_progress",
    model,
    output: [],
    output_text: "",
    incomplete_details: null,
    error: null,
    instructions: args.instructions ?? null,
    max_output_tokens: args.max_output_tokens ?? null,
    metadata: args.metadata ?? null,
    temperature: args.temperature ?? 1,
    top_p: args.top_p ?? 1,
    tools: args.tools ?? [],
    tool_choice: args.tool_choice ?? "auto",
    parallel_tool_calls: args.parallel_tool_calls ?? true,
    usage: null,
  };
}

/** Chat's usage in the Responses API's words. */
export function responsesUsage(usage: ChatCompletionUsage | null | undefined): ResponsesUsage | null {
  if (!usage) return null;
  const input = usage.prompt_tokens ?? 0;
  const output = usage.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.total_tokens ?? input + output,
  };
}

/** The text of every message of an output, joined; read as the server sent it: any shape. */
export function outputText(output: readonly unknown[]): string {
  let text = "";
  for (const item of output) {
    if (!isRecord(item) || item.type !== "message" || !Array.isArray(item.content)) continue;
    const parts: unknown[] = item.content;
    for (const part of parts)
      if (isRecord(part) && part.type === "output_text" && typeof part.text === "string") text += part.text;
  }
  return text;
}

export class ResponseWriter {
  /** Events made and not yet taken. */
  readonly events: ResponsesStreamEvent[] = [];
  private sequence = 0;
  private open: TextItem | undefined;
  /** Function calls by the answer's tool-call index; each stays open until the end. */
  private readonly calls = new Map<number, ResponsesFunctionCall>();

  constructor(readonly response: ResponsesOutput) {
    this.emit({ type: "response.created", response: copy(response) });
    this.emit({ type: "response.in_progress", response: copy(response) });
  }

  private emit(event: Unnumbered): void {
    this.events.push({ ...event, sequence_number: this.sequence++ });
  }

  private indexOf(item: ResponsesFunctionCall | TextItem): number {
    return this.response.output.indexOf(item);
  }

  private add(item: ResponsesFunctionCall | TextItem): void {
    this.response.output.push(item);
    this.emit({ type: "response.output_item.added", output_index: this.indexOf(item), item: copy(item) });
  }

  /** The next piece of the answer's text (`kind: "message"`) or thinking (`"reasoning"`). */
  text(kind: TextItem["type"], delta: string): void {
    if (!delta) return;
    let item = this.open;
    if (item?.type !== kind) {
      this.closeText();
      item =
        kind === "message"
          ? { type: "message", id: newId("msg"), role: "assistant", status: "in_progress", content: [] }
          : { type: "reasoning", id: newId("rs"), summary: [], content: [], status: "in_progress" };
      this.add(item);
      this.open = item;
      const part =
        kind === "message"
          ? { type: "output_text" as const, text: "", annotations: [], logprobs: [] }
          : { type: "reasoning_text" as const, text: "" };
      this.emit({
        type: "response.content_part.added",
        item_id: item.id,
        output_index: this.indexOf(item),
        content_index: 0,
        part: copy(part),
      });
      (item.content as (typeof part)[]).push(part);
    }
    const part = item.content![0]!;
    part.text = grow(part.text, delta);
    const type = kind === "message" ? "response.output_text.delta" : "response.reasoning_text.delta";
    this.emit({
      type,
      item_id: item.id,
      output_index: this.indexOf(item),
      content_index: 0,
      delta,
      ...(kind === "message" ? { logprobs: [] } : {}),
    });
  }

  /** The open message or reasoning is done: its whole text, its part, the item. */
  private closeText(): void {
    const item = this.open;
    if (!item) return;
    this.open = undefined;
    const part = item.content![0]!;
    const at = { item_id: item.id, output_index: this.indexOf(item), content_index: 0 };
    const message = item.type === "message";
    this.emit({
      type: message ? "response.output_text.done" : "response.reasoning_text.done",
      ...at,
      text: part.text,
      ...(message ? { logprobs: [] } : {}),
    });
    this.emit({ type: "response.content_part.done", ...at, part: copy(part) });
    item.status = "completed";
    this.emit({ type: "response.output_item.done", output_index: at.output_index, item: copy(item) });
  }

  /** A piece of function call `index`: its id and name (in its first piece), a piece of its arguments. */
  toolCall(index: number, callId: string | undefined, name: string | undefined, delta: string): void {
    let call = this.calls.get(index);
    if (!call) {
      this.closeText();
      call = {
        type: "function_call",
        id: newId("fc"),
        call_id: callId || newId("call"),
        name: name ?? "",
        arguments: "",
        status: "in_progress",
      };
      this.calls.set(index, call);
      this.add(call);
    } else if (name && !call.name) call.name = name;
    if (!delta) return;
    call.arguments = grow(call.arguments, delta);
    this.emit({
      type: "response.function_call_arguments.delta",
      item_id: call.id,
      output_index: this.indexOf(call),
      delta,
    });
  }

  /** The answer ended: every open item done, then `response.completed` (or `response.incomplete` when cut by the token limit). */
  finish(finishReason: string | undefined, usage: ResponsesUsage | null): ResponsesOutput {
    this.closeText();
    for (const call of this.calls.values()) {
      const output_index = this.indexOf(call);
      this.emit({
        type: "response.function_call_arguments.done",
        item_id: call.id,
        output_index,
        arguments: call.arguments,
        name: call.name,
      });
      call.status = "completed";
      this.emit({ type: "response.output_item.done", output_index, item: copy(call) });
    }
    const response = this.response;
    const cut = finishReason === "length";
    response.status = cut ? "incomplete" : "completed";
    if (cut) response.incomplete_details = { reason: "max_output_tokens" };
    response.usage = usage;
    response.output_text = outputText(response.output);
    this.emit({ type: cut ? "response.incomplete" : "response.completed", response: copy(response) });
    return response;
  }
}
