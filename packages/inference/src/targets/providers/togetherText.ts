/** Together (`https://router.huggingface.co/together/...`): text-generation and feature-extraction, as 4.13's `TogetherTextGenerationTask` and `TogetherFeatureExtractionTask`. */
import { completionsTask, embeddingsTask } from "./openaiCompatible";

/** `POST /v1/completions`: `{...args (inputs and parameters as they are), prompt, model}`; the first choice's text, its `finish_reason` and `seed` as `details`. */
export const togetherTextGeneration = /* @__PURE__ */ completionsTask("Together text generation", "v1/completions", {
  details: true,
});

/** `POST /v1/embeddings`: `{...args, ...parameters, input, model}`; one vector per input. */
export const togetherFeatureExtraction = /* @__PURE__ */ embeddingsTask(
  "Together feature-extraction (embeddings)",
  "v1/embeddings",
);
