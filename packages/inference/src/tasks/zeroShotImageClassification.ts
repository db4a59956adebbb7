import type { Options, ZeroShotImageClassificationArgs, ZeroShotImageClassificationOutput } from "../types";
import { runTask } from "./run";
import { arrayOf, labelScore, shaped } from "../checks/answers";
import { base64Of, jsonBody, needObject, needStrings } from "../checks/inputs";

const TASK = "zero-shot-image-classification";

/** Picks the labels that fit an image best among `parameters.candidate_labels`. The image goes base64 in JSON as `inputs.image`. */
export function zeroShotImageClassification(
  args: ZeroShotImageClassificationArgs,
  options?: Options,
): Promise<ZeroShotImageClassificationOutput> {
  const body = async (a: ZeroShotImageClassificationArgs) => {
    needStrings(needObject(a.parameters, "parameters").candidate_labels, "parameters.candidate_labels");
    const inputs = a.inputs;
    const legacy = typeof inputs === "object" && inputs !== null && "image" in inputs;
    const image = await base64Of(legacy ? inputs.image : inputs, legacy ? "inputs.image" : "inputs");
    return jsonBody(a, { inputs: { image } });
  };
  return runTask(
    { task: TASK, body, answer: shaped(TASK, arrayOf(labelScore), "Array<{label: string, score: number}>") },
    args,
    options,
  );
}
