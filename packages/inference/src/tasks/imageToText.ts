import type { ImageToTextArgs, ImageToTextOutput, Options } from "../types";
import { runTask } from "./run";
import { fields, first, isString, oneOrMany, shaped } from "../checks/answers";
import { binaryBody, checkBinary } from "../checks/inputs";

const TASK = "image-to-text";

/** Captions an image. */
export function imageToText(args: ImageToTextArgs, options?: Options): Promise<ImageToTextOutput> {
  return runTask(
    {
      task: TASK,
      check: checkBinary,
      body: binaryBody,
      answer: shaped(TASK, oneOrMany(fields({ generated_text: isString })), "{generated_text: string}", first),
    },
    args,
    options,
  );
}
