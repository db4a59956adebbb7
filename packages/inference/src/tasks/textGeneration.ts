import { serveGeneration } from "../backends/generate";
import { withRetries } from "../transport/retry";
import type { Options, TextGenerationArgs, TextGenerationOutput } from "../types";
import { prepareGeneration } from "./prepare";

/** Text continued by the model: TGI's `generate`, or the transformers pipeline. */
export async function textGeneration(args: TextGenerationArgs, options: Options = {}): Promise<TextGenerationOutput> {
  const ctx = prepareGeneration(args, options, false);
  try {
    return (await withRetries(ctx, serveGeneration)) as TextGenerationOutput;
  } finally {
    ctx.call.finish();
  }
}
