import type { Options, TabularClassificationArgs, TabularClassificationOutput } from "../types";
import { runTask } from "./run";
import { arrayOf, isNumber, shaped } from "../checks/answers";
import { checkTable, objectBody } from "../checks/inputs";

const TASK = "tabular-classification";

/** Predicts the label of each row of a table. */
export function tabularClassification(
  args: TabularClassificationArgs,
  options?: Options,
): Promise<TabularClassificationOutput> {
  return runTask(
    {
      task: TASK,
      body: (args) => objectBody(args, (inputs) => checkTable(inputs.data, "inputs.data")),
      answer: shaped(TASK, arrayOf(isNumber), "Array<number>"),
    },
    args,
    options,
  );
}
