import type { ImageToMediaArgs, Options } from "../types";
import { unsupportedTask } from "./unsupportedTask";

/** Makes a video from an image: served only by third-party providers, so here always an InputError (nothing is sent). */
export function imageToVideo(args: ImageToMediaArgs, options: Options = {}): Promise<Blob> {
  return unsupportedTask("image-to-video", args, options);
}
