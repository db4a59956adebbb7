/**
 * The tasks that are not chat nor text generation, and the Responses API, as the package exports them: each loaded
 * on the first call of its function, from its own module. Importing the package for chat loads none of them; a
 * bundler makes each a chunk of its own (or, bundling to one file, keeps only those the app names). Their modules
 * are listed once in `all.ts`; `test/lazy.test.ts` checks the two agree.
 */
import { once } from "./once";

/** `name` of the module `load` gives, loaded on its first call. */
function later<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  const get = once(load);
  return (async (...args: unknown[]) => ((await get())[name] as (...a: unknown[]) => unknown)(...args)) as M[K];
}

/** A streaming `name` of the module `load` gives, loaded on the first `next()`. */
function laterStream<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  const get = once(load);
  return async function* (...args: unknown[]) {
    return yield* ((await get())[name] as (...a: unknown[]) => AsyncGenerator<unknown, unknown, unknown>)(...args);
  } as M[K];
}

/** Text continued by the model: see the task's page in the API docs. */
export const textGeneration = /* @__PURE__ */ later(() => import("./textGeneration"), "textGeneration");
/** Text continued by the model, streamed token by token: see the task's page in the API docs. */
export const textGenerationStream = /* @__PURE__ */ laterStream(
  () => import("./textGenerationStream"),
  "textGenerationStream",
);
/** The retired "conversational" task, answered by a chat completion. */
export const conversational = /* @__PURE__ */ later(() => import("./conversational"), "conversational");
/** `audioClassification`: see the task's page in the API docs. */
export const audioClassification = /* @__PURE__ */ later(() => import("./audioClassification"), "audioClassification");
/** `audioToAudio`: see the task's page in the API docs. */
export const audioToAudio = /* @__PURE__ */ later(() => import("./audioToAudio"), "audioToAudio");
/** `automaticSpeechRecognition`: see the task's page in the API docs. */
export const automaticSpeechRecognition = /* @__PURE__ */ later(
  () => import("./automaticSpeechRecognition"),
  "automaticSpeechRecognition",
);
/** `documentQuestionAnswering`: see the task's page in the API docs. */
export const documentQuestionAnswering = /* @__PURE__ */ later(
  () => import("./documentQuestionAnswering"),
  "documentQuestionAnswering",
);
/** `featureExtraction`: see the task's page in the API docs. */
export const featureExtraction = /* @__PURE__ */ later(() => import("./featureExtraction"), "featureExtraction");
/** `fillMask`: see the task's page in the API docs. */
export const fillMask = /* @__PURE__ */ later(() => import("./fillMask"), "fillMask");
/** `imageClassification`: see the task's page in the API docs. */
export const imageClassification = /* @__PURE__ */ later(() => import("./imageClassification"), "imageClassification");
/** `imageSegmentation`: see the task's page in the API docs. */
export const imageSegmentation = /* @__PURE__ */ later(() => import("./imageSegmentation"), "imageSegmentation");
/** `imageTextToImage`: see the task's page in the API docs. */
export const imageTextToImage = /* @__PURE__ */ later(() => import("./imageTextToImage"), "imageTextToImage");
/** `imageTextToVideo`: see the task's page in the API docs. */
export const imageTextToVideo = /* @__PURE__ */ later(() => import("./imageTextToVideo"), "imageTextToVideo");
/** `imageToImage`: see the task's page in the API docs. */
export const imageToImage = /* @__PURE__ */ later(() => import("./imageToImage"), "imageToImage");
/** `imageToText`: see the task's page in the API docs. */
export const imageToText = /* @__PURE__ */ later(() => import("./imageToText"), "imageToText");
/** `imageToVideo`: see the task's page in the API docs. */
export const imageToVideo = /* @__PURE__ */ later(() => import("./imageToVideo"), "imageToVideo");
/** `objectDetection`: see the task's page in the API docs. */
export const objectDetection = /* @__PURE__ */ later(() => import("./objectDetection"), "objectDetection");
/** `questionAnswering`: see the task's page in the API docs. */
export const questionAnswering = /* @__PURE__ */ later(() => import("./questionAnswering"), "questionAnswering");
/** `request`: see the task's page in the API docs. */
export const request = /* @__PURE__ */ later(() => import("./request"), "request");
/** `sentenceSimilarity`: see the task's page in the API docs. */
export const sentenceSimilarity = /* @__PURE__ */ later(() => import("./sentenceSimilarity"), "sentenceSimilarity");
/** Sends any JSON body with `stream: true` and yields each event's data, parsed (deprecated, as in `@huggingface/inference`). */
export const streamingRequest = /* @__PURE__ */ laterStream(() => import("./streamingRequest"), "streamingRequest");
/** `summarization`: see the task's page in the API docs. */
export const summarization = /* @__PURE__ */ later(() => import("./summarization"), "summarization");
/** `tableQuestionAnswering`: see the task's page in the API docs. */
export const tableQuestionAnswering = /* @__PURE__ */ later(
  () => import("./tableQuestionAnswering"),
  "tableQuestionAnswering",
);
/** `tabularClassification`: see the task's page in the API docs. */
export const tabularClassification = /* @__PURE__ */ later(
  () => import("./tabularClassification"),
  "tabularClassification",
);
/** `tabularRegression`: see the task's page in the API docs. */
export const tabularRegression = /* @__PURE__ */ later(() => import("./tabularRegression"), "tabularRegression");
/** `textClassification`: see the task's page in the API docs. */
export const textClassification = /* @__PURE__ */ later(() => import("./textClassification"), "textClassification");
/** `textToAudio`: see the task's page in the API docs. */
export const textToAudio = /* @__PURE__ */ later(() => import("./textToAudio"), "textToAudio");
/** `textToImage`: see the task's page in the API docs. */
export const textToImage = /* @__PURE__ */ later(() => import("./textToImage"), "textToImage");
/** `textToSpeech`: see the task's page in the API docs. */
export const textToSpeech = /* @__PURE__ */ later(() => import("./textToSpeech"), "textToSpeech");
/** `textToVideo`: see the task's page in the API docs. */
export const textToVideo = /* @__PURE__ */ later(() => import("./textToVideo"), "textToVideo");
/** `tokenClassification`: see the task's page in the API docs. */
export const tokenClassification = /* @__PURE__ */ later(() => import("./tokenClassification"), "tokenClassification");
/** `translation`: see the task's page in the API docs. */
export const translation = /* @__PURE__ */ later(() => import("./translation"), "translation");
/** `visualQuestionAnswering`: see the task's page in the API docs. */
export const visualQuestionAnswering = /* @__PURE__ */ later(
  () => import("./visualQuestionAnswering"),
  "visualQuestionAnswering",
);
/** `zeroShotClassification`: see the task's page in the API docs. */
export const zeroShotClassification = /* @__PURE__ */ later(
  () => import("./zeroShotClassification"),
  "zeroShotClassification",
);
/** `zeroShotImageClassification`: see the task's page in the API docs. */
export const zeroShotImageClassification = /* @__PURE__ */ later(
  () => import("./zeroShotImageClassification"),
  "zeroShotImageClassification",
);
/** `textGeneration` on a third-party provider (the model's Hub mapping looked up, the provider's format sent). */
export const textGenerationOnProvider = /* @__PURE__ */ later(
  () => import("./textGenerationOnProvider"),
  "textGenerationOnProvider",
);
/**
 * One response of the OpenAI Responses API, not streamed: served natively where the server has the API
 * (the HF router, vLLM), else over chat completions (TGI, the transformers pipeline) and made a response.
 * Rejects with a typed {@link InferenceError}; bad input is an InputError before any request.
 */
export const responses = /* @__PURE__ */ later(() => import("./responses"), "responses");
/**
 * A response of the OpenAI Responses API streamed as its events (`response.created`, ...,
 * `response.output_text.delta`, ..., `response.completed`), for `for await`. The stream ends at
 * `response.completed` or `response.incomplete`; `response.failed` and `error` events are thrown as typed
 * errors. Nothing is thrown synchronously: bad input is an InputError from the first `next()`.
 */
export const responsesStream = /* @__PURE__ */ laterStream(() => import("./responsesStream"), "responsesStream");
