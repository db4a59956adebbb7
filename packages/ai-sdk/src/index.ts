export { createHfkit, hfkit, type HfkitEndpointSettings, type HfkitProvider, type HfkitProviderSettings } from "./provider";
export { HfkitChatLanguageModel, type HfkitChatSettings, type HfkitModelConfig, USAGE_WAIT_MS } from "./model";
export { type HfkitProviderOptions, type JsonSchemaFormat, jsonSchemaFormatFor, PROVIDER_OPTIONS_KEY } from "./args";
export { type CallInfo, toAiSdkError } from "./errors";
export { VERSION } from "./version";
