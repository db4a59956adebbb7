import { InputError } from "../core/errors";
import type { FeatureExtractionArgs, FeatureExtractionOutput, Options } from "../types";
import { runTask } from "./run";
import { nested, shaped } from "../checks/answers";
import { checkParameters, jsonBody, needStrings } from "../checks/inputs";

const TASK = "feature-extraction";

/** A non-empty text or an array of texts; `parameters`, when given, an object. */
function check(a: FeatureExtractionArgs): void {
  if (typeof a.inputs !== "string") needStrings(a.inputs, "inputs");
  else if (a.inputs === "")
    throw new InputError("`inputs` must be a non-empty string or an array of strings", "inputs");
  checkParameters(a.parameters);
}

/** Embeds a text, or several (for semantic search): the vectors as the model answers them. */
export function featureExtraction(args: FeatureExtractionArgs, options?: Options): Promise<FeatureExtractionOutput> {
  return runTask(
    {
      task: TASK,
      check,
      body: (a) => jsonBody(a),
      answer: shaped(
        TASK,
        (v) => Array.isArray(v) && nested(3)(v),
        "Array<number[][][] | number[][] | number[] | number>",
      ),
    },
    args,
    options,
  );
}
