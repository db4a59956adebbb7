/** `@hfkit/ai-sdk/ai6`: the provider for `ai` 6 (its models follow specification v3). */
import { createProvider, type HfkitProvider, type HfkitProviderSettings } from "./provider";

export * from "./entry";

/** A provider for `ai` 6 with your token and `InferenceClient` options. */
export function createHfkit(options?: HfkitProviderSettings): HfkitProvider<"v3"> {
  return createProvider("v3", options);
}

/** The default provider for `ai` 6: the HF router, the token from `HF_TOKEN`. */
export const hfkit: HfkitProvider<"v3"> = createHfkit();
