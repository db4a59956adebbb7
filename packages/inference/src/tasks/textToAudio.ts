import type { Options, TextToAudioArgs } from "../types";
import { runTask } from "./run";
import { blobAnswer } from "../checks/answers";
import { textBody, checkText } from "../checks/inputs";

const TASK = "text-to-audio";

/** Makes audio (music, sounds) from a text: a Blob of the server's media type. */
export function textToAudio(args: TextToAudioArgs, options?: Options): Promise<Blob> {
  return runTask({ task: TASK, check: checkText, body: textBody, answer: blobAnswer(TASK) }, args, options);
}
