import { failoverResponsesStream, prepareResponses, responseStreamTries } from "../targets/responses/serve";
import { withRetries } from "../core/retry";
import type { Options, ResponsesArgs, ResponsesStreamEvent } from "../types";
import { type Opener, StreamIterator } from "../core/streamIterator";
import { oneTarget, spanCall } from "../targets/chat";

/**
 * A response of the OpenAI Responses API streamed as its events (`response.created`, …,
 * `response.output_text.delta`, …, `response.completed`), for `for await`. The stream ends at
 * `response.completed` or `response.incomplete`; `response.failed` and `error` events are thrown as typed
 * errors. Nothing is thrown synchronously: bad input is an InputError from the first `next()`.
 * With `observe`, the same source is tapped by the observer (`targets/observe.ts`, loaded on first use).
 */
export function responsesStream(args: ResponsesArgs, options: Options = {}): AsyncGenerator<ResponsesStreamEvent, undefined, unknown> {
  return new StreamIterator<ResponsesStreamEvent>(
    options?.observe
      ? () => {
          const call = spanCall(args, options);
          return { call, source: import("../targets/observe").then((m) => m.observedResponses(args, options, call, opened)) };
        }
      : () => opened(args, options),
  );
}

const opened = (args: ResponsesArgs, options: Options): ReturnType<Opener<ResponsesStreamEvent>> => {
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    return { call, source: import("../targets/failover").then((engine) => failoverResponsesStream(engine, args, options, call)) };
  }
  const r = prepareResponses(args, options, true);
  return { call: r.call, source: withRetries(r, responseStreamTries(r)) };
};
