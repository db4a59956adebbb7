import { failoverResponses, prepareResponses, responseTries } from "../targets/responses/serve";
import { withRetries } from "../core/retry";
import { oneTarget, spanCall } from "../targets/chat";
import type { Options, ResponsesArgs, ResponsesOutput } from "../types";

/**
 * One response of the OpenAI Responses API, not streamed: served natively where the server has the API
 * (the HF router, vLLM), else over chat completions (TGI, the transformers pipeline) and made a response.
 * Rejects with a typed {@link InferenceError}; bad input is an InputError before any request.
 */
export async function responses(args: ResponsesArgs, options: Options = {}): Promise<ResponsesOutput> {
  if (options?.observe) return (await import("../targets/observe")).observedWhole("chat", args, options, responses);
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    try {
      return await failoverResponses(await call.until(import("../targets/failover")), args, options, call);
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
