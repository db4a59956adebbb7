/** Featherless AI (`https://router.huggingface.co/featherless-ai/...`): text-generation, as 4.13's `FeatherlessAITextGenerationTask`. */
import { completionsTask } from "./openaiCompatible";

/** `POST /v1/completions`: `{...args, ...parameters (max_new_tokens as max_tokens), prompt, model}`; the first choice's text. */
export const featherlessAiTextGeneration = /* @__PURE__ */ completionsTask(
  "Featherless AI text generation",
  "v1/completions",
);
