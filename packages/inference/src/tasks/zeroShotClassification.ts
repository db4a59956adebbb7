import type { Options, ZeroShotClassificationArgs, ZeroShotClassificationOutput } from "../types";
import { runTask } from "./run";
import { arrayOf, isNumber, isRecord, isString, labelScore, malformed } from "../checks/answers";
import { jsonBody, needObject, needString, needStrings } from "../checks/inputs";

const TASK = "zero-shot-classification";

/** The pipeline's older answer: `{sequence, labels, scores}`, labels and scores in step. */
function legacy(v: unknown): v is { labels: string[]; scores: number[] } {
  if (!isRecord(v)) return false;
  const { labels, scores } = v;
  return (
    Array.isArray(labels) &&
    Array.isArray(scores) &&
    labels.every(isString) &&
    scores.every(isNumber) &&
    labels.length === scores.length
  );
}

/** Picks the labels that fit a text best among `parameters.candidate_labels`, most likely first. */
export function zeroShotClassification(
  args: ZeroShotClassificationArgs,
  options?: Options,
): Promise<ZeroShotClassificationOutput> {
  const body = (a: ZeroShotClassificationArgs) => {
    needString(a.inputs, "inputs");
    needStrings(needObject(a.parameters, "parameters").candidate_labels, "parameters.candidate_labels");
    return jsonBody(a);
  };
  const answer = (value: unknown, secret: string | undefined): ZeroShotClassificationOutput => {
    if (legacy(value)) {
      const { labels, scores } = value;
      return labels.map((label, i) => ({ label, score: scores[i] ?? 0 })); // in step: each label has its score
    }
    if (arrayOf(labelScore)(value)) return value as ZeroShotClassificationOutput;
    throw malformed(TASK, "Array<{label: string, score: number}>", value, secret);
  };
  return runTask({ task: TASK, body, answer }, args, options);
}
