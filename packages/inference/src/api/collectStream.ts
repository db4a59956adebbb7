import { StreamCollector } from "../core/collect";
import type { ChatCompletionOutput, ChatCompletionStreamOutput } from "../types";

/** Assembles a stream into one ChatCompletionOutput: content and reasoning joined, tool calls merged by index, usage kept. */
export async function collectStream(stream: AsyncIterable<ChatCompletionStreamOutput>): Promise<ChatCompletionOutput> {
  const collector = new StreamCollector();
  for await (const chunk of stream) collector.add(chunk);
  return collector.answer();
}
