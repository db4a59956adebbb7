import type { ChatCompletionOutput, ChatCompletionStreamOutput } from "../types";

/**
 * Assembles a stream into one ChatCompletionOutput: content and reasoning joined, tool calls merged by index, usage
 * kept. The collector is loaded on the first call (the tool runner's module shares it).
 */
export async function collectStream(stream: AsyncIterable<ChatCompletionStreamOutput>): Promise<ChatCompletionOutput> {
  const collector = new (await import("../core/collect")).StreamCollector();
  for await (const chunk of stream) collector.add(chunk);
  return collector.answer();
}
