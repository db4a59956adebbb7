import type { ImageToTextArgs, ImageToTextOutput, Options } from "../types";
import { runTask } from "./runTask";
import { fields, first, isString, oneOrMany, shaped } from "./taskAnswers";
import { binaryBody } from "./taskInputs";

const TASK = "image-to-text";

/** Captions an image. */
export function imageToText(args: ImageToTextArgs, options?: Options): Promise<ImageToTextOutput> {
  return runTask({ task: TASK, body: binaryBody, answer: shaped(TASK, oneOrMany(fields({ generated_text: isString })), "{generated_text: string}", first) }, args, options);
}
