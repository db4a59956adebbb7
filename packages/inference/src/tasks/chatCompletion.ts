import { wholeTries } from "../targets/endpoints/detect";
import { BACKENDS } from "../targets/endpoints/index";
import { withRetries } from "../core/retry";
import type { ChatCompletionArgs, ChatCompletionOutput, Options } from "../types";
import { oneTarget, prepareChat, spanCall } from "../targets/chat";

/** One chat answer, not streamed: resolves to the whole answer, or rejects with a typed {@link InferenceError}. */
export async function chatCompletion(args: ChatCompletionArgs, options: Options = {}): Promise<ChatCompletionOutput> {
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    try {
      return await (await call.until(import("../targets/failover"))).failoverWhole(args, options, call, (ctx) => wholeTries(ctx, BACKENDS));
    } finally {
      call.finish();
    }
  }
  const ctx = prepareChat(args, options, false);
  try {
    return await withRetries(ctx, wholeTries(ctx, BACKENDS));
  } finally {
    ctx.call.finish();
  }
}
