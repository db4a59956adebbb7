/** The provider: every model type, for the specification one entry point serves (`createProvider`). */
import { HfkitEmbeddingModel, type HfkitEmbeddingSettings } from "./embedding";
import { HfkitImageModel } from "./image";
import { type HfkitChatSettings, HfkitChatLanguageModel, type HfkitModelConfig } from "./model";
import { HfkitRerankingModel } from "./reranking";
import { InvalidArgumentError, NoSuchModelError } from "./spec/errors";
import type { SpecVersion } from "./spec/types";
import { HfkitSpeechModel } from "./speech";
import type { HfkitTaskSettings } from "./task";
import { HfkitTranscriptionModel } from "./transcription";

/**
 * The provider's settings: every option of `@hfkit/inference`'s `InferenceClient` (defaults for each
 * model, which its own settings override), and the token.
 */
export interface HfkitProviderSettings extends HfkitChatSettings {
  /**
   * A Hugging Face token (`hf_…`), sent as `Authorization: Bearer`; `""` (or white space) is no token: none is
   * sent, and no provider takes it for its key. Default: the `HF_TOKEN` environment variable at call time, where
   * there is one (blank as unset).
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

/** The specifications `rerank` exists in (`ai` 6 and 7). */
export type RerankingVersion = Exclude<SpecVersion, "v2">;

/** A provider of models following specification V: call it (or `chat` / `languageModel`) for a chat model. */
export interface HfkitProvider<V extends SpecVersion = SpecVersion> {
  /** The chat model `modelId` (e.g. `"meta-llama/Llama-3.1-8B-Instruct"`), with settings over the provider's. */
  (modelId: string, settings?: HfkitChatSettings): HfkitChatLanguageModel<V>;
  /** The specification its models follow. */
  readonly specificationVersion: V;
  /** As calling the provider. */
  chat(modelId: string, settings?: HfkitChatSettings): HfkitChatLanguageModel<V>;
  /** As calling the provider (the AI SDK's provider interface, e.g. for a provider registry). */
  languageModel(modelId: string, settings?: HfkitChatSettings): HfkitChatLanguageModel<V>;
  /**
   * The model of a dedicated endpoint (an Inference Endpoint, TGI, vLLM or any OpenAI-compatible
   * server): chat goes to `{endpointUrl}/v1/chat/completions`.
   */
  endpoint(endpointUrl: string, settings?: HfkitEndpointSettings): HfkitChatLanguageModel<V>;
  /** A text embedding model (`featureExtraction`) for `embed` and `embedMany`. */
  embeddingModel(modelId: string, settings?: HfkitEmbeddingSettings): HfkitEmbeddingModel<V>;
  /** As `embeddingModel` (the name `ai` 5 calls). */
  textEmbeddingModel(modelId: string, settings?: HfkitEmbeddingSettings): HfkitEmbeddingModel<V>;
  /** A text-to-image model (`textToImage`) for `generateImage`. */
  imageModel(modelId: string, settings?: HfkitTaskSettings): HfkitImageModel<V>;
  /** A speech recognition model (`automaticSpeechRecognition`) for `transcribe`. */
  transcriptionModel(modelId: string, settings?: HfkitTaskSettings): HfkitTranscriptionModel<V>;
  /** A text-to-speech model (`textToSpeech`) for `generateSpeech`. */
  speechModel(modelId: string, settings?: HfkitTaskSettings): HfkitSpeechModel<V>;
  /** A sentence-similarity model (`sentenceSimilarity`) for `rerank`; `ai` 5 has no rerank: `NoSuchModelError` there. */
  rerankingModel(modelId: string, settings?: HfkitTaskSettings): HfkitRerankingModel<V & RerankingVersion>;
}

function environmentToken(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.HF_TOKEN ?? "";
}

function newId(): string {
  const uuid = globalThis.crypto?.randomUUID?.();
  return `call_${uuid ? uuid.replace(/-/g, "").slice(0, 24) : Math.random().toString(36).slice(2)}`;
}

/** A task model's settings from the provider's: one router provider, no chat-only fields. */
function taskSettings<S extends HfkitTaskSettings>(defaults: HfkitChatSettings, own: S | undefined): S {
  const { provider, fallbackModels: _f, jsonSchemaFormat: _j, ...rest } = defaults;
  const merged = { ...rest, ...own, headers: { ...rest.headers, ...own?.headers } } as unknown as S;
  if (own?.provider !== undefined || provider === undefined) return merged;
  if (typeof provider !== "string") {
    throw new InvalidArgumentError({
      argument: "provider",
      message: "A list of providers (failover) is for chat models: give this model one provider in its own settings",
    });
  }
  return { ...merged, provider };
}

/**
 * A provider following specification `version` over `@hfkit/inference`: the HF router by default
 * (`provider`, `baseUrl`, `endpointUrl` choose another route, as for `InferenceClient`). Every error it
 * throws says `isRetryable: false`: `@hfkit/inference` has retried already (its `maxRetries`).
 */
export function createProvider<V extends SpecVersion>(
  version: V,
  options: HfkitProviderSettings = {},
): HfkitProvider<V> {
  const { accessToken, name = "hfkit", ...defaults } = options;
  const token = accessToken === undefined ? environmentToken : () => accessToken;
  const config = <S>(kind: string, settings: S): HfkitModelConfig<V, S> => ({
    specificationVersion: version,
    provider: `${name}.${kind}`,
    accessToken: token,
    settings,
    generateId: newId,
  });
  const chat = (modelId: string | undefined, settings: HfkitChatSettings = {}) =>
    new HfkitChatLanguageModel(
      modelId,
      config("chat", { ...defaults, ...settings, headers: { ...defaults.headers, ...settings.headers } }),
    );
  const embedding = (modelId: string, settings?: HfkitEmbeddingSettings) =>
    new HfkitEmbeddingModel(modelId, config("embedding", taskSettings(defaults, settings)));
  const provider = (modelId: string, settings?: HfkitChatSettings) => chat(modelId, settings);
  return Object.assign(provider, {
    specificationVersion: version,
    chat: provider,
    languageModel: provider,
    endpoint: (endpointUrl: string, settings: HfkitEndpointSettings = {}) => {
      const { model, ...rest } = settings;
      return chat(model, { ...rest, endpointUrl });
    },
    embeddingModel: embedding,
    textEmbeddingModel: embedding,
    imageModel: (modelId: string, settings?: HfkitTaskSettings) =>
      new HfkitImageModel(modelId, config("image", taskSettings(defaults, settings))),
    transcriptionModel: (modelId: string, settings?: HfkitTaskSettings) =>
      new HfkitTranscriptionModel(modelId, config("transcription", taskSettings(defaults, settings))),
    speechModel: (modelId: string, settings?: HfkitTaskSettings) =>
      new HfkitSpeechModel(modelId, config("speech", taskSettings(defaults, settings))),
    rerankingModel: (modelId: string, settings?: HfkitTaskSettings) => {
      if (version === "v2")
        throw new NoSuchModelError({
          modelId,
          modelType: "rerankingModel",
          message: `ai 5 has no rerank: use @hfkit/ai-sdk (ai 6 or 7) for reranking models (${modelId})`,
        });
      return new HfkitRerankingModel(
        modelId,
        config("reranking", taskSettings(defaults, settings)) as HfkitModelConfig<
          V & RerankingVersion,
          HfkitTaskSettings
        >,
      );
    },
  });
}
