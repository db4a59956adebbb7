import type { ImageClassificationArgs, ImageClassificationOutput, Options } from "../types";
import { runTask } from "./runTask";
import { arrayOf, labelScore, shaped } from "./taskAnswers";
import { binaryBody } from "./taskInputs";

const TASK = "image-classification";

/** Classifies an image: the classes, most likely first. */
export function imageClassification(args: ImageClassificationArgs, options?: Options): Promise<ImageClassificationOutput> {
  return runTask({ task: TASK, body: binaryBody, answer: shaped(TASK, arrayOf(labelScore), "Array<{label: string, score: number}>") }, args, options);
}
