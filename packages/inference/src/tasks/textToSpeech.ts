import type { Options, TextToSpeechArgs } from "../types";
import { runTask } from "./run";
import { blobAnswer } from "../checks/answers";
import { textBody, checkText } from "../checks/inputs";

const TASK = "text-to-speech";

/** Says a text: the audio, as a Blob of the server's media type. */
export function textToSpeech(args: TextToSpeechArgs, options?: Options): Promise<Blob> {
  return runTask({ task: TASK, check: checkText, body: textBody, answer: blobAnswer(TASK) }, args, options);
}
