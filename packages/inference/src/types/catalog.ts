/**
 * The HF router's catalog (`GET https://router.huggingface.co/v1/models`), as `listModels` answers it. A field the
 * router left out, or sent in another type, is absent; fields it adds later are not kept.
 */

/** What a model takes in and gives out, e.g. `["text", "image"]` and `["text"]`. */
export interface RouterModelArchitecture {
  /** Empty when the router did not say. */
  readonly input_modalities: readonly string[];
  /** Empty when the router did not say. */
  readonly output_modalities: readonly string[];
}

/** Dollars per million tokens. */
export interface RouterModelPricing {
  /** Per million prompt tokens. */
  readonly input: number;
  /** Per million generated tokens. */
  readonly output: number;
}

/** One provider that serves a model through the router. */
export interface RouterModelProvider {
  /** The provider's name, e.g. `"together"`: the `:provider` suffix of a model id, or the `provider` option. */
  readonly provider: string;
  /** `"live"` when it serves the model now (`"staging"`, `"error"`, ...). */
  readonly status?: string;
  /** The longest prompt plus answer it takes, in tokens. */
  readonly context_length?: number;
  /** What it charges, in dollars per million tokens: both prices, or none. */
  readonly pricing?: RouterModelPricing;
  /** It takes `tools` (function calling). */
  readonly supports_tools?: boolean;
  /** It honours a JSON-schema `response_format`. */
  readonly supports_structured_output?: boolean;
  /** The provider is the model's author. */
  readonly is_model_author?: boolean;
}

/** A model the router serves, and who serves it. */
export interface RouterModel {
  /** The model id, `org/name`. */
  readonly id: string;
  /** Unix time, in seconds. */
  readonly created?: number;
  /** The organisation that owns the model. */
  readonly owned_by?: string;
  /** What the model takes in and gives out. */
  readonly architecture?: RouterModelArchitecture;
  /** In the router's order; entries without a provider name are left out. */
  readonly providers: readonly RouterModelProvider[];
}
