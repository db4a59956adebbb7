import type { Options, TabularClassificationArgs, TabularClassificationOutput } from "../types";
import { runTask } from "./runTask";
import { arrayOf, isNumber, shaped } from "./taskAnswers";
import { checkTable, objectBody } from "./taskInputs";

const TASK = "tabular-classification";

/** Predicts the label of each row of a table. */
export function tabularClassification(args: TabularClassificationArgs, options?: Options): Promise<TabularClassificationOutput> {
  return runTask({ task: TASK, body: (args) => objectBody(args, (inputs) => checkTable(inputs.data, "inputs.data")), answer: shaped(TASK, arrayOf(isNumber), "Array<number>") }, args, options);
}
