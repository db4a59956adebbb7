import type { Options, TabularRegressionArgs, TabularRegressionOutput } from "../types";
import { runTask } from "./run";
import { arrayOf, isNumber, shaped } from "../checks/answers";
import { checkTable, objectBody } from "../checks/inputs";

const TASK = "tabular-regression";

/** Predicts a value for each row of a table. */
export function tabularRegression(args: TabularRegressionArgs, options?: Options): Promise<TabularRegressionOutput> {
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
