import { DIALECTS, isOpenAiServer } from "./openai/dialects.js";
import { PIPELINE_TASKS } from "./pipelines.js";
import { inlineThinkTokens, splitTokens } from "./tokens.js";
import type { Backend, ChatRouteError, ModelConfig, RouterProvider } from "./types.js";

/** What every model answers unless its config gives another `text`. */
export const DEFAULT_TEXT = "The capital of France is Paris.";
/** The model behind routes that name none (`model: "tgi"`, `/generate`, `/info`), unless `defaultModel` says otherwise. */
export const DEFAULT_MODEL_ID = "hfkit/tgi-3.2";
const DEFAULT_VERSION = "3.2.0";
/** What the predefined reasoning models think before answering. */
const REASONING = "The user asks about France. Its capital is Paris.";

/** `hfkit/router-multi`'s providers, `:fastest` first: novita without tools or structured output, hf-inference unpriced. */
const ROUTER_MULTI_PROVIDERS: RouterProvider[] = [
  { provider: "together", contextLength: 131072, pricing: { input: 0.6, output: 0.6 } },
  {
    provider: "novita",
    contextLength: 32768,
    pricing: { input: 0.2, output: 0.8 },
    supportsTools: false,
    supportsStructuredOutput: false,
  },
  { provider: "hf-inference", pricing: null },
];

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
  /** vLLM 0.10: reasoning streamed in `delta.reasoning_content` (and `message.reasoning_content`). */
  "hfkit/vllm-0.10": {
    /** Served by vLLM. */
    backend: "vllm",
    /** The vLLM version emulated. */
    serverVersion: "0.10.2",
    /** What it thinks before answering. */
    reasoning: REASONING,
  },
  /** vLLM 0.11: reasoning in both `delta.reasoning` and `delta.reasoning_content`. */
  "hfkit/vllm-0.11": {
    /** Served by vLLM. */
    backend: "vllm",
    /** The vLLM version emulated. */
    serverVersion: "0.11.0",
    /** What it thinks before answering. */
    reasoning: REASONING,
  },
  /** vLLM 0.12: reasoning in `delta.reasoning` only; errors in a 200 stream are followed by `[DONE]`. */
  "hfkit/vllm": {
    /** Served by vLLM. */
    backend: "vllm",
    /** The vLLM version emulated. */
    serverVersion: "0.12.0",
    /** What it thinks before answering. */
    reasoning: REASONING,
  },
  /** SGLang 0.5: reasoning in `delta.reasoning_content`, with `role: null, content: null` while it thinks. */
  "hfkit/sglang": {
    /** Served by SGLang. */
    backend: "sglang",
    /** What it thinks before answering. */
    reasoning: REASONING,
  },
  /** llama.cpp server b6000: `timings` on the last chunk, `prompt_progress` chunks with `return_progress`. */
  "hfkit/llamacpp": {
    /** Served by llama.cpp's server. */
    backend: "llamacpp",
  },
  /** TGI 3.2 serving a model that thinks inline: `<think>…</think>` in `content`, the tags cut across chunks. */
  "hfkit/think-inline": {
    /** The TGI version emulated. */
    tgiVersion: "3.2.0",
    /** What it thinks before answering. */
    reasoning: REASONING,
    /** The reasoning goes inline in `content`. */
    thinkInline: true,
  },
  /** A router model served by three providers (vLLM dialect), whose streams start with a `choices: []` chunk. */
  "hfkit/router-multi": {
    /** Served by vLLM. */
    backend: "vllm",
    /** The providers serving it, `:fastest` first; novita without tools or structured output, hf-inference unpriced. */
    providers: ROUTER_MULTI_PROVIDERS,
    /** A leading chunk with `choices: []`. */
    leadingEmptyChoices: true,
  },
  /** A router model no provider serves: 400 `model_not_supported`. */
  "hfkit/router-none": {
    /** No provider. */
    providers: [],
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
  /** Separate reasoning (not inline); undefined when none. */
  reasoning: string | undefined;
  /** The chat answer's tokens: the text's, or `<think>…</think>` and the text's. */
  chatTokens: readonly string[];
  /** The names of its router providers, `:fastest` first. */
  providers: readonly string[];
  /** Its router providers, with what the router's `GET /v1/models` says of each (defaults not applied). */
  routerProviders: readonly RouterProvider[];
  architecture: NonNullable<ModelConfig["architecture"]>;
  leadingEmptyChoices: boolean;
  /** The pipeline served at `POST /models/{id}`, when not text generation. */
  task: string | undefined;
}

/** Unknown ids behave as a default TGI model (ids with "does-not-exist" are refused by the proxy). */
export function resolveModel(id: string, models: ReadonlyMap<string, ModelConfig>): ResolvedModel {
  const config = models.get(id) ?? {};
  const backend = config.backend ?? "tgi";
  const text = config.text ?? DEFAULT_TEXT;
  const inline = config.thinkInline === true;
  const routerProviders = (config.providers ?? ["hf-inference"]).map((p) =>
    typeof p === "string" ? { provider: p } : p,
  );
  return {
    id,
    backend,
    version: isOpenAiServer(backend)
      ? (config.serverVersion ?? DIALECTS[backend].defaultVersion)
      : (config.tgiVersion ?? DEFAULT_VERSION),
    text,
    chatTemplate: config.chatTemplate ?? true,
    maxTotalTokens: config.maxTotalTokens ?? 4096,
    chatRouteError: config.chatRouteError ?? "unknown-error",
    unusedModelKwargs: config.unusedModelKwargs ?? [],
    toolArguments: config.toolArguments,
    reasoning: inline ? undefined : config.reasoning,
    chatTokens: inline ? inlineThinkTokens(config.reasoning ?? "", text) : splitTokens(text),
    providers: routerProviders.map((p) => p.provider),
    routerProviders,
    architecture: config.architecture ?? {},
    leadingEmptyChoices: config.leadingEmptyChoices ?? false,
    task: config.task ?? servedTask(hubTask(id, models.get(id))),
  };
}

/**
 * The model's task on the Hub: its config's `task`, its `hfkit/<task>` id's, else the task of the first
 * entry of its provider mapping (its config's unless given); undefined when none says (text generation).
 */
export function hubTask(
  id: string,
  config: ModelConfig | undefined,
  mapping = config?.inferenceProviderMapping,
): string | undefined {
  if (config?.task !== undefined) return config.task;
  if (id.startsWith("hfkit/") && PIPELINE_TASKS.includes(id.slice(6))) return id.slice(6);
  return mapping ? Object.values(mapping)[0]?.task : undefined;
}

/** A task `POST /models/{id}` answers with its own pipeline; the text-generation ones are the model's text. */
export function servedTask(task: string | undefined): string | undefined {
  return task !== undefined && PIPELINE_TASKS.includes(task) ? task : undefined;
}
