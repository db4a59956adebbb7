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

/**
 * Text continued by the model: TGI's `generate`, or the transformers pipeline (hf-inference, an endpoint, `baseUrl`);
 * on a third-party provider (or `"auto"`), the model's Hub mapping looked up and the provider's completions format sent.
 * With a `provider` list or `fallbackModels`, the candidates are tried in order (`features/failover.ts`, loaded on first use).
 */
export const textGeneration = /* @__PURE__ */ later(() => import("./textGeneration"), "textGeneration");
/**
 * TGI's `generate_stream` events as an async iterator. The stream completes at the event whose
 * `generated_text` is a string, even if the server keeps the socket open. A transformers-served
 * model cannot stream: its one answer is yielded as one final event.
 */
export const textGenerationStream = /* @__PURE__ */ laterStream(
  () => import("./textGenerationStream"),
  "textGenerationStream",
);
/**
 * The retired "conversational" task, as older wrappers still call it: the history becomes
 * alternating user/assistant messages plus the new user text, answered by a chat completion.
 */
export const conversational = /* @__PURE__ */ later(() => import("./conversational"), "conversational");
/** Classifies audio (emotion, speaker, language): the classes, most likely first. */
export const audioClassification = /* @__PURE__ */ later(() => import("./audioClassification"), "audioClassification");
/** Audio in, audio out (source separation, enhancement): each audio base64-encoded with its label and type. */
export const audioToAudio = /* @__PURE__ */ later(() => import("./audioToAudio"), "audioToAudio");
/** Transcribes speech: the text heard. */
export const automaticSpeechRecognition = /* @__PURE__ */ later(
  () => import("./automaticSpeechRecognition"),
  "automaticSpeechRecognition",
);
/** Answers a question on a document image (a scan, an invoice). */
export const documentQuestionAnswering = /* @__PURE__ */ later(
  () => import("./documentQuestionAnswering"),
  "documentQuestionAnswering",
);
/** Embeds a text, or several (for semantic search): the vectors as the model answers them. */
export const featureExtraction = /* @__PURE__ */ later(() => import("./featureExtraction"), "featureExtraction");
/** Fills in the masked word of a text (BERT-style models): the candidates, most likely first. */
export const fillMask = /* @__PURE__ */ later(() => import("./fillMask"), "fillMask");
/** Classifies an image: the classes, most likely first. */
export const imageClassification = /* @__PURE__ */ later(() => import("./imageClassification"), "imageClassification");
/** Splits an image into labelled segments, each with its mask (a base64 PNG). The image goes base64 in JSON, with the parameters. */
export const imageSegmentation = /* @__PURE__ */ later(() => import("./imageSegmentation"), "imageSegmentation");
/** Makes an image from an image and a prompt: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export const imageTextToImage = /* @__PURE__ */ later(() => import("./imageTextToImage"), "imageTextToImage");
/** Makes a video from an image and a prompt: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export const imageTextToVideo = /* @__PURE__ */ later(() => import("./imageTextToVideo"), "imageTextToVideo");
/** An image from an image (and a prompt in `parameters`): the image alone is the body; with parameters, JSON with the image base64-encoded. */
export const imageToImage = /* @__PURE__ */ later(() => import("./imageToImage"), "imageToImage");
/** Captions an image. */
export const imageToText = /* @__PURE__ */ later(() => import("./imageToText"), "imageToText");
/** Makes a video from an image: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export const imageToVideo = /* @__PURE__ */ later(() => import("./imageToVideo"), "imageToVideo");
/** Finds the objects in an image: each with its label, score and box. */
export const objectDetection = /* @__PURE__ */ later(() => import("./objectDetection"), "objectDetection");
/** Answers a question from a text that holds the answer. */
export const questionAnswering = /* @__PURE__ */ later(() => import("./questionAnswering"), "questionAnswering");
/**
 * Sends any body to the model (hf-inference or an endpoint) and answers what came back, unchecked: JSON,
 * or a Blob. Deprecated, as in `@huggingface/inference`: use the task functions.
 */
