import type { AudioClassificationArgs, AudioClassificationOutput, Options } from "../types";
import { runTask } from "./run";
import { arrayOf, labelScore, shaped } from "../checks/answers";
import { binaryBody, checkBinary } from "../checks/inputs";

const TASK = "audio-classification";

/** Classifies audio (emotion, speaker, language): the classes, most likely first. */
export function audioClassification(
  args: AudioClassificationArgs,
  options?: Options,
): Promise<AudioClassificationOutput> {
  return runTask(
    {
      task: TASK,
      check: checkBinary,
      body: binaryBody,
      answer: shaped(TASK, arrayOf(labelScore), "Array<{label: string, score: number}>"),
    },
    args,
    options,
  );
}
