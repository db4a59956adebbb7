/** `@hfkit/ai-sdk/ai5`: the provider for `ai` 5 (its models follow specification v2). */
import { createProvider, type HfkitProvider, type HfkitProviderSettings } from "./provider";

export * from "./entry";

/** A provider for `ai` 5 with your token and `InferenceClient` options. */
export function createHfkit(options?: HfkitProviderSettings): HfkitProvider<"v2"> {
  return createProvider("v2", options);
}

/** The default provider for `ai` 5: the HF router, the token from `HF_TOKEN`. */
export const hfkit: HfkitProvider<"v2"> = createHfkit();
