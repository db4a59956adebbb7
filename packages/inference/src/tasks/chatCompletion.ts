import { wholeTries } from "../targets/endpoints/detect";
import { BACKENDS } from "../targets/endpoints/index";
import { withRetries } from "../core/retry";
import type { ChatCompletionArgs, ChatCompletionOutput, Options } from "../types";
import { asksSchema, oneTarget, prepareChat, spanCall } from "../targets/chat";

/**
 * One chat answer, not streamed: resolves to the whole answer, or rejects with a typed {@link InferenceError}.
 * With a `json_schema` `response_format`, each choice's `message.parsed` is the answer's value, typed `T` from a validator.
 */
export function chatCompletion<T = unknown>(
  args: ChatCompletionArgs<T>,
  options: Options = {},
): Promise<ChatCompletionOutput<T>> {
  const answer = options?.observe
    ? import("../features/observe").then((m) => m.observedWhole("chat", args, options, chatCompletion))
    : asksSchema(args)
      ? import("../features/structured").then((m) => m.structuredWhole(args, options, chatAnswer))
      : chatAnswer(args, options);
  return answer as Promise<ChatCompletionOutput<T>>; // `parsed` holds what the schema's validator gave
}

async function chatAnswer(args: ChatCompletionArgs, options: Options): Promise<ChatCompletionOutput> {
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    try {
      return await (
        await call.until(import("../features/failover"))
      ).failoverWhole(args, options, call, (ctx) => wholeTries(ctx, BACKENDS));
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
