/** Scaleway (`https://router.huggingface.co/scaleway/...`): text-generation and feature-extraction, as 4.13's `ScalewayTextGenerationTask` and `ScalewayFeatureExtractionTask`. */
import { completionsTask, embeddingsTask } from "./openaiCompatible";

/** `POST /v1/completions`: `{...args (inputs and parameters as they are), prompt, model}`; the first choice's text. */
export const scalewayTextGeneration = /* @__PURE__ */ completionsTask("Scaleway text generation", "v1/completions");

/** `POST /v1/embeddings`: `{input, model}` only; one vector per input. */
export const scalewayFeatureExtraction = /* @__PURE__ */ embeddingsTask(
  "Scaleway feature-extraction (embeddings)",
  "v1/embeddings",
  true,
);
