/** The (provider, task) pairs hfkit serves, each with its provider's format (through the HF router, or the provider's own API for its own key). */
import type { ProviderTask } from "./helper";
import { falAiAutomaticSpeechRecognition, falAiTextToImage } from "./falAi";
import { nscaleTextToImage } from "./nscale";
import { replicateAutomaticSpeechRecognition, replicateImageToImage, replicateTextToImage, replicateTextToSpeech, replicateTextToVideo } from "./replicate";
import { togetherAutomaticSpeechRecognition, togetherImageToImage, togetherImageToVideo, togetherTextToImage, togetherTextToSpeech, togetherTextToVideo } from "./together";
import { wavespeedImageTextToImage, wavespeedImageTextToVideo, wavespeedImageToImage, wavespeedImageToVideo, wavespeedTextToImage, wavespeedTextToVideo } from "./wavespeed";
import { zaiOrgImageToText, zaiOrgTextToImage } from "./zaiOrg";

/** `provider → task → format`; a pair not listed is refused before any request. */
export const PROVIDER_TASKS: Readonly<Record<string, Readonly<Record<string, ProviderTask>>>> = {
  "fal-ai": {
    "automatic-speech-recognition": falAiAutomaticSpeechRecognition,
    "text-to-image": falAiTextToImage,
  },
  nscale: {
    "text-to-image": nscaleTextToImage,
  },
  replicate: {
    "automatic-speech-recognition": replicateAutomaticSpeechRecognition,
    "image-to-image": replicateImageToImage,
    "text-to-image": replicateTextToImage,
    "text-to-speech": replicateTextToSpeech,
    "text-to-video": replicateTextToVideo,
  },
  together: {
    "automatic-speech-recognition": togetherAutomaticSpeechRecognition,
    "image-to-image": togetherImageToImage,
    "image-to-video": togetherImageToVideo,
    "text-to-image": togetherTextToImage,
    "text-to-speech": togetherTextToSpeech,
    "text-to-video": togetherTextToVideo,
  },
  wavespeed: {
    "image-text-to-image": wavespeedImageTextToImage,
    "image-text-to-video": wavespeedImageTextToVideo,
    "image-to-image": wavespeedImageToImage,
    "image-to-video": wavespeedImageToVideo,
    "text-to-image": wavespeedTextToImage,
    "text-to-video": wavespeedTextToVideo,
  },
  "zai-org": {
    "image-to-text": zaiOrgImageToText,
    "text-to-image": zaiOrgTextToImage,
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
