/** A chat answer (whole, or a stream of chunks) as a response and its Responses stream events. */
import { outputToChunks } from "../endpoints/openai";
import type { InferenceError } from "../../core/errors";
import type { Source } from "../../core/source";
import type {
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  ChatCompletionUsage,
  ResponsesOutput,
  ResponsesStreamEvent,
} from "../../types";
import { ResponseWriter, responsesUsage } from "./writer";

/** What the chunks said so far: the first choice's finish reason, the usage. */
interface Ending {
  reason?: string;
  usage?: ChatCompletionUsage | null;
}

/** One chunk's first choice into the writer: thinking, text, tool-call pieces. */
function feed(writer: ResponseWriter, chunk: ChatCompletionStreamOutput, ending: Ending): void {
  if (chunk.usage) ending.usage = chunk.usage;
  const choice = chunk.choices.find((c) => (c.index ?? 0) === 0);
  if (!choice) return;
  const delta = choice.delta;
  if (typeof delta.reasoning === "string") writer.text("reasoning", delta.reasoning);
  if (typeof delta.content === "string") writer.text("message", delta.content);
  delta.tool_calls?.forEach((call, i) => {
    // Read as the server sent it: a piece may lack the function or its arguments.
    const fn: { name?: string | null; arguments?: unknown } | undefined = call.function;
    const args = typeof fn?.arguments === "string" ? fn.arguments : "";
    writer.toolCall(call.index ?? i, call.id || undefined, fn?.name ?? undefined, args);
  });
  if (choice.finish_reason) ending.reason = choice.finish_reason;
}

/** A whole chat answer as a response. */
export function responseFromChat(output: ChatCompletionOutput, writer: ResponseWriter): ResponsesOutput {
  const ending: Ending = {};
  for (const chunk of outputToChunks(output)) feed(writer, chunk, ending);
  return writer.finish(ending.reason, responsesUsage(ending.usage ?? output.usage));
}

/**
 * A chat stream's source as a source of Responses events: each chunk read becomes its events, and the
 * chat stream's end the closing events and `response.completed`. A chat stream that fails ends this
 * one with its error, after the events already made.
 */
export class ChatEventsSource implements Source<ResponsesStreamEvent> {
  private readonly ending: Ending = {};
  private finished = false;

  constructor(
    private readonly chat: Source<ChatCompletionStreamOutput>,
    private readonly writer: ResponseWriter,
  ) {}

  poll(): ResponsesStreamEvent | undefined {
    const { chat, writer } = this;
    for (;;) {
      const event = writer.events.shift();
      if (event || this.finished) return event;
      const chunk = chat.poll();
      if (chunk !== undefined) feed(writer, chunk, this.ending);
      else if (chat.ended && !chat.failure()) {
        this.finished = true;
        writer.finish(this.ending.reason, responsesUsage(this.ending.usage));
      } else return undefined;
    }
  }

  get ended(): boolean {
    return this.writer.events.length === 0 && (this.finished || (this.chat.ended && this.chat.failure() !== undefined));
  }

  failure(): InferenceError | undefined {
    return this.chat.failure();
  }

  pull<R>(then: () => R | Promise<R>): Promise<R> {
    return this.chat.ended ? Promise.resolve().then(then) : this.chat.pull(then);
  }

  close(): void {
    this.chat.close();
  }
}
