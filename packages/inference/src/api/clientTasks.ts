/** The client's methods for every task but chat and text generation (those are written out in `client.ts`). */
import { ClientBase } from "./clientBase";
import {
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
} from "../tasks/lazy";

/** The tasks a client has as methods, by method name. */
export const TASKS = {
  /** {@link audioClassification}, with the client's token and options. */
  audioClassification,
  /** {@link audioToAudio}, with the client's token and options. */
  audioToAudio,
  /** {@link automaticSpeechRecognition}, with the client's token and options. */
  automaticSpeechRecognition,
  /** {@link documentQuestionAnswering}, with the client's token and options. */
  documentQuestionAnswering,
  /** {@link featureExtraction}, with the client's token and options. */
  featureExtraction,
  /** {@link fillMask}, with the client's token and options. */
  fillMask,
  /** {@link imageClassification}, with the client's token and options. */
  imageClassification,
  /** {@link imageSegmentation}, with the client's token and options. */
  imageSegmentation,
  /** {@link imageTextToImage}, with the client's token and options. */
  imageTextToImage,
  /** {@link imageTextToVideo}, with the client's token and options. */
  imageTextToVideo,
  /** {@link imageToImage}, with the client's token and options. */
  imageToImage,
  /** {@link imageToText}, with the client's token and options. */
  imageToText,
  /** {@link imageToVideo}, with the client's token and options. */
  imageToVideo,
  /** {@link objectDetection}, with the client's token and options. */
  objectDetection,
  /** {@link questionAnswering}, with the client's token and options. */
  questionAnswering,
  /** {@link request}, with the client's token and options. */
  request,
  /** {@link sentenceSimilarity}, with the client's token and options. */
  sentenceSimilarity,
  /** {@link streamingRequest}, with the client's token and options. */
  streamingRequest,
  /** {@link summarization}, with the client's token and options. */
  summarization,
  /** {@link tableQuestionAnswering}, with the client's token and options. */
  tableQuestionAnswering,
  /** {@link tabularClassification}, with the client's token and options. */
  tabularClassification,
  /** {@link tabularRegression}, with the client's token and options. */
  tabularRegression,
  /** {@link textClassification}, with the client's token and options. */
  textClassification,
  /** {@link textToAudio}, with the client's token and options. */
  textToAudio,
  /** {@link textToImage}, with the client's token and options. */
  textToImage,
  /** {@link textToSpeech}, with the client's token and options. */
  textToSpeech,
  /** {@link textToVideo}, with the client's token and options. */
  textToVideo,
  /** {@link tokenClassification}, with the client's token and options. */
  tokenClassification,
  /** {@link translation}, with the client's token and options. */
  translation,
  /** {@link visualQuestionAnswering}, with the client's token and options. */
  visualQuestionAnswering,
  /** {@link zeroShotClassification}, with the client's token and options. */
  zeroShotClassification,
  /** {@link zeroShotImageClassification}, with the client's token and options. */
  zeroShotImageClassification,
};

/** {@link ClientBase} with a method per task of {@link TASKS}: what `InferenceClient` extends. */
export const TaskClient = /* @__PURE__ */ ClientBase.withTasks(TASKS);
