import { generationTries } from "../targets/endpoints/generate";
import { taskProvider } from "../targets/routes";
import { withRetries } from "../core/retry";
import type { Options, TextGenerationArgs, TextGenerationOutput } from "../types";
import { checkArgs } from "../checks/params";
import { prepareGeneration } from "../targets/chat";
// From the tasks' module: loaded on first use in the Node build (see eager.ts).
import { textGenerationOnProvider } from "./eager";

/**
 * Text continued by the model: TGI's `generate`, or the transformers pipeline (hf-inference, an endpoint, `baseUrl`);
 * on a third-party provider (or `"auto"`), the model's Hub mapping looked up and the provider's completions format sent.
 */
export async function textGeneration(args: TextGenerationArgs, options: Options = {}): Promise<TextGenerationOutput> {
  checkArgs(args, options);
  if (taskProvider(args, options) !== undefined) {
    return textGenerationOnProvider(args, options);
  }
  const ctx = prepareGeneration(args, options, false);
  try {
    return await withRetries(ctx, generationTries(ctx));
  } finally {
    ctx.call.finish();
  }
}
