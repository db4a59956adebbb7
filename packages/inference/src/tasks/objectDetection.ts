import type { ObjectDetectionArgs, ObjectDetectionOutput, Options } from "../types";
import { runTask } from "./run";
import { arrayOf, fields, isNumber, isString, shaped } from "../checks/answers";
import { binaryBody, checkBinary } from "../checks/inputs";

const TASK = "object-detection";

/** Finds the objects in an image: each with its label, score and box. */
export function objectDetection(args: ObjectDetectionArgs, options?: Options): Promise<ObjectDetectionOutput> {
  return runTask(
    {
      task: TASK,
      check: checkBinary,
      body: binaryBody,
      answer: shaped(
        TASK,
        arrayOf(
          fields({
            label: isString,
            score: isNumber,
            box: fields({ xmin: isNumber, ymin: isNumber, xmax: isNumber, ymax: isNumber }),
          }),
        ),
        "Array<{label, score, box: {xmin, ymin, xmax, ymax}}>",
      ),
    },
    args,
    options,
  );
}
