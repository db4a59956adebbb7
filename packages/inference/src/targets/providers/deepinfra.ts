/**
 * DeepInfra (`https://router.huggingface.co/deepinfra/v1/openai/...`, its OpenAI-compatible API): text-generation,
 * feature-extraction, automatic-speech-recognition, text-to-image and text-to-speech, as 4.13's `DeepInfra*Task`s.
 */
import { completionsTask, embeddingsTask, imagesTask, speechTask, transcriptionTask } from "./openaiCompatible";

/** `POST /v1/openai/completions`: `{...args, ...parameters (max_new_tokens as max_tokens), prompt, model}`; the first choice's text. */
export const deepinfraTextGeneration = /* @__PURE__ */ completionsTask(
  "DeepInfra text-generation",
  "v1/openai/completions",
);

/** `POST /v1/openai/embeddings`: `{...args, ...parameters, input, model}`; one vector per input. */
export const deepinfraFeatureExtraction = /* @__PURE__ */ embeddingsTask(
  "DeepInfra feature-extraction (embeddings)",
  "v1/openai/embeddings",
);

/** `POST /v1/openai/audio/transcriptions`: a multipart upload (`file`, `model`, the parameters); `{text, segments}` as `{text, chunks}`. */
export const deepinfraAutomaticSpeechRecognition = /* @__PURE__ */ transcriptionTask(
  "DeepInfra automatic-speech-recognition",
  "v1/openai/audio/transcriptions",
);

/** `POST /v1/openai/images/generations`: `response_format` `b64_json` (or `url` when `outputType` asks). */
export const deepinfraTextToImage = /* @__PURE__ */ imagesTask(
  "DeepInfra text-to-image",
  "v1/openai/images/generations",
  "b64_json",
);

/** `POST /v1/openai/audio/speech`: `{...args, ...parameters, input, model}`; the audio. */
export const deepinfraTextToSpeech = /* @__PURE__ */ speechTask("DeepInfra text-to-speech", "v1/openai/audio/speech");
