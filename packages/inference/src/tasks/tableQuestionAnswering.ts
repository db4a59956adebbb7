import type { Options, TableQuestionAnsweringArgs, TableQuestionAnsweringOutputElement } from "../types";
import { runTask } from "./run";
import { arrayOf, fields, first, isNumber, isString, oneOrMany, shaped } from "../checks/answers";
import { checkTable, needString, objectBody } from "../checks/inputs";

const TASK = "table-question-answering";

/** Answers a question on a table. */
export function tableQuestionAnswering(
  args: TableQuestionAnsweringArgs,
  options?: Options,
): Promise<TableQuestionAnsweringOutputElement> {
  return runTask(
    {
      task: TASK,
      body: (args) =>
        objectBody(
          args,
          (inputs) => (needString(inputs.question, "inputs.question"), checkTable(inputs.table, "inputs.table")),
        ),
      answer: shaped(
        TASK,
        oneOrMany(
          fields({
            aggregator: isString,
            answer: isString,
            cells: arrayOf(isString),
            coordinates: arrayOf(arrayOf(isNumber)),
          }),
        ),
        "{aggregator: string, answer: string, cells: string[], coordinates: number[][]}",
        first,
      ),
    },
    args,
    options,
  );
}
