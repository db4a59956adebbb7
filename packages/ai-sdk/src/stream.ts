/** The chunks of `chatCompletionStream` as the AI SDK's stream parts. */
import type { StreamPart } from "./spec/types";
import type { ChatCompletionStreamOutput, ChatCompletionUsage, Served } from "@hfkit/inference";
import { finishReason, responseMetadata, servedMetadata, usageOf } from "./map";

interface ToolCallState {
  id: string;
  name: string;
  input: string;
}

/**
 * Turns chunks into parts: `response-metadata` from the first chunk; `reasoning-start/delta/end` from
 * `delta.reasoning`; `text-start/delta/end` from `delta.content`; `tool-input-start/delta/end` and a
 * `tool-call` per call from `delta.tool_calls` (pieces merged by `index`); `finish` with the usage and
 * the finish reason at the end. Only the first choice is read (the AI SDK asks for one).
 */
export class StreamMapper {
  private metadataSent = false;
  private textOpen = false;
  private reasoningOpen = false;
  private blocks = 0;
  private textId = "";
  private reasoningId = "";
  private readonly toolCalls = new Map<number, ToolCallState>();
  private rawFinish: string | undefined;
  private usage: ChatCompletionUsage | undefined;
  /** The first choice has its finish_reason. */
  finished = false;
  /** A usage chunk arrived. */
  usageSeen = false;
  /** Which candidate answers, when the call fails over (each chunk says; the last one is kept). */
  private served: Served | undefined;

  constructor(
    private readonly includeRaw: boolean,
    private readonly newId: () => string,
  ) {}

  /** The parts one chunk gives. */
  chunk(chunk: ChatCompletionStreamOutput): StreamPart[] {
    const parts: StreamPart[] = [];
    if (this.includeRaw) parts.push({ type: "raw", rawValue: chunk });
    if (!this.metadataSent) {
      this.metadataSent = true;
      parts.push({ type: "response-metadata", ...responseMetadata(chunk) });
    }
    if (chunk.served) this.served = chunk.served;
    if (chunk.usage) {
      this.usage = chunk.usage;
      this.usageSeen = true;
    }
    const choice = chunk.choices.find((c) => (c.index ?? 0) === 0);
    if (!choice) return parts;
    const delta = choice.delta ?? {};
    if (typeof delta.reasoning === "string" && delta.reasoning !== "") {
      this.closeText(parts);
      if (!this.reasoningOpen) {
        this.reasoningOpen = true;
        this.reasoningId = `reasoning-${this.blocks++}`;
        parts.push({ type: "reasoning-start", id: this.reasoningId });
      }
      parts.push({ type: "reasoning-delta", id: this.reasoningId, delta: delta.reasoning });
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      this.closeReasoning(parts);
      if (!this.textOpen) {
        this.textOpen = true;
        this.textId = `text-${this.blocks++}`;
        parts.push({ type: "text-start", id: this.textId });
      }
      parts.push({ type: "text-delta", id: this.textId, delta: delta.content });
    }
    for (const piece of delta.tool_calls ?? []) this.toolCallPiece(piece, parts);
    if (choice.finish_reason) {
      this.rawFinish = choice.finish_reason;
      this.finished = true;
    }
    return parts;
  }

  /** The closing parts: open blocks ended, each tool call whole, then `finish`. */
  end(error?: unknown): StreamPart[] {
    const parts: StreamPart[] = [];
    this.closeReasoning(parts);
    this.closeText(parts);
    for (const call of this.toolCalls.values()) {
      parts.push({ type: "tool-input-end", id: call.id });
      // A call cut by an error is not made: its arguments may be incomplete.
      if (error === undefined)
        parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input.trim() || "{}" });
    }
    if (error !== undefined) parts.push({ type: "error", error });
    const reason =
      error === undefined
        ? finishReason(this.rawFinish, this.toolCalls.size > 0)
        : { unified: "error" as const, raw: this.rawFinish };
    const served = this.served === undefined ? {} : { providerMetadata: { hfkit: servedMetadata(this.served) } };
    parts.push({ type: "finish", usage: usageOf(this.usage), finishReason: reason, ...served });
    return parts;
  }

  private toolCallPiece(
    piece: NonNullable<ChatCompletionStreamOutput["choices"][number]["delta"]["tool_calls"]>[number],
    parts: StreamPart[],
  ): void {
    const index = typeof piece.index === "number" ? piece.index : this.toolCalls.size;
    let call = this.toolCalls.get(index);
    if (!call) {
      this.closeReasoning(parts);
      this.closeText(parts);
      call = { id: piece.id ? String(piece.id) : this.newId(), name: piece.function?.name ?? "", input: "" };
      this.toolCalls.set(index, call);
      parts.push({ type: "tool-input-start", id: call.id, toolName: call.name });
    } else if (!call.name && piece.function?.name) call.name = piece.function.name;
    const args = piece.function?.arguments;
    if (typeof args === "string" && args !== "") {
      call.input += args;
      parts.push({ type: "tool-input-delta", id: call.id, delta: args });
    }
  }

  private closeText(parts: StreamPart[]): void {
    if (!this.textOpen) return;
    this.textOpen = false;
    parts.push({ type: "text-end", id: this.textId });
  }

  private closeReasoning(parts: StreamPart[]): void {
    if (!this.reasoningOpen) return;
    this.reasoningOpen = false;
    parts.push({ type: "reasoning-end", id: this.reasoningId });
  }
}
