import type { Backend, ChatRouteError, ModelConfig } from "./types.js";

/** What every model answers unless its config gives another `text`. */
export const DEFAULT_TEXT = "The capital of France is Paris.";
/** The model behind routes that name none (`model: "tgi"`, `/generate`, `/info`), unless `defaultModel` says otherwise. */
export const DEFAULT_MODEL_ID = "hfkit/tgi-3.2";
const DEFAULT_VERSION = "3.2.0";

/** Ready-made models, one per behaviour worth testing against. */
export const PREDEFINED_MODELS = {
  /** TGI 2.0.2: `data:{json}` with no space, no `[DONE]`, `eos_token` finish reasons, `</s>` streamed as text. */
  "hfkit/tgi-2.0": {
    /** The TGI version emulated. */
    tgiVersion: "2.0.2",
  },
  /** TGI 2.1.1: `data: {json}`, OpenAI's finish reasons, still no `[DONE]`. */
  "hfkit/tgi-2.1": {
    /** The TGI version emulated. */
    tgiVersion: "2.1.1",
  },
  /** TGI 2.2.0: the first with `[DONE]` after a chat stream. */
  "hfkit/tgi-2.2": {
    /** The TGI version emulated. */
    tgiVersion: "2.2.0",
  },
  /** TGI 2.4.0: the last with the old in-stream error shape `{"error", "error_type"}`. */
  "hfkit/tgi-2.4.0": {
    /** The TGI version emulated. */
    tgiVersion: "2.4.0",
  },
  /** TGI 2.4.1: in-stream errors as `{"error": {"message", "http_status_code"}}`. */
  "hfkit/tgi-2.4.1": {
    /** The TGI version emulated. */
    tgiVersion: "2.4.1",
  },
  /** TGI 3.1.0: the last to send a tool-call delta as one object. */
  "hfkit/tgi-3.1": {
    /** The TGI version emulated. */
    tgiVersion: "3.1.0",
  },
  /** TGI 3.2.0, the default model. */
  "hfkit/tgi-3.2": {
    /** The TGI version emulated. */
    tgiVersion: "3.2.0",
  },
  /** A TGI model without a chat template: 422 `template_error` on the chat route. */
  "hfkit/tgi-no-chat-template": {
    /** No chat template. */
    chatTemplate: false,
  },
  /** A transformers-pipeline model whose chat route answers 500 "unknown error". */
  "hfkit/transformers-chat": {
    /** Served by the transformers pipeline. */
    backend: "transformers",
  },
  /** A transformers-pipeline model whose chat route answers 400 "`args[0]` ... have the wrong format". */
  "hfkit/transformers-wrong-format": {
    /** Served by the transformers pipeline. */
    backend: "transformers",
    /** What its chat route answers. */
    chatRouteError: "wrong-format",
  },
  /** A transformers-pipeline model whose chat route answers 404. */
  "hfkit/transformers-not-found": {
    /** Served by the transformers pipeline. */
    backend: "transformers",
    /** What its chat route answers. */
    chatRouteError: "not-found",
  },
  /** A transformers-pipeline model that refuses `stop` (400 "The following `model_kwargs` are not used by the model: ['stop']"). */
  "hfkit/transformers-no-stop": {
    /** Served by the transformers pipeline. */
    backend: "transformers",
    /** The parameters it refuses. */
    unusedModelKwargs: ["stop"],
  },
} as const satisfies Record<string, ModelConfig>;

/** The id of a predefined model, e.g. `"hfkit/tgi-2.0"`. */
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
