/** The (provider, task) pairs served through the HF router, each with its provider's format. */
import type { ProviderTask } from "./helper";
import { falAiAutomaticSpeechRecognition, falAiTextToImage } from "./falAi";
import { nscaleTextToImage } from "./nscale";
import { replicateTextToImage } from "./replicate";
import {
  togetherAutomaticSpeechRecognition,
  togetherImageToImage,
  togetherImageToVideo,
  togetherTextToImage,
  togetherTextToSpeech,
  togetherTextToVideo,
} from "./together";
import { zaiOrgImageToText, zaiOrgTextToImage } from "./zaiOrg";

/** `provider → task → format`; a pair not listed is refused before any request. */
export const PROVIDER_TASKS: Readonly<Record<string, Readonly<Record<string, ProviderTask>>>> = {
  "fal-ai": { "automatic-speech-recognition": falAiAutomaticSpeechRecognition, "text-to-image": falAiTextToImage },
  nscale: { "text-to-image": nscaleTextToImage },
  replicate: { "text-to-image": replicateTextToImage },
  together: {
    "automatic-speech-recognition": togetherAutomaticSpeechRecognition,
    "image-to-image": togetherImageToImage,
    "image-to-video": togetherImageToVideo,
    "text-to-image": togetherTextToImage,
    "text-to-speech": togetherTextToSpeech,
    "text-to-video": togetherTextToVideo,
  },
  "zai-org": { "image-to-text": zaiOrgImageToText, "text-to-image": zaiOrgTextToImage },
};

/** The format of `provider` for `task`, if implemented. */
export function providerTask(provider: string, task: string): ProviderTask | undefined {
  return Object.prototype.hasOwnProperty.call(PROVIDER_TASKS, provider) ? PROVIDER_TASKS[provider]?.[task] : undefined;
}

/** Every implemented pair, as `provider × task`. */
export function implementedPairs(): string[] {
  return Object.entries(PROVIDER_TASKS).flatMap(([provider, tasks]) => Object.keys(tasks).map((task) => `${provider} × ${task}`));
}
