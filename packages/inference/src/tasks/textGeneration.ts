import { serveGeneration } from "../backends/generate";
import { generateParameters, validateGenerateInput } from "../params";
import { taskProvider } from "../router";
import { withRetries } from "../transport/retry";
import type { Options, TextGenerationArgs, TextGenerationOutput } from "../types";
import { checkArgs, prepareGeneration } from "./prepare";
import { runTask, type TaskSpec } from "./runTask";
import { fields, first, isString, oneOrMany, shaped } from "./taskAnswers";

const TASK = "text-generation";

/** On a provider (or `"auto"`): the pair's format; where `"auto"` picks hf-inference, the `generate` body the TGI and pipeline backends send. */
const ON_PROVIDER: TaskSpec<TextGenerationArgs, TextGenerationOutput> = {
  task: TASK,
  body(a) {
    validateGenerateInput(a);
    return { json: { inputs: a.inputs, parameters: { return_full_text: false, ...generateParameters(a.parameters) } } };
  },
  // Made when called, so that an app that only chats does not carry it.
  answer: (value, secret) => shaped(TASK, oneOrMany(fields({ generated_text: isString })), "Array<{generated_text: string}>", first)(value, secret),
};

/**
 * Text continued by the model: TGI's `generate`, or the transformers pipeline (hf-inference, an endpoint, `baseUrl`);
 * on a third-party provider (or `"auto"`), the model's Hub mapping looked up and the provider's completions format sent.
 */
export async function textGeneration(args: TextGenerationArgs, options: Options = {}): Promise<TextGenerationOutput> {
  checkArgs(args, options);
  if (taskProvider(args, options) !== undefined) {
    validateGenerateInput(args); // before the lookup, for "auto" too
    return runTask(ON_PROVIDER, args, options);
  }
  const ctx = prepareGeneration(args, options, false);
  try {
    return (await withRetries(ctx, serveGeneration)) as TextGenerationOutput;
  } finally {
    ctx.call.finish();
  }
}
