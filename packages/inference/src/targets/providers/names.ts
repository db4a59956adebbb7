/** The inference providers and routing policies `@huggingface/inference` 4.13 names. */

/** The providers the HF router serves, as `@huggingface/inference` 4.13 lists them. */
export const INFERENCE_PROVIDERS = [
  "baseten",
  "cerebras",
  "cohere",
  "deepinfra",
  "fal-ai",
  "featherless-ai",
  "fireworks-ai",
  "groq",
  "hf-inference",
  "novita",
  "nscale",
  "openai",
  "ovhcloud",
  "publicai",
  "replicate",
  "scaleway",
  "together",
  "wavespeed",
  "zai-org",
] as const;

/** A provider, or `"auto"`: the router picks (your preference order at huggingface.co/settings/inference-providers). */
export const PROVIDERS_OR_POLICIES = /* @__PURE__ */ (() => [...INFERENCE_PROVIDERS, "auto"] as const)();

/** One of {@link INFERENCE_PROVIDERS}. */
export type InferenceProvider = (typeof INFERENCE_PROVIDERS)[number];
/** One of {@link PROVIDERS_OR_POLICIES}. */
export type InferenceProviderOrPolicy = (typeof PROVIDERS_OR_POLICIES)[number];

/** The org of each provider on the Hugging Face Hub (hf.co/{org}), as `@huggingface/inference` 4.13 lists them. */
export const PROVIDERS_HUB_ORGS: Record<InferenceProvider, string> = {
  baseten: "baseten",
  cerebras: "cerebras",
  cohere: "CohereLabs",
  deepinfra: "DeepInfra",
  "fal-ai": "fal",
  "featherless-ai": "featherless-ai",
  "fireworks-ai": "fireworks-ai",
  groq: "groq",
  "hf-inference": "hf-inference",
  novita: "novita",
  nscale: "nscale",
  openai: "openai",
  ovhcloud: "ovhcloud",
  publicai: "publicai",
  replicate: "replicate",
  scaleway: "scaleway",
  together: "togethercomputer",
  wavespeed: "wavespeed",
  "zai-org": "zai-org",
};
