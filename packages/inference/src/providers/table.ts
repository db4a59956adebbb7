/** The (provider, task) pairs served through the HF router, each with its provider's format. */
import type { ProviderTask } from "./helper";
import { falAiAutomaticSpeechRecognition, falAiTextToImage } from "./falAi";
import {
  replicateAutomaticSpeechRecognition,
  replicateImageToImage,
  replicateTextToImage,
  replicateTextToSpeech,
  replicateTextToVideo,
} from "./replicate";
import { togetherTextToImage } from "./together";
import {
  wavespeedImageTextToImage,
  wavespeedImageTextToVideo,
  wavespeedImageToImage,
  wavespeedImageToVideo,
  wavespeedTextToImage,
  wavespeedTextToVideo,
} from "./wavespeed";

/** `provider → task → format`; a pair not listed is refused before any request. */
export const PROVIDER_TASKS: Readonly<Record<string, Readonly<Record<string, ProviderTask>>>> = {
  "fal-ai": { "automatic-speech-recognition": falAiAutomaticSpeechRecognition, "text-to-image": falAiTextToImage },
  replicate: {
    "automatic-speech-recognition": replicateAutomaticSpeechRecognition,
    "image-to-image": replicateImageToImage,
    "text-to-image": replicateTextToImage,
    "text-to-speech": replicateTextToSpeech,
    "text-to-video": replicateTextToVideo,
  },
  together: { "text-to-image": togetherTextToImage },
  wavespeed: {
    "image-text-to-image": wavespeedImageTextToImage,
    "image-text-to-video": wavespeedImageTextToVideo,
    "image-to-image": wavespeedImageToImage,
    "image-to-video": wavespeedImageToVideo,
    "text-to-image": wavespeedTextToImage,
    "text-to-video": wavespeedTextToVideo,
  },
};

/** The format of `provider` for `task`, if implemented. */
export function providerTask(provider: string, task: string): ProviderTask | undefined {
  return Object.prototype.hasOwnProperty.call(PROVIDER_TASKS, provider) ? PROVIDER_TASKS[provider]?.[task] : undefined;
}

/** Every implemented pair, as `provider × task`. */
export function implementedPairs(): string[] {
  return Object.entries(PROVIDER_TASKS).flatMap(([provider, tasks]) => Object.keys(tasks).map((task) => `${provider} × ${task}`));
}
