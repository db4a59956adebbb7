import { streamTries } from "../targets/endpoints/detect";
import { BACKENDS } from "../targets/endpoints/index";
import { withRetries } from "../core/retry";
import type { ChatCompletionArgs, ChatCompletionStreamOutput, Options } from "../types";
import { asksSchema, oneTarget, prepareChat, spanCall } from "../targets/chat";
import { type Opener, StreamIterator } from "../core/streamIterator";

export { COMPLETION_GRACE_MS, USAGE_GRACE_MS } from "../targets/endpoints/openai";

type Chunks<T = unknown> = AsyncGenerator<ChatCompletionStreamOutput<T>, undefined, unknown>;

/**
 * A streamed chat answer as an async iterator of chunks. Nothing is thrown synchronously: bad input
 * is an InputError from the first `next()`, before any request. With a `json_schema` `response_format`, each
 * choice's `partial` is the value so far and its last chunk's `parsed` the value, typed `T` from a validator.
 */
export function chatCompletionStream<T = unknown>(
  args: ChatCompletionArgs<T>,
  options: Options = {},
): AsyncGenerator<ChatCompletionStreamOutput<T>, undefined, unknown> {
  return (asksSchema(args) ? structured(args, options) : chunks(args, options)) as Chunks<T>; // `parsed` holds what the schema's validator gave
}

async function* structured(args: ChatCompletionArgs, options: Options): Chunks {
  return yield* (await import("../features/structured")).structuredStream(args, options, chunks);
}

/** The chunks; with `observe`, the same source tapped by the observer (`features/observe.ts`, loaded on first use). */
const chunks = (args: ChatCompletionArgs, options: Options): Chunks =>
  new StreamIterator<ChatCompletionStreamOutput>(
    options?.observe
      ? () => {
          const call = spanCall(args, options);
          return {
            call,
            source: import("../features/observe").then((m) => m.observedChat(args, options, call, opened)),
          };
        }
      : () => opened(args, options),
  );

const opened = (args: ChatCompletionArgs, options: Options): ReturnType<Opener<ChatCompletionStreamOutput>> => {
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    return {
      call,
      source: import("../features/failover").then((m) =>
        m.failoverStream(args, options, call, (ctx) => streamTries(ctx, BACKENDS)),
      ),
    };
  }
  const ctx = prepareChat(args, options, true);
  return { call: ctx.call, source: withRetries(ctx, streamTries(ctx, BACKENDS)) };
};
