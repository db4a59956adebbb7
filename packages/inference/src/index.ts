export { HfInference, HfInferenceEndpoint, InferenceClient, InferenceClientEndpoint } from "./client";
export { chatCompletion } from "./tasks/chatCompletion";
export { chatCompletionStream } from "./tasks/chatCompletionStream";
export { conversational } from "./tasks/conversational";
export { responses } from "./tasks/responses";
export { responsesStream } from "./tasks/responsesStream";
export { textGeneration } from "./tasks/textGeneration";
export { textGenerationStream } from "./tasks/textGenerationStream";
export { audioClassification } from "./tasks/audioClassification";
export { audioToAudio } from "./tasks/audioToAudio";
export { automaticSpeechRecognition } from "./tasks/automaticSpeechRecognition";
export { documentQuestionAnswering } from "./tasks/documentQuestionAnswering";
export { featureExtraction } from "./tasks/featureExtraction";
export { fillMask } from "./tasks/fillMask";
export { imageClassification } from "./tasks/imageClassification";
export { imageSegmentation } from "./tasks/imageSegmentation";
export { imageTextToImage } from "./tasks/imageTextToImage";
export { imageTextToVideo } from "./tasks/imageTextToVideo";
export { imageToImage } from "./tasks/imageToImage";
export { imageToText } from "./tasks/imageToText";
export { imageToVideo } from "./tasks/imageToVideo";
export { objectDetection } from "./tasks/objectDetection";
export { questionAnswering } from "./tasks/questionAnswering";
export { request } from "./tasks/request";
export { sentenceSimilarity } from "./tasks/sentenceSimilarity";
export { streamingRequest } from "./tasks/streamingRequest";
export { summarization } from "./tasks/summarization";
export { tableQuestionAnswering } from "./tasks/tableQuestionAnswering";
export { tabularClassification } from "./tasks/tabularClassification";
export { tabularRegression } from "./tasks/tabularRegression";
export { textClassification } from "./tasks/textClassification";
export { textToAudio } from "./tasks/textToAudio";
export { textToImage } from "./tasks/textToImage";
export { textToSpeech } from "./tasks/textToSpeech";
export { textToVideo } from "./tasks/textToVideo";
export { tokenClassification } from "./tasks/tokenClassification";
export { translation } from "./tasks/translation";
export { visualQuestionAnswering } from "./tasks/visualQuestionAnswering";
export { zeroShotClassification } from "./tasks/zeroShotClassification";
export { zeroShotImageClassification } from "./tasks/zeroShotImageClassification";
export { collectStream } from "./collectStream";
export { toReadableStream, toResponse } from "./stream-response";
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
} from "./errors";
// The `@huggingface/inference` names of the same classes.
export {
  InferenceClientError,
  InferenceClientHubApiError,
  InferenceClientInputError,
  InferenceClientProviderApiError,
  InferenceClientProviderOutputError,
  InferenceClientRoutingError,
} from "./hfErrors";
export type { HttpErrorInit, HttpRequestInfo, HttpResponseInfo, TimeoutKind } from "./errors";
export type * from "./types";
export { VERSION } from "./version";
export { getLogger, INFERENCE_PROVIDERS, PROVIDERS_HUB_ORGS, type InferenceProvider, type InferenceProviderOrPolicy, PROVIDERS_OR_POLICIES, setLogger } from "./providers";
