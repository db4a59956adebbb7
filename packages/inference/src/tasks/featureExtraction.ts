import { InputError } from "../errors";
import type { FeatureExtractionArgs, FeatureExtractionOutput, Options } from "../types";
import { runTask } from "./runTask";
import { nested, shaped } from "./taskAnswers";
import { checkParameters, jsonBody, needStrings } from "./taskInputs";

const TASK = "feature-extraction";

/** Embeds a text, or several (for semantic search): the vectors as the model answers them. */
export function featureExtraction(args: FeatureExtractionArgs, options?: Options): Promise<FeatureExtractionOutput> {
  const body = (a: FeatureExtractionArgs) => {
    if (typeof a.inputs !== "string") needStrings(a.inputs, "inputs");
    else if (a.inputs === "") throw new InputError("`inputs` must be a non-empty string or an array of strings", "inputs");
    checkParameters(a.parameters);
    return jsonBody(a);
  };
  return runTask({ task: TASK, body, answer: shaped(TASK, (v) => Array.isArray(v) && nested(3)(v), "Array<number[][][] | number[][] | number[] | number>") }, args, options);
}
