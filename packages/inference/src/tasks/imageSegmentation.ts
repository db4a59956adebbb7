import type { ImageSegmentationArgs, ImageSegmentationOutput, Options } from "../types";
import { runTask } from "./run";
import { arrayOf, fields, isNumber, isString, optional, shaped } from "../checks/answers";
import { base64Of, checkBinary, jsonBody } from "../checks/inputs";

const TASK = "image-segmentation";

/** Splits an image into labelled segments, each with its mask (a base64 PNG). The image goes base64 in JSON, with the parameters. */
export function imageSegmentation(args: ImageSegmentationArgs, options?: Options): Promise<ImageSegmentationOutput> {
  const body = async (a: ImageSegmentationArgs) => jsonBody(a, { inputs: await base64Of(a.inputs, "inputs") });
  const answer = shaped<ImageSegmentationOutput>(
    TASK,
    arrayOf(fields({ label: isString, mask: isString, score: optional(isNumber) })),
    "Array<{label: string, mask: string, score: number}>",
  );
  return runTask({ task: TASK, check: checkBinary, body, answer }, args, options);
}
