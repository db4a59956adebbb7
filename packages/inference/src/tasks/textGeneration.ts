import { generationTries } from "../targets/endpoints/generate";
import { generationRoute, prepareGeneration } from "../targets/generation";
import { taskProvider } from "../targets/taskRoutes";
import { withRetries } from "../core/retry";
import type { Options, TextGenerationArgs, TextGenerationCallArgs, TextGenerationOutput } from "../types";
import { checkArgs } from "../checks/params";
import { validateGenerateInput } from "../checks/generation";
import { isRecord } from "../core/json";
import { oneTarget, spanCall } from "../targets/chat";
import type { OneCall } from "../features/failover";
import { once } from "./once";

/**
 * Text continued by the model: TGI's `generate`, or the transformers pipeline (hf-inference, an endpoint, `baseUrl`);
 * on a third-party provider (or `"auto"`), the model's Hub mapping looked up and the provider's completions format sent.
 * With a `provider` list or `fallbackModels`, the candidates are tried in order (`features/failover.ts`, loaded on first use).
 */
export async function textGeneration(
  args: TextGenerationCallArgs,
  options: Options = {},
): Promise<TextGenerationOutput> {
  if (options?.observe)
    return (await import("../features/observe")).observedWhole("text_completion", args, options, textGeneration);
  if (asksGrammar(args)) return (await import("../features/structured")).structuredGeneration(args, options, generated);
  return generated(args, options);
}

/** A JSON grammar: `features/structured.ts` sends its schema as JSON Schema, and parses and checks the answer. */
function asksGrammar(args: TextGenerationCallArgs): boolean {
  const grammar: unknown = isRecord(args?.parameters) ? args.parameters.grammar : undefined;
  return isRecord(grammar) && grammar.type === "json";
}

/** `textGeneration` on a third-party provider: the task core and the provider's format, loaded on first use. */
const onProvider = /* @__PURE__ */ once(() => import("./textGenerationOnProvider"));

async function generated(args: TextGenerationCallArgs, options: Options): Promise<TextGenerationOutput> {
  if (!oneTarget(args, options)) {
    const call = spanCall(args, options);
    try {
      return await (await call.until(import("../features/failover"))).failoverCalls(args, options, call, ONE_TARGET);
    } finally {
      call.finish();
    }
  }
  checkArgs(args, options);
  if (taskProvider(args, options) !== undefined) {
    return (await onProvider()).textGenerationOnProvider(args, options);
  }
  const ctx = prepareGeneration(args, options, false);
  try {
    return await withRetries(ctx, generationTries(ctx));
  } finally {
    ctx.call.finish();
  }
}

/** What a candidate of a `textGeneration` that fails over is: this task's call to one target, its checks made first. */
const ONE_TARGET: OneCall<TextGenerationArgs, TextGenerationOutput> = {
  check: validateGenerateInput,
  route(args, options) {
    const provider = taskProvider(args, options);
    return provider === undefined ? generationRoute(args, options).url : { provider };
  },
  call: generated,
};
