/** What every entry point exports besides its `createHfkit` and `hfkit`. */
export { HfkitChatLanguageModel, type HfkitChatSettings, type HfkitModelConfig, USAGE_WAIT_MS } from "./model";
export { HfkitEmbeddingModel, type HfkitEmbeddingSettings, type EmbedResult } from "./embedding";
export { HfkitImageModel, type ImageCallOptions, type ImageResult } from "./image";
export { HfkitTranscriptionModel, type TranscriptionResult } from "./transcription";
export { HfkitSpeechModel, type SpeechCallOptions, type SpeechResult } from "./speech";
export { HfkitRerankingModel, type RerankCallOptions, type RerankResult } from "./reranking";
export type { HfkitTaskSettings } from "./task";
export {
  createProvider,
  type HfkitEndpointSettings,
  type HfkitProvider,
  type HfkitProviderSettings,
  type RerankingVersion,
} from "./provider";
export { type HfkitProviderOptions, type JsonSchemaFormat, jsonSchemaFormatFor, PROVIDER_OPTIONS_KEY } from "./args";
export { type CallInfo, toAiSdkError } from "./errors";
export {
  AISDKError,
  APICallError,
  InvalidArgumentError,
  InvalidPromptError,
  NoSuchModelError,
  UnsupportedFunctionalityError,
} from "./spec/errors";
export type * from "./spec/types";
export { VERSION } from "./version";
