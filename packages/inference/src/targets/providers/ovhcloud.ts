/** OVHcloud AI Endpoints (`https://router.huggingface.co/ovhcloud/...`): text-generation, as 4.13's `OvhCloudTextGenerationTask`. */
import { completionsTask } from "./openaiCompatible";

/** `POST /v1/completions`: `{...args, ...parameters (max_new_tokens as max_tokens), prompt, model}`; the first choice's text. */
export const ovhcloudTextGeneration = /* @__PURE__ */ completionsTask("OVHcloud text generation", "v1/completions");
