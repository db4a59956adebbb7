import { prepareResponses, responsesForm, responseStreamTries } from "../targets/responses/serve";
import { withRetries } from "../core/retry";
import type { Options, ResponsesArgs, ResponsesStreamEvent } from "../types";
import { type Opener, StreamIterator } from "../core/streamIterator";
import { type ChatContext, oneTarget, spanCall } from "../targets/chat";

/**
 * A response of the OpenAI Responses API streamed as its events (`response.created`, …,
 * `response.output_text.delta`, …, `response.completed`), for `for await`. The stream ends at
 * `response.completed` or `response.incomplete`; `response.failed` and `error` events are thrown as typed
 * errors. Nothing is thrown synchronously: bad input is an InputError from the first `next()`.
 * With `observe`, the same source is tapped by the observer (`features/observe.ts`, loaded on first use).
 */
export function responsesStream(
  args: ResponsesArgs,
  options: Options = {},
): AsyncGenerator<ResponsesStreamEvent, undefined, unknown> {
  return new StreamIterator<ResponsesStreamEvent>(
    options?.observe
      ? () => {
          const call = spanCall(args, options);
          return {
            call,
            source: import("../features/observe").then((m) => m.observedResponses(args, options, call, opened)),
          };
        }
      : () => opened(args, options),
  );
}

const opened = (args: ResponsesArgs, options: Options): ReturnType<Opener<ResponsesStreamEvent>> => {
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    // Each candidate served as a Responses call by the failover (which imports nothing of the Responses API); each
    // event's `response` says who served it.
    const source = import("../features/failover").then((engine) => {
      const { one, chat } = responsesForm(args, true);
      const tries = (ctx: ChatContext) =>
        responseStreamTries({ call: ctx.call, policy: ctx.policy, chat: ctx, args: one });
      return engine.failoverSource(chat, options, call, tries, (events, served, _price, end) =>
        engine.tapped(events, (event) => "response" in event && (event.response.served = served), end),
      );
    });
    return { call, source };
  }
  const r = prepareResponses(args, options, true);
  return { call: r.call, source: withRetries(r, responseStreamTries(r)) };
};
