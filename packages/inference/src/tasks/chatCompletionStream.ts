import { serve } from "../backends/detect";
import { withRetries } from "../transport/retry";
import type { Source } from "../transport/source";
import type { ChatCompletionArgs, ChatCompletionStreamOutput, Options } from "../types";
import { prepareChat } from "./prepare";
import { StreamIterator } from "./streamIterator";

export { COMPLETION_GRACE_MS, USAGE_GRACE_MS } from "../backends/openai";

/**
 * A streamed chat answer as an async iterator of chunks. Nothing is thrown synchronously: bad input
 * is an InputError from the first `next()`, before any request.
 */
export function chatCompletionStream(
  args: ChatCompletionArgs,
  options: Options = {},
): AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown> {
  return new StreamIterator<ChatCompletionStreamOutput>(() => {
    const ctx = prepareChat(args, options, true);
    return { call: ctx.call, source: withRetries(ctx, serve) as Promise<Source<ChatCompletionStreamOutput>> };
  });
}
