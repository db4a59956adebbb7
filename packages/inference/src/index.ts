export { HfInference, HfInferenceEndpoint, InferenceClient, InferenceClientEndpoint } from "./client";
export { chatCompletion } from "./tasks/chatCompletion";
export { chatCompletionStream } from "./tasks/chatCompletionStream";
export {
  audioClassification,
  audioToAudio,
  automaticSpeechRecognition,
  documentQuestionAnswering,
  featureExtraction,
  fillMask,
  imageClassification,
  imageSegmentation,
  imageTextToImage,
  imageTextToVideo,
  imageToImage,
  imageToText,
  imageToVideo,
  objectDetection,
  questionAnswering,
  request,
  sentenceSimilarity,
  streamingRequest,
  summarization,
  tableQuestionAnswering,
  tabularClassification,
  tabularRegression,
  textClassification,
  textToAudio,
  textToImage,
  textToSpeech,
  textToVideo,
  tokenClassification,
  translation,
  visualQuestionAnswering,
  zeroShotClassification,
  zeroShotImageClassification,
  responses,
  responsesStream,
  conversational,
  textGeneration,
  textGenerationStream,
} from "./tasks/lazy";
export { collectStream } from "./api/collectStream";
export { toReadableStream, toResponse } from "./api/streamResponse";
export {
  AbortError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  IncompleteStreamError,
  InferenceError,
  InputError,
  MalformedEventError,
  ModelLoadingError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "./core/errors";
// The `@huggingface/inference` names of the same classes.
export {
  InferenceClientError,
  InferenceClientHubApiError,
  InferenceClientInputError,
  InferenceClientProviderApiError,
  InferenceClientProviderOutputError,
  InferenceClientRoutingError,
} from "./core/hfErrors";
export type { HttpErrorInit, HttpRequestInfo, HttpResponseInfo, TimeoutKind } from "./core/errors";
export type * from "./types";
export { VERSION } from "./version";
export { getLogger, setLogger } from "./core/logger";
export { eventText } from "./core/eventText";
export {
  INFERENCE_PROVIDERS,
  PROVIDERS_HUB_ORGS,
  type InferenceProvider,
  type InferenceProviderOrPolicy,
  PROVIDERS_OR_POLICIES,
} from "./targets/providers/names";
export { listModels } from "./tasks/listModels";
export { estimateCost } from "./features/cost";
export { FailoverError } from "./features/routing";
export { forgetHealth, healthSnapshot } from "./api/healthSnapshot";
export {
  StructuredOutputError,
  type StructuredOutputFields,
  type StructuredOutputReason,
} from "./core/structuredError";
export { ToolError } from "./core/toolError";
export { runTools, runToolsStream, tool } from "./tasks/runTools";
