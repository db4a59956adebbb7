import { InputError } from "../core/errors";
import type { BaseArgs, Options } from "../types";
import { runTask } from "./run";
import { taskProvider } from "../targets/taskRoutes";
import { blobAnswer } from "../checks/answers";

/**
 * The tasks no hf-inference model serves (`@huggingface/inference` 4.13 also refuses them there and on
 * endpoints): run on the third-party providers that serve them; on hf-inference and on an endpoint an
 * InputError, nothing sent, naming who serves them.
 */
export function providerOnlyTask<A extends BaseArgs>(
  task: string,
  checkInput: (args: A) => void,
  args: A,
  options: Options = {},
): Promise<Blob> {
  const refuse = (a: A, o: Options): never => {
    const where =
      (a.endpointUrl ?? o.endpointUrl) !== undefined
        ? "a dedicated endpoint"
        : `provider '${a.provider ?? o.provider ?? "hf-inference"}'`;
    throw new InputError(
      `Task '${task}' is not supported on ${where}: no hf-inference model serves it (as in @huggingface/inference 4.13); pass the \`provider\` that serves the model for it (such as fal-ai, novita, replicate, together, wavespeed) or "auto"`,
      "provider",
    );
  };
  // Where no target serves the task, that is said first (before what is wrong with the input).
  const check = (a: A, o: Options): void => {
    if (taskProvider(a, o) === undefined) refuse(a, o);
    checkInput(a);
  };
  return runTask({ task, check, body: refuse, answer: blobAnswer(task) }, args, options);
}
