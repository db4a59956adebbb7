/** The client's methods for every task but chat and text generation (those are written out in `client.ts`). */
import { ClientBase } from "./clientBase";
import { audioClassification } from "./tasks/audioClassification";
import { audioToAudio } from "./tasks/audioToAudio";
import { automaticSpeechRecognition } from "./tasks/automaticSpeechRecognition";
import { documentQuestionAnswering } from "./tasks/documentQuestionAnswering";
import { featureExtraction } from "./tasks/featureExtraction";
import { fillMask } from "./tasks/fillMask";
import { imageClassification } from "./tasks/imageClassification";
import { imageSegmentation } from "./tasks/imageSegmentation";
import { imageTextToImage } from "./tasks/imageTextToImage";
import { imageTextToVideo } from "./tasks/imageTextToVideo";
import { imageToImage } from "./tasks/imageToImage";
import { imageToText } from "./tasks/imageToText";
import { imageToVideo } from "./tasks/imageToVideo";
import { objectDetection } from "./tasks/objectDetection";
import { questionAnswering } from "./tasks/questionAnswering";
import { request } from "./tasks/request";
import { sentenceSimilarity } from "./tasks/sentenceSimilarity";
import { streamingRequest } from "./tasks/streamingRequest";
import { summarization } from "./tasks/summarization";
import { tableQuestionAnswering } from "./tasks/tableQuestionAnswering";
import { tabularClassification } from "./tasks/tabularClassification";
import { tabularRegression } from "./tasks/tabularRegression";
import { textClassification } from "./tasks/textClassification";
import { textToAudio } from "./tasks/textToAudio";
import { textToImage } from "./tasks/textToImage";
import { textToSpeech } from "./tasks/textToSpeech";
import { textToVideo } from "./tasks/textToVideo";
import { tokenClassification } from "./tasks/tokenClassification";
import { translation } from "./tasks/translation";
import { visualQuestionAnswering } from "./tasks/visualQuestionAnswering";
import { zeroShotClassification } from "./tasks/zeroShotClassification";
import { zeroShotImageClassification } from "./tasks/zeroShotImageClassification";

/** The tasks a client has as methods, by method name. */
export const TASKS = {
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
};

/** {@link ClientBase} with a method per task of {@link TASKS}: what `InferenceClient` extends. */
export const TaskClient = /* @__PURE__ */ ClientBase.withTasks(TASKS);
