/** The (provider, task) pairs served through the HF router, each with its provider's format. */
import type { ProviderTask } from "./helper";
import * as fal from "./falAi";
import { replicateTextToImage } from "./replicate";
import { togetherTextToImage } from "./together";

/** `provider → task → format`; a pair not listed is refused before any request. */
export const PROVIDER_TASKS: Readonly<Record<string, Readonly<Record<string, ProviderTask>>>> = {
  "fal-ai": {
    "audio-to-audio": fal.falAiAudioToAudio,
    "automatic-speech-recognition": fal.falAiAutomaticSpeechRecognition,
    "image-segmentation": fal.falAiImageSegmentation,
    "image-text-to-image": fal.falAiImageTextToImage,
    "image-text-to-video": fal.falAiImageTextToVideo,
    "image-to-image": fal.falAiImageToImage,
    "image-to-video": fal.falAiImageToVideo,
    "text-to-audio": fal.falAiTextToAudio,
    "text-to-image": fal.falAiTextToImage,
    "text-to-speech": fal.falAiTextToSpeech,
    "text-to-video": fal.falAiTextToVideo,
  },
  replicate: { "text-to-image": replicateTextToImage },
  together: { "text-to-image": togetherTextToImage },
};

/** The format of `provider` for `task`, if implemented. */
export function providerTask(provider: string, task: string): ProviderTask | undefined {
  return Object.prototype.hasOwnProperty.call(PROVIDER_TASKS, provider) ? PROVIDER_TASKS[provider]?.[task] : undefined;
}

/** Every implemented pair, as `provider × task`. */
export function implementedPairs(): string[] {
  return Object.entries(PROVIDER_TASKS).flatMap(([provider, tasks]) => Object.keys(tasks).map((task) => `${provider} × ${task}`));
}
