import type { ImageToImageArgs, Options } from "../types";
import { runTask } from "./run";
import { blobAnswer } from "../checks/answers";
import { base64Of, binaryBody, checkBinary, checkParameters, jsonBody } from "../checks/inputs";

const TASK = "image-to-image";

/** An image from an image (and a prompt in `parameters`): the image alone is the body; with parameters, JSON with the image base64-encoded. */
export function imageToImage(args: ImageToImageArgs, options?: Options): Promise<Blob> {
  const body = async (a: ImageToImageArgs) => {
    if (checkParameters(a.parameters) === undefined) return binaryBody(a);
    return jsonBody(a, { inputs: await base64Of(a.inputs, "inputs") });
  };
  return runTask({ task: TASK, check: checkBinary, body, answer: blobAnswer(TASK) }, args, options);
}
