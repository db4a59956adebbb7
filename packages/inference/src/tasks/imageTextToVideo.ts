import type { ImageToMediaArgs, Options } from "../types";
import { checkOptionalImage } from "../checks/inputs";
import { providerOnlyTask } from "./providerOnlyTask";

/** Makes a video from an image and a prompt: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export function imageTextToVideo(args: ImageToMediaArgs, options: Options = {}): Promise<Blob> {
  return providerOnlyTask("image-text-to-video", checkOptionalImage, args, options);
}
