import type { Options, VisualQuestionAnsweringArgs, VisualQuestionAnsweringOutputElement } from "../types";
import { imageQuestionBody } from "./imageQuestion";
import { runTask } from "./run";
import { fields, first, isNumber, isString, listOf, shaped } from "../checks/answers";

const TASK = "visual-question-answering";

/** Answers a question on a picture. */
export function visualQuestionAnswering(
  args: VisualQuestionAnsweringArgs,
  options?: Options,
): Promise<VisualQuestionAnsweringOutputElement> {
  return runTask(
    {
      task: TASK,
      body: imageQuestionBody,
      answer: shaped(
        TASK,
        listOf(fields({ answer: isString, score: isNumber })),
        "Array<{answer: string, score: number}>",
        first,
      ),
    },
    args,
    options,
  );
}
