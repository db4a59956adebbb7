import type { ImageClassificationArgs, ImageClassificationOutput, Options } from "../types";
import { runTask } from "./run";
import { arrayOf, labelScore, shaped } from "../checks/answers";
import { binaryBody, checkBinary } from "../checks/inputs";

const TASK = "image-classification";

/** Classifies an image: the classes, most likely first. */
export function imageClassification(
  args: ImageClassificationArgs,
  options?: Options,
): Promise<ImageClassificationOutput> {
  return runTask(
    {
      task: TASK,
      check: checkBinary,
      body: binaryBody,
      answer: shaped(TASK, arrayOf(labelScore), "Array<{label: string, score: number}>"),
    },
    args,
    options,
  );
}