export const request = /* @__PURE__ */ later(() => import("./request"), "request");
/** How similar a sentence is to each of others: one score per sentence. */
export const sentenceSimilarity = /* @__PURE__ */ later(() => import("./sentenceSimilarity"), "sentenceSimilarity");
/**
 * Sends any JSON body with `stream: true` and yields the data of each event, parsed. Deprecated, as in
 * `@huggingface/inference`: use the task functions. Bad input is an InputError from the first `next()`.
 */
export const streamingRequest = /* @__PURE__ */ laterStream(() => import("./streamingRequest"), "streamingRequest");
/** Summarises a text. */
export const summarization = /* @__PURE__ */ later(() => import("./summarization"), "summarization");
/** Answers a question on a table. */
export const tableQuestionAnswering = /* @__PURE__ */ later(
  () => import("./tableQuestionAnswering"),
  "tableQuestionAnswering",
);
/** Predicts the label of each row of a table. */
export const tabularClassification = /* @__PURE__ */ later(
  () => import("./tabularClassification"),
  "tabularClassification",
);
/** Predicts a value for each row of a table. */
export const tabularRegression = /* @__PURE__ */ later(() => import("./tabularRegression"), "tabularRegression");
/** Classifies a text (sentiment, topic): the classes, most likely first. */
export const textClassification = /* @__PURE__ */ later(() => import("./textClassification"), "textClassification");
/** Makes audio (music, sounds) from a text: a Blob of the server's media type. */
export const textToAudio = /* @__PURE__ */ later(() => import("./textToAudio"), "textToAudio");
/** Makes an image from a prompt, as a `Blob` (unless `outputType` asks for a `data:` URL or JSON). */
export const textToImage = /* @__PURE__ */ later(() => import("./textToImage"), "textToImage");
/** Says a text: the audio, as a Blob of the server's media type. */
export const textToSpeech = /* @__PURE__ */ later(() => import("./textToSpeech"), "textToSpeech");
/** Makes a video from a prompt: on the third-party providers that serve it (an InputError, nothing sent, on hf-inference and endpoints). */
export const textToVideo = /* @__PURE__ */ later(() => import("./textToVideo"), "textToVideo");
/** Labels the words of a text (named entities, parts of speech): the labelled spans. */
export const tokenClassification = /* @__PURE__ */ later(() => import("./tokenClassification"), "tokenClassification");
/** Translates a text (the languages are the model's, or `parameters.src_lang` / `tgt_lang`). */
export const translation = /* @__PURE__ */ later(() => import("./translation"), "translation");
/** Answers a question on a picture. */
export const visualQuestionAnswering = /* @__PURE__ */ later(
  () => import("./visualQuestionAnswering"),
  "visualQuestionAnswering",
);
/** Picks the labels that fit a text best among `parameters.candidate_labels`, most likely first. */
export const zeroShotClassification = /* @__PURE__ */ later(
  () => import("./zeroShotClassification"),
  "zeroShotClassification",
);
/** Picks the labels that fit an image best among `parameters.candidate_labels`. The image goes base64 in JSON as `inputs.image`. */
export const zeroShotImageClassification = /* @__PURE__ */ later(
  () => import("./zeroShotImageClassification"),
  "zeroShotImageClassification",
);
/** `textGeneration` on a third-party provider (or `"auto"`): the model's Hub mapping looked up, the provider's format sent. */
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
 * A response of the OpenAI Responses API streamed as its events (`response.created`, …,
 * `response.output_text.delta`, …, `response.completed`), for `for await`. The stream ends at
 * `response.completed` or `response.incomplete`; `response.failed` and `error` events are thrown as typed
 * errors. Nothing is thrown synchronously: bad input is an InputError from the first `next()`.
 * With `observe`, the same source is tapped by the observer (`features/observe.ts`, loaded on first use).
 */
export const responsesStream = /* @__PURE__ */ laterStream(() => import("./responsesStream"), "responsesStream");
