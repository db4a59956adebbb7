import { InputError } from "../errors";
import type { BaseArgs, Options } from "../types";
import { checkArgs } from "./prepare";

/**
 * The tasks no hf-inference model serves (`@huggingface/inference` 4.13 also refuses them there and on
 * endpoints): an InputError, nothing sent, naming who serves them.
 */
export function unsupportedTask(task: string, args: BaseArgs, options: Options): Promise<never> {
  try {
    checkArgs(args, options);
  } catch (error) {
    return Promise.reject(error);
  }
  const provider = args.provider ?? options.provider ?? "hf-inference";
  const where = (args.endpointUrl ?? options.endpointUrl) !== undefined ? "a dedicated endpoint" : `provider '${provider}'`;
  const message = `Task '${task}' is not supported on ${where}: no hf-inference model serves it, and hfkit (like @huggingface/inference 4.13, which runs it only on third-party providers such as fal-ai, novita, replicate, wavespeed) sends it nowhere else; use @huggingface/inference for those providers`;
  return Promise.reject(new InputError(message, "provider"));
}
