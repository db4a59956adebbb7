import type { AudioClassificationArgs, AudioClassificationOutput, Options } from "../types";
import { runTask } from "./runTask";
import { arrayOf, labelScore, shaped } from "./taskAnswers";
import { binaryBody } from "./taskInputs";

const TASK = "audio-classification";

/** Classifies audio (emotion, speaker, language): the classes, most likely first. */
export function audioClassification(args: AudioClassificationArgs, options?: Options): Promise<AudioClassificationOutput> {
  return runTask({ task: TASK, body: binaryBody, answer: shaped(TASK, arrayOf(labelScore), "Array<{label: string, score: number}>") }, args, options);
}
