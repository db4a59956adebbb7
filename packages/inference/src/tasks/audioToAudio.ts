import type { AudioToAudioArgs, AudioToAudioOutput, Options } from "../types";
import { runTask } from "./run";
import { arrayOf, fields, isString, shaped } from "../checks/answers";
import { binaryBody, checkBinary } from "../checks/inputs";

const TASK = "audio-to-audio";

/** Audio in, audio out (source separation, enhancement): each audio base64-encoded with its label and type. */
export function audioToAudio(args: AudioToAudioArgs, options?: Options): Promise<AudioToAudioOutput[]> {
  return runTask(
    {
      task: TASK,
      check: checkBinary,
      body: binaryBody,
      answer: shaped(
        TASK,
        arrayOf(fields({ label: isString, "content-type": isString, blob: isString })),
        "Array<{label: string, content-type: string, blob: string}>",
      ),
    },
    args,
    options,
  );
}
