import type { Options, QuestionAnsweringArgs, QuestionAnsweringOutputElement } from "../types";
import { runTask } from "./run";
import { fields, first, isNumber, isString, oneOrMany, shaped } from "../checks/answers";
import { needString, objectBody } from "../checks/inputs";

const TASK = "question-answering";

/** Answers a question from a text that holds the answer. */
export function questionAnswering(
  args: QuestionAnsweringArgs,
  options?: Options,
): Promise<QuestionAnsweringOutputElement> {
  return runTask(
    {
      task: TASK,
      body: (args) =>
        objectBody(
          args,
          (inputs) => (needString(inputs.question, "inputs.question"), needString(inputs.context, "inputs.context")),
        ),
      answer: shaped(
        TASK,
        oneOrMany(fields({ answer: isString, end: isNumber, score: isNumber, start: isNumber })),
        "Array<{answer: string, end: number, score: number, start: number}>",
        first,
      ),
    },
    args,
    options,
  );
}
