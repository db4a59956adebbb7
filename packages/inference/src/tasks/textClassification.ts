import type { Options, TextClassificationArgs, TextClassificationOutput } from "../types";
import { runTask } from "./run";
import { arrayOf, first, labelScore, shaped } from "../checks/answers";
import { textBody } from "../checks/inputs";

const TASK = "text-classification";

/** Classifies a text (sentiment, topic): the classes, most likely first. */
export function textClassification(args: TextClassificationArgs, options?: Options): Promise<TextClassificationOutput> {
  return runTask(
    {
      task: TASK,
      body: textBody,
      answer: shaped(
        TASK,
        (v) => Array.isArray(v) && arrayOf(labelScore)(v[0]),
        "[Array<{label: string, score: number}>]",
        first,
      ),
    },
    args,
    options,
  );
}
