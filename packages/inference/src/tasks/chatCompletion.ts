import { serve } from "../targets/endpoints/detect";
import { withRetries } from "../core/retry";
import type { ChatCompletionArgs, ChatCompletionOutput, Options } from "../types";
import { prepareChat } from "../targets/chat";

/** One chat answer, not streamed: resolves to the whole answer, or rejects with a typed {@link InferenceError}. */
export async function chatCompletion(args: ChatCompletionArgs, options: Options = {}): Promise<ChatCompletionOutput> {
  const ctx = prepareChat(args, options, false);
  try {
    return (await withRetries(ctx, serve)) as ChatCompletionOutput;
  } finally {
    ctx.call.finish();
  }
}
