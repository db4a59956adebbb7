import { serve } from "../backends/detect";
import { GENERATE_BACKENDS } from "../backends/generate";
import { withRetries } from "../transport/retry";
import type { Options, TextGenerationArgs, TextGenerationOutput } from "../types";
import { prepareGeneration } from "./prepare";

/** Text continued by the model: TGI's `generate`, or the transformers pipeline. */
export async function textGeneration(args: TextGenerationArgs, options: Options = {}): Promise<TextGenerationOutput> {
  const ctx = prepareGeneration(args, options, false);
  try {
    return (await withRetries(ctx.call, ctx.policy, () => serve(ctx, GENERATE_BACKENDS))) as TextGenerationOutput;
  } finally {
    ctx.call.finish();
  }
}
