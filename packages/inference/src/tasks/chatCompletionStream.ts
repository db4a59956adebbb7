import { streamTries } from "../targets/endpoints/detect";
import { BACKENDS } from "../targets/endpoints/index";
import { withRetries } from "../core/retry";
import type { ChatCompletionArgs, ChatCompletionStreamOutput, Options } from "../types";
import { oneTarget, prepareChat, spanCall } from "../targets/chat";
import { StreamIterator } from "../core/streamIterator";

export { COMPLETION_GRACE_MS, USAGE_GRACE_MS } from "../targets/endpoints/openai";

/**
 * A streamed chat answer as an async iterator of chunks. Nothing is thrown synchronously: bad input
 * is an InputError from the first `next()`, before any request.
 */
export function chatCompletionStream(
  args: ChatCompletionArgs,
  options: Options = {},
): AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown> {
  return new StreamIterator<ChatCompletionStreamOutput>(() => {
    if (!oneTarget(args, options)) {
      const call = spanCall(args, options);
      return { call, source: import("../targets/failover").then((m) => m.failoverStream(args, options, call, (ctx) => streamTries(ctx, BACKENDS))) };
    }
    const ctx = prepareChat(args, options, true);
    return { call: ctx.call, source: withRetries(ctx, streamTries(ctx, BACKENDS)) };
  });
}
