import type { Options, TextToAudioArgs } from "../types";
import { runTask } from "./runTask";
import { blobAnswer } from "./taskAnswers";
import { textBody } from "./taskInputs";

const TASK = "text-to-audio";

/** Makes audio (music, sounds) from a text: a Blob of the server's media type. */
export function textToAudio(args: TextToAudioArgs, options?: Options): Promise<Blob> {
  return runTask({ task: TASK, body: textBody, answer: blobAnswer(TASK) }, args, options);
}
