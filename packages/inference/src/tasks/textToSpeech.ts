import type { Options, TextToSpeechArgs } from "../types";
import { runTask } from "./runTask";
import { blobAnswer } from "./taskAnswers";
import { textBody } from "./taskInputs";

const TASK = "text-to-speech";

/** Says a text: the audio, as a Blob of the server's media type. */
export function textToSpeech(args: TextToSpeechArgs, options?: Options): Promise<Blob> {
  return runTask({ task: TASK, body: textBody, answer: blobAnswer(TASK) }, args, options);
}
