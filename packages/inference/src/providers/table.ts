/** The (provider, task) pairs served through the HF router, each with its provider's format. */
import type { ProviderTask } from "./helper";
import { deepinfraAutomaticSpeechRecognition, deepinfraFeatureExtraction, deepinfraTextGeneration, deepinfraTextToImage, deepinfraTextToSpeech } from "./deepinfra";
import { falAiAutomaticSpeechRecognition, falAiTextToImage } from "./falAi";
import { featherlessAiTextGeneration } from "./featherlessAi";
import { groqTextGeneration } from "./groq";
import { novitaImageTextToVideo, novitaTextGeneration, novitaTextToVideo } from "./novita";
import { ovhcloudTextGeneration } from "./ovhcloud";
import { replicateTextToImage } from "./replicate";
import { scalewayFeatureExtraction, scalewayTextGeneration } from "./scaleway";
import { togetherTextToImage } from "./together";
import { togetherFeatureExtraction, togetherTextGeneration } from "./togetherText";

/** `provider → task → format`; a pair not listed is refused before any request. */
export const PROVIDER_TASKS: Readonly<Record<string, Readonly<Record<string, ProviderTask>>>> = {
  deepinfra: {
    "automatic-speech-recognition": deepinfraAutomaticSpeechRecognition,
    "feature-extraction": deepinfraFeatureExtraction,
    "text-generation": deepinfraTextGeneration,
    "text-to-image": deepinfraTextToImage,
    "text-to-speech": deepinfraTextToSpeech,
  },
  "fal-ai": { "automatic-speech-recognition": falAiAutomaticSpeechRecognition, "text-to-image": falAiTextToImage },
  "featherless-ai": { "text-generation": featherlessAiTextGeneration },
  groq: { "text-generation": groqTextGeneration },
  novita: { "image-text-to-video": novitaImageTextToVideo, "text-generation": novitaTextGeneration, "text-to-video": novitaTextToVideo },
  ovhcloud: { "text-generation": ovhcloudTextGeneration },
  replicate: { "text-to-image": replicateTextToImage },
  scaleway: { "feature-extraction": scalewayFeatureExtraction, "text-generation": scalewayTextGeneration },
  together: { "text-to-image": togetherTextToImage, "feature-extraction": togetherFeatureExtraction, "text-generation": togetherTextGeneration },
};

/** The format of `provider` for `task`, if implemented. */
export function providerTask(provider: string, task: string): ProviderTask | undefined {
  return Object.prototype.hasOwnProperty.call(PROVIDER_TASKS, provider) ? PROVIDER_TASKS[provider]?.[task] : undefined;
}

/** Every implemented pair, as `provider × task`. */
export function implementedPairs(): string[] {
  return Object.entries(PROVIDER_TASKS).flatMap(([provider, tasks]) => Object.keys(tasks).map((task) => `${provider} × ${task}`));
}
