import { failoverResponsesStream, prepareResponses, responseStreamTries } from "../targets/responses/serve";
import { withRetries } from "../core/retry";
import type { Options, ResponsesArgs, ResponsesStreamEvent } from "../types";
import { StreamIterator } from "../core/streamIterator";
import { oneTarget, spanCall } from "../targets/chat";

/**
 * A response of the OpenAI Responses API streamed as its events (`response.created`, …,
 * `response.output_text.delta`, …, `response.completed`), for `for await`. The stream ends at
 * `response.completed` or `response.incomplete`; `response.failed` and `error` events are thrown as typed
 * errors. Nothing is thrown synchronously: bad input is an InputError from the first `next()`.
 */
export function responsesStream(args: ResponsesArgs, options: Options = {}): AsyncGenerator<ResponsesStreamEvent, undefined, unknown> {
  if (options?.observe) return observed(args, options);
  return new StreamIterator<ResponsesStreamEvent>(() => {
    if (!oneTarget(args, options)) {
      const call = spanCall(args, options);
      return { call, source: import("../targets/failover").then((engine) => failoverResponsesStream(engine, args, options, call)) };
    }
    const r = prepareResponses(args, options, true);
    return { call: r.call, source: withRetries(r, responseStreamTries(r)) };
  });
}

async function* observed(args: ResponsesArgs, options: Options): AsyncGenerator<ResponsesStreamEvent, undefined, unknown> {
  return yield* (await import("../targets/observe")).observedResponses(args, options, responsesStream);
}
