/**
 * `eager.ts` for the package's Node build (`dist/node/`): the same functions, each group (the tasks, the
 * Responses API) loaded on the first call of one of its functions, from a chunk of its own. Importing the
 * package for chat compiles none of their code. `test/lazy.test.ts` checks that this module has the same
 * exports, of the same types, as `eager.ts`.
 */
import { once } from "./once";

type All = typeof import("./all");
type Responses = All;

const load = /* @__PURE__ */ once(() => import("./all"));
const loadResponses = load;

/** The task `name`, loaded on its first call. */
function later<K extends Exclude<keyof All, "streamingRequest" | "responsesStream">>(name: K): All[K] {
  return (async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => unknown)(...args)) as All[K];
}

/**
 * One response of the OpenAI Responses API, not streamed: served natively where the server has the API
 * (the HF router, vLLM), else over chat completions (TGI, the transformers pipeline) and made a response.
 * Rejects with a typed {@link InferenceError}; bad input is an InputError before any request.
 */
export const responses: Responses["responses"] = async (args, options) =>
  (await loadResponses()).responses(args, options);

/**
 * A response of the OpenAI Responses API streamed as its events (`response.created`, ...,
 * `response.output_text.delta`, ..., `response.completed`), for `for await`. The stream ends at
 * `response.completed` or `response.incomplete`; `response.failed` and `error` events are thrown as typed
 * errors. Nothing is thrown synchronously: bad input is an InputError from the first `next()`.
 */
export const responsesStream = /* @__PURE__ */ async function* (...args: Parameters<Responses["responsesStream"]>) {
  return yield* (await loadResponses()).responsesStream(...args);
} as Responses["responsesStream"];

/** `audioClassification`: see the task's page in the API docs. */
export const audioClassification = /* @__PURE__ */ later("audioClassification");
/** `audioToAudio`: see the task's page in the API docs. */
export const audioToAudio = /* @__PURE__ */ later("audioToAudio");
/** `automaticSpeechRecognition`: see the task's page in the API docs. */
export const automaticSpeechRecognition = /* @__PURE__ */ later("automaticSpeechRecognition");
/** `documentQuestionAnswering`: see the task's page in the API docs. */
export const documentQuestionAnswering = /* @__PURE__ */ later("documentQuestionAnswering");
/** `featureExtraction`: see the task's page in the API docs. */
export const featureExtraction = /* @__PURE__ */ later("featureExtraction");
/** `fillMask`: see the task's page in the API docs. */
export const fillMask = /* @__PURE__ */ later("fillMask");
/** `imageClassification`: see the task's page in the API docs. */
export const imageClassification = /* @__PURE__ */ later("imageClassification");
/** `imageSegmentation`: see the task's page in the API docs. */
export const imageSegmentation = /* @__PURE__ */ later("imageSegmentation");
/** `imageTextToImage`: see the task's page in the API docs. */
export const imageTextToImage = /* @__PURE__ */ later("imageTextToImage");
/** `imageTextToVideo`: see the task's page in the API docs. */
export const imageTextToVideo = /* @__PURE__ */ later("imageTextToVideo");
/** `imageToImage`: see the task's page in the API docs. */
export const imageToImage = /* @__PURE__ */ later("imageToImage");
/** `imageToText`: see the task's page in the API docs. */
export const imageToText = /* @__PURE__ */ later("imageToText");
/** `imageToVideo`: see the task's page in the API docs. */
export const imageToVideo = /* @__PURE__ */ later("imageToVideo");
/** `objectDetection`: see the task's page in the API docs. */
export const objectDetection = /* @__PURE__ */ later("objectDetection");
/** `questionAnswering`: see the task's page in the API docs. */
export const questionAnswering = /* @__PURE__ */ later("questionAnswering");
/** `request`: see the task's page in the API docs. */
export const request = /* @__PURE__ */ later("request");
/** `sentenceSimilarity`: see the task's page in the API docs. */
export const sentenceSimilarity = /* @__PURE__ */ later("sentenceSimilarity");
/** Sends any JSON body with `stream: true` and yields each event's data, parsed (deprecated, as in `@huggingface/inference`). */
export const streamingRequest = /* @__PURE__ */ async function* (...args: Parameters<All["streamingRequest"]>) {
  return yield* (await load()).streamingRequest(...args);
} as All["streamingRequest"];
/** `summarization`: see the task's page in the API docs. */
export const summarization = /* @__PURE__ */ later("summarization");
/** `tableQuestionAnswering`: see the task's page in the API docs. */
export const tableQuestionAnswering = /* @__PURE__ */ later("tableQuestionAnswering");
/** `tabularClassification`: see the task's page in the API docs. */
export const tabularClassification = /* @__PURE__ */ later("tabularClassification");
/** `tabularRegression`: see the task's page in the API docs. */
export const tabularRegression = /* @__PURE__ */ later("tabularRegression");
/** `textClassification`: see the task's page in the API docs. */
export const textClassification = /* @__PURE__ */ later("textClassification");
/** `textToAudio`: see the task's page in the API docs. */
export const textToAudio = /* @__PURE__ */ later("textToAudio");
/** `textToImage`: see the task's page in the API docs. */
export const textToImage = /* @__PURE__ */ later("textToImage");
/** `textToSpeech`: see the task's page in the API docs. */
export const textToSpeech = /* @__PURE__ */ later("textToSpeech");
/** `textToVideo`: see the task's page in the API docs. */
export const textToVideo = /* @__PURE__ */ later("textToVideo");
/** `tokenClassification`: see the task's page in the API docs. */
export const tokenClassification = /* @__PURE__ */ later("tokenClassification");
/** `translation`: see the task's page in the API docs. */
export const translation = /* @__PURE__ */ later("translation");
/** `visualQuestionAnswering`: see the task's page in the API docs. */
export const visualQuestionAnswering = /* @__PURE__ */ later("visualQuestionAnswering");
/** `zeroShotClassification`: see the task's page in the API docs. */
export const zeroShotClassification = /* @__PURE__ */ later("zeroShotClassification");
/** `zeroShotImageClassification`: see the task's page in the API docs. */
export const zeroShotImageClassification = /* @__PURE__ */ later("zeroShotImageClassification");
/** `textGeneration` on a third-party provider (the model's Hub mapping looked up, the provider's format sent). */
export const textGenerationOnProvider = /* @__PURE__ */ later("textGenerationOnProvider");
