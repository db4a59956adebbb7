import type { TextToVideoArgs, Options } from "../types";
import { unsupportedTask } from "./unsupportedTask";

/** Makes a video from a prompt: served only by third-party providers, so here always an InputError (nothing is sent). */
export function textToVideo(args: TextToVideoArgs, options: Options = {}): Promise<Blob> {
  return unsupportedTask("text-to-video", args, options);
}
