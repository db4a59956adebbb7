import type { Backend, ChatRouteError, ModelConfig } from "./types.js";

export const DEFAULT_TEXT = "The capital of France is Paris.";
export const DEFAULT_MODEL_ID = "hfkit/tgi-3.2";
const DEFAULT_VERSION = "3.2.0";

/** Ready-made models, one per behaviour worth testing against. */
export const PREDEFINED_MODELS = {
  "hfkit/tgi-2.0": { tgiVersion: "2.0.2" },
  "hfkit/tgi-2.1": { tgiVersion: "2.1.1" },
  "hfkit/tgi-2.2": { tgiVersion: "2.2.0" },
  "hfkit/tgi-2.4.0": { tgiVersion: "2.4.0" },
  "hfkit/tgi-2.4.1": { tgiVersion: "2.4.1" },
  "hfkit/tgi-3.1": { tgiVersion: "3.1.0" },
  "hfkit/tgi-3.2": { tgiVersion: "3.2.0" },
  "hfkit/tgi-no-chat-template": { chatTemplate: false },
  "hfkit/transformers-chat": { backend: "transformers" },
  "hfkit/transformers-wrong-format": { backend: "transformers", chatRouteError: "wrong-format" },
  "hfkit/transformers-not-found": { backend: "transformers", chatRouteError: "not-found" },
  "hfkit/transformers-no-stop": { backend: "transformers", unusedModelKwargs: ["stop"] },
} as const satisfies Record<string, ModelConfig>;

export type PredefinedModelId = keyof typeof PREDEFINED_MODELS;

export interface ResolvedModel {
  id: string;
  backend: Backend;
  version: string;
  text: string;
  chatTemplate: boolean;
  maxTotalTokens: number;
  chatRouteError: ChatRouteError;
  unusedModelKwargs: readonly string[];
  toolArguments: Record<string, unknown> | undefined;
}

/** Unknown ids behave as a default TGI model (ids with "does-not-exist" are refused by the proxy). */
export function resolveModel(id: string, models: ReadonlyMap<string, ModelConfig>): ResolvedModel {
  const config = models.get(id) ?? {};
  return {
    id,
    backend: config.backend ?? "tgi",
    version: config.tgiVersion ?? DEFAULT_VERSION,
    text: config.text ?? DEFAULT_TEXT,
    chatTemplate: config.chatTemplate ?? true,
    maxTotalTokens: config.maxTotalTokens ?? 4096,
    chatRouteError: config.chatRouteError ?? "unknown-error",
    unusedModelKwargs: config.unusedModelKwargs ?? [],
    toolArguments: config.toolArguments,
  };
}
