import type { ImageToMediaArgs, Options } from "../types";
import { unsupportedTask } from "./unsupportedTask";

/** Makes a video from an image and a prompt: served only by third-party providers, so here always an InputError (nothing is sent). */
export function imageTextToVideo(args: ImageToMediaArgs, options: Options = {}): Promise<Blob> {
  return unsupportedTask("image-text-to-video", args, options);
}
