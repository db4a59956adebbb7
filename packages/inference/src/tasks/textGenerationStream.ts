import { generationStreamTries } from "../targets/endpoints/generate";
import { withRetries } from "../core/retry";
import type { Options, TextGenerationArgs, TextGenerationStreamOutput } from "../types";
import { prepareGeneration } from "../targets/generation";
import { StreamIterator } from "../core/streamIterator";

/**
 * TGI's `generate_stream` events as an async iterator. The stream completes at the event whose
 * `generated_text` is a string, even if the server keeps the socket open. A transformers-served
 * model cannot stream: its one answer is yielded as one final event.
 */
export function textGenerationStream(
  args: TextGenerationArgs,
  options: Options = {},
): AsyncGenerator<TextGenerationStreamOutput, undefined, unknown> {
  return new StreamIterator<TextGenerationStreamOutput>(() => {
    const ctx = prepareGeneration(args, options, true);
    return { call: ctx.call, source: withRetries(ctx, generationStreamTries(ctx)) };
  });
}
