import { prepareResponses, responsesForm, responseTries } from "../targets/responses/serve";
import { withRetries } from "../core/retry";
import { oneTarget, spanCall } from "../targets/chat";
import type { Options, ResponsesArgs, ResponsesOutput } from "../types";

/**
 * One response of the OpenAI Responses API, not streamed: served natively where the server has the API
 * (the HF router, vLLM), else over chat completions (TGI, the transformers pipeline) and made a response.
 * Rejects with a typed {@link InferenceError}; bad input is an InputError before any request.
 */
export async function responses(args: ResponsesArgs, options: Options = {}): Promise<ResponsesOutput> {
  if (options?.observe) return (await import("../features/observe")).observedWhole("chat", args, options, responses);
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    try {
      // Each candidate served as a Responses call (natively on the router, else over chat) by the failover, which
      // imports nothing of the Responses API: an app that only chats never carries it.
      const { one, chat } = responsesForm(args, false);
      const engine = await call.until(import("../features/failover"));
      return await engine.failover(
        chat,
        options,
        call,
        (ctx) => responseTries({ call: ctx.call, policy: ctx.policy, chat: ctx, args: one }),
        (response, served, _price, end) => {
          end();
          response.served = served;
          return response;
        },
      );
    } finally {
      call.finish();
    }
  }
  const r = prepareResponses(args, options, false);
  try {
    return await withRetries(r, responseTries(r));
  } finally {
    r.call.finish();
  }
}
