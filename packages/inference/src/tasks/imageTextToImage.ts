import type { ImageToMediaArgs, Options } from "../types";
import { checkOptionalImage } from "../checks/inputs";
import { providerOnlyTask } from "./providerOnlyTask";

/** Makes an image from an image and a prompt: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export function imageTextToImage(args: ImageToMediaArgs, options: Options = {}): Promise<Blob> {
  return providerOnlyTask("image-text-to-image", checkOptionalImage, args, options);
}
