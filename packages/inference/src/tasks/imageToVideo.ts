import type { ImageToMediaArgs, Options } from "../types";
import { checkBinary } from "../checks/inputs";
import { providerOnlyTask } from "./providerOnlyTask";

/** Makes a video from an image: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export function imageToVideo(args: ImageToMediaArgs, options: Options = {}): Promise<Blob> {
  return providerOnlyTask("image-to-video", checkBinary, args, options);
}
