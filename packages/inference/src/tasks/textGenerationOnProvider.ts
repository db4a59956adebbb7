import { generateParameters, validateGenerateInput } from "../checks/generation";
import type { Options, TextGenerationArgs, TextGenerationOutput } from "../types";
import { runTask, type TaskSpec } from "./run";
import { fields, first, isString, oneOrMany, shaped } from "../checks/answers";

const TASK = "text-generation";

/** On a provider (or `"auto"`): the pair's format; where `"auto"` picks hf-inference, the `generate` body the TGI and pipeline backends send. */
const ON_PROVIDER: TaskSpec<TextGenerationArgs, TextGenerationOutput> = {
  task: TASK,
  body(a) {
    validateGenerateInput(a);
    return { json: { inputs: a.inputs, parameters: { return_full_text: false, ...generateParameters(a.parameters) } } };
  },
  // Made when called, so that an app that only chats does not carry it.
  answer: (value, secret) =>
    shaped(
      TASK,
      oneOrMany(fields({ generated_text: isString })),
      "Array<{generated_text: string}>",
      first,
    )(value, secret),
};

/** `textGeneration` on a third-party provider (or `"auto"`): the model's Hub mapping looked up, the provider's format sent. */
export function textGenerationOnProvider(args: TextGenerationArgs, options: Options): Promise<TextGenerationOutput> {
  validateGenerateInput(args); // before the lookup, for "auto" too
  return runTask(ON_PROVIDER, args, options);
}
