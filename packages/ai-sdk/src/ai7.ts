/** `@hfkit/ai-sdk/ai7`: the provider for `ai` 7 (its models follow specification v4). */
import { createProvider, type HfkitProvider, type HfkitProviderSettings } from "./provider";

export * from "./entry";

/** A provider for `ai` 7 with your token and `InferenceClient` options. */
export function createHfkit(options?: HfkitProviderSettings): HfkitProvider<"v4"> {
  return createProvider("v4", options);
}

/** The default provider for `ai` 7: the HF router, the token from `HF_TOKEN`. */
export const hfkit: HfkitProvider<"v4"> = createHfkit();
