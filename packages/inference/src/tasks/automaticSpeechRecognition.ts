import type { AutomaticSpeechRecognitionArgs, AutomaticSpeechRecognitionOutput, Options } from "../types";
import { runTask } from "./run";
import { fields, isString, shaped } from "../checks/answers";
import { binaryBody, checkAudio } from "../checks/inputs";

const TASK = "automatic-speech-recognition";

/** Transcribes speech: the text heard. */
export function automaticSpeechRecognition(
  args: AutomaticSpeechRecognitionArgs,
  options?: Options,
): Promise<AutomaticSpeechRecognitionOutput> {
  return runTask(
    {
      task: TASK,
      check: checkAudio,
      body: binaryBody,
      answer: shaped(TASK, fields({ text: isString }), "{text: string}"),
    },
    args,
    options,
  );
}
