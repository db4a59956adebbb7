import type { AutomaticSpeechRecognitionArgs, AutomaticSpeechRecognitionOutput, Options } from "../types";
import { runTask } from "./runTask";
import { fields, isString, shaped } from "./taskAnswers";
import { binaryBody } from "./taskInputs";

const TASK = "automatic-speech-recognition";

/** Transcribes speech: the text heard. */
export function automaticSpeechRecognition(args: AutomaticSpeechRecognitionArgs, options?: Options): Promise<AutomaticSpeechRecognitionOutput> {
  return runTask({ task: TASK, body: binaryBody, answer: shaped(TASK, fields({ text: isString }), "{text: string}") }, args, options);
}
