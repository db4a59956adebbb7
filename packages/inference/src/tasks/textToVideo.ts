import type { TextToVideoArgs, Options } from "../types";
import { checkText } from "../checks/inputs";
import { providerOnlyTask } from "./providerOnlyTask";

/** Makes a video from a prompt: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export function textToVideo(args: TextToVideoArgs, options: Options = {}): Promise<Blob> {
  return providerOnlyTask("text-to-video", checkText, args, options);
}
