/** The (provider, task) pairs hfkit serves, each with its provider's format (through the HF router, or the provider's own API for its own key). */
import type { ProviderTask } from "./helper";
import {
  deepinfraAutomaticSpeechRecognition,
  deepinfraFeatureExtraction,
  deepinfraTextGeneration,
  deepinfraTextToImage,
  deepinfraTextToSpeech,
} from "./deepinfra";
import {
  falAiAudioToAudio,
  falAiAutomaticSpeechRecognition,
  falAiImageSegmentation,
  falAiImageTextToImage,
  falAiImageTextToVideo,
  falAiImageToImage,
  falAiImageToVideo,
  falAiTextToAudio,
  falAiTextToImage,
  falAiTextToSpeech,
  falAiTextToVideo,
} from "./falAi";
import { featherlessAiTextGeneration } from "./featherlessAi";
import { groqTextGeneration } from "./groq";
import { novitaImageTextToVideo, novitaTextGeneration, novitaTextToVideo } from "./novita";
import { nscaleTextToImage } from "./nscale";
import { ovhcloudTextGeneration } from "./ovhcloud";
import {
  replicateAutomaticSpeechRecognition,
  replicateImageToImage,
  replicateTextToImage,
  replicateTextToSpeech,
  replicateTextToVideo,
} from "./replicate";
import { scalewayFeatureExtraction, scalewayTextGeneration } from "./scaleway";
import {
  togetherAutomaticSpeechRecognition,
  togetherImageToImage,
  togetherImageToVideo,
  togetherTextToImage,
  togetherTextToSpeech,
  togetherTextToVideo,
} from "./together";
import { togetherFeatureExtraction, togetherTextGeneration } from "./togetherText";
import {
  wavespeedImageTextToImage,
  wavespeedImageTextToVideo,
  wavespeedImageToImage,
  wavespeedImageToVideo,
  wavespeedTextToImage,
  wavespeedTextToVideo,
} from "./wavespeed";
import { zaiOrgImageToText, zaiOrgTextToImage } from "./zaiOrg";

/** `provider → task → format`; a pair not listed is refused before any request. */
export const PROVIDER_TASKS: Readonly<Record<string, Readonly<Record<string, ProviderTask>>>> = {
  deepinfra: {
    "automatic-speech-recognition": deepinfraAutomaticSpeechRecognition,
    "feature-extraction": deepinfraFeatureExtraction,
    "text-generation": deepinfraTextGeneration,
    "text-to-image": deepinfraTextToImage,
    "text-to-speech": deepinfraTextToSpeech,
  },
  "fal-ai": {
    "audio-to-audio": falAiAudioToAudio,
    "automatic-speech-recognition": falAiAutomaticSpeechRecognition,
    "image-segmentation": falAiImageSegmentation,
    "image-text-to-image": falAiImageTextToImage,
    "image-text-to-video": falAiImageTextToVideo,
    "image-to-image": falAiImageToImage,
    "image-to-video": falAiImageToVideo,
    "text-to-audio": falAiTextToAudio,
    "text-to-image": falAiTextToImage,
    "text-to-speech": falAiTextToSpeech,
    "text-to-video": falAiTextToVideo,
  },
  "featherless-ai": {
    "text-generation": featherlessAiTextGeneration,
  },
  groq: {
    "text-generation": groqTextGeneration,
  },
  novita: {
    "image-text-to-video": novitaImageTextToVideo,
    "text-generation": novitaTextGeneration,
    "text-to-video": novitaTextToVideo,
  },
  nscale: {
    "text-to-image": nscaleTextToImage,
  },
  ovhcloud: {
    "text-generation": ovhcloudTextGeneration,
  },
  replicate: {
    "automatic-speech-recognition": replicateAutomaticSpeechRecognition,
    "image-to-image": replicateImageToImage,
    "text-to-image": replicateTextToImage,
    "text-to-speech": replicateTextToSpeech,
    "text-to-video": replicateTextToVideo,
  },
  scaleway: {
    "feature-extraction": scalewayFeatureExtraction,
    "text-generation": scalewayTextGeneration,
  },
  together: {
    "automatic-speech-recognition": togetherAutomaticSpeechRecognition,
    "feature-extraction": togetherFeatureExtraction,
    "image-to-image": togetherImageToImage,
    "image-to-video": togetherImageToVideo,
    "text-generation": togetherTextGeneration,
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
  return Object.entries(PROVIDER_TASKS).flatMap(([provider, tasks]) =>
    Object.keys(tasks).map((task) => `${provider} × ${task}`),
  );
}
