/** `createHfkit` and the default `hfkit` provider. */
import { NoSuchModelError, type ProviderV4 } from "@ai-sdk/provider";
import { type HfkitChatSettings, HfkitChatLanguageModel } from "./model";

/**
 * The provider's settings: every option of `@hfkit/inference`'s `InferenceClient` (defaults for each
 * model, which its own settings override), and the token.
 */
export interface HfkitProviderSettings extends HfkitChatSettings {
  /**
   * A Hugging Face token (`hf_…`), sent as `Authorization: Bearer`; `""` sends none. Default: the
   * `HF_TOKEN` environment variable at call time, where there is one.
   */
  accessToken?: string;
  /** The provider's name in the AI SDK's results and telemetry. Default `"hfkit"`. */
  name?: string;
}

/** The settings of a model on a dedicated endpoint: a model's settings and, optionally, the model id to send. */
export interface HfkitEndpointSettings extends Omit<HfkitChatSettings, "endpointUrl"> {
  /** The `model` sent in the body; a TGI endpoint needs none (`"tgi"` is sent), vLLM wants its served name. */
  model?: string;
}

/** A provider: call it, or its `chat` / `languageModel`, with a model id for an AI SDK language model. */
export interface HfkitProvider extends ProviderV4 {
  /** The chat model `modelId` (e.g. `"meta-llama/Llama-3.1-8B-Instruct"`), with settings over the provider's. */
  (modelId: string, settings?: HfkitChatSettings): HfkitChatLanguageModel;
  /** As calling the provider. */
  chat(modelId: string, settings?: HfkitChatSettings): HfkitChatLanguageModel;
  /** As calling the provider (the AI SDK's provider interface, e.g. for a provider registry). */
  languageModel(modelId: string, settings?: HfkitChatSettings): HfkitChatLanguageModel;
  /**
   * The model of a dedicated endpoint (an Inference Endpoint, TGI, vLLM or any OpenAI-compatible
   * server): chat goes to `{endpointUrl}/v1/chat/completions`.
   */
  endpoint(endpointUrl: string, settings?: HfkitEndpointSettings): HfkitChatLanguageModel;
  /** Not offered: throws `NoSuchModelError`. */
  embeddingModel(modelId: string): never;
  /** Not offered: throws `NoSuchModelError`. */
  imageModel(modelId: string): never;
}

function environmentToken(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.HF_TOKEN ?? "";
}

function newId(): string {
  const uuid = globalThis.crypto?.randomUUID?.();
  return `call_${uuid ? uuid.replace(/-/g, "").slice(0, 24) : Math.random().toString(36).slice(2)}`;
}

/**
 * A provider for the AI SDK over `@hfkit/inference`: the HF router by default (`provider`, `baseUrl`,
 * `endpointUrl` choose another route, as for `InferenceClient`).
 *
 * ```js
 * const hf = createHfkit({ accessToken: process.env.HF_TOKEN, maxRetries: 2 });
 * const { text } = await generateText({ model: hf("meta-llama/Llama-3.1-8B-Instruct"), prompt: "Hi", maxRetries: 0 });
 * ```
 *
 * Retries are done by `@hfkit/inference` (its `maxRetries`); every error this provider throws says
 * `isRetryable: false`, so the AI SDK does not repeat them: `maxRetries: 0` on the AI SDK's calls is
 * then only explicit.
 */
export function createHfkit(options: HfkitProviderSettings = {}): HfkitProvider {
  const { accessToken, name = "hfkit", ...defaults } = options;
  const token = accessToken === undefined ? environmentToken : () => accessToken;
  const chat = (modelId: string | undefined, settings: HfkitChatSettings = {}): HfkitChatLanguageModel =>
    new HfkitChatLanguageModel(modelId, {
      provider: `${name}.chat`,
      accessToken: token,
      settings: { ...defaults, ...settings, headers: { ...defaults.headers, ...settings.headers } },
      generateId: newId,
    });
  const languageModel = (modelId: string, settings?: HfkitChatSettings): HfkitChatLanguageModel => chat(modelId, settings);
  const unsupported = (modelType: "embeddingModel" | "imageModel") => (modelId: string): never => {
    throw new NoSuchModelError({ modelId, modelType, message: `hfkit offers chat language models only, not ${modelType}s (${modelId})` });
  };
  return Object.assign(languageModel, {
    specificationVersion: "v4" as const,
    chat: (modelId: string, settings?: HfkitChatSettings) => chat(modelId, settings),
    languageModel: (modelId: string, settings?: HfkitChatSettings) => chat(modelId, settings),
    endpoint: (endpointUrl: string, settings: HfkitEndpointSettings = {}) => {
      const { model, ...rest } = settings;
      return chat(model, { ...rest, endpointUrl });
    },
    embeddingModel: unsupported("embeddingModel"),
    imageModel: unsupported("imageModel"),
  });
}

/** The default provider: the HF router, the token from `HF_TOKEN`. `hfkit("org/model")` is a model. */
export const hfkit: HfkitProvider = createHfkit();
