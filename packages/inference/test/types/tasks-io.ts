// Every task but chat and text generation (tasks-io-chat.ts), both ways, typed with @huggingface/tasks as a
// 4.13 user types it: a tasks-typed input (any value of the type, not one literal) spread into the call with
// `model` and `provider`, and the awaited answer assigned to the tasks output type; by the client and
// standalone. Compiled twice (see types.test.ts): `@huggingface/inference` resolved to hfkit's src
// (tsconfig.hfkit.json) and to the real 4.13 (tsconfig.hf.json). Where 4.13's own answer or arguments do
// not fit the tasks type, the line is left out and a comment says why.
import type {
  AudioClassificationInput,
  AudioClassificationOutput,
  AutomaticSpeechRecognitionInput,
  AutomaticSpeechRecognitionOutput,
  DocumentQuestionAnsweringOutputElement,
  FeatureExtractionInput,
  FillMaskInput,
  FillMaskOutput,
  ImageClassificationInput,
  ImageClassificationOutput,
  ImageSegmentationInput,
  ImageSegmentationOutput,
  ImageTextToImageInput,
  ImageTextToVideoInput,
  ImageToImageInput,
  ImageToTextInput,
  ImageToTextOutput,
  ImageToVideoInput,
  ObjectDetectionInput,
  ObjectDetectionOutput,
  QuestionAnsweringInput,
  QuestionAnsweringOutputElement,
  SentenceSimilarityInput,
  SentenceSimilarityOutput,
  SummarizationInput,
  SummarizationOutput,
  TableQuestionAnsweringInput,
  TableQuestionAnsweringOutputElement,
  TextClassificationInput,
  TextClassificationOutput,
  TextToAudioInput,
  TextToImageInput,
  TextToSpeechInput,
  TextToVideoInput,
  TokenClassificationInput,
  TokenClassificationOutput,
  TranslationInput,
  TranslationOutput,
  VisualQuestionAnsweringOutputElement,
  ZeroShotClassificationInput,
  ZeroShotClassificationOutput,
  ZeroShotImageClassificationInput,
  ZeroShotImageClassificationOutput,
} from "@huggingface/tasks";
import {
  InferenceClient,
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
  sentenceSimilarity,
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
} from "@huggingface/inference";

declare const accessToken: string;
declare const client: InferenceClient;
declare const picture: Blob;
declare const audio: Blob;
const model = "org/model";
const provider = "hf-inference";

export async function text(
  fill: FillMaskInput,
  qa: QuestionAnsweringInput,
  similar: SentenceSimilarityInput,
  summary: SummarizationInput,
  table: TableQuestionAnsweringInput,
  classify: TextClassificationInput,
  tokens: TokenClassificationInput,
  translate: TranslationInput,
  zero: ZeroShotClassificationInput,
  embed: FeatureExtractionInput,
): Promise<unknown[]> {
  return [
    (await client.fillMask({ ...fill, model, provider })) satisfies FillMaskOutput,
    (await fillMask({ ...fill, accessToken, model, provider })) satisfies FillMaskOutput,
    (await client.questionAnswering({ ...qa, model, provider })) satisfies QuestionAnsweringOutputElement,
    (await questionAnswering({ ...qa, accessToken, model })) satisfies QuestionAnsweringOutputElement,
    (await client.sentenceSimilarity({ ...similar, model, provider })) satisfies SentenceSimilarityOutput,
    (await sentenceSimilarity({ ...similar, accessToken, model })) satisfies SentenceSimilarityOutput,
    (await client.summarization({ ...summary, model, provider })) satisfies SummarizationOutput,
    (await summarization({ ...summary, accessToken, model })) satisfies SummarizationOutput,
    (await client.tableQuestionAnswering({ ...table, model })) satisfies TableQuestionAnsweringOutputElement,
    (await tableQuestionAnswering({ ...table, accessToken, model })) satisfies TableQuestionAnsweringOutputElement,
    (await client.textClassification({ ...classify, model, provider })) satisfies TextClassificationOutput,
    (await textClassification({ ...classify, accessToken, model })) satisfies TextClassificationOutput,
    (await client.tokenClassification({ ...tokens, model, provider })) satisfies TokenClassificationOutput,
    (await tokenClassification({ ...tokens, accessToken, model })) satisfies TokenClassificationOutput,
    (await client.translation({ ...translate, model, provider })) satisfies TranslationOutput,
    (await translation({ ...translate, accessToken, model })) satisfies TranslationOutput,
    (await client.zeroShotClassification({ ...zero, model, provider })) satisfies ZeroShotClassificationOutput,
    (await zeroShotClassification({ ...zero, accessToken, model })) satisfies ZeroShotClassificationOutput,
    // The tasks' FeatureExtractionOutput is `number[][]`; 4.13 answers `(number | number[] | number[][])[]`
    // (one text, many, or token-level), so neither is assigned to it.
    (await client.featureExtraction({ ...embed, model, provider })).length,
    (await featureExtraction({ ...embed, accessToken, model })).length,
  ];
}

export async function media(
  heard: AudioClassificationInput,
  spoken: AutomaticSpeechRecognitionInput,
  seen: ImageClassificationInput,
  segmented: ImageSegmentationInput,
  detected: ObjectDetectionInput,
  captioned: ImageToTextInput,
  labelled: ZeroShotImageClassificationInput,
): Promise<unknown[]> {
  return [
    (await client.audioClassification({ ...heard, model, provider })) satisfies AudioClassificationOutput,
    (await audioClassification({ ...heard, accessToken, model })) satisfies AudioClassificationOutput,
    (await client.automaticSpeechRecognition({ ...spoken, model })) satisfies AutomaticSpeechRecognitionOutput,
    (await automaticSpeechRecognition({ ...spoken, accessToken, model })) satisfies AutomaticSpeechRecognitionOutput,
    (await client.imageClassification({ ...seen, model, provider })) satisfies ImageClassificationOutput,
    (await imageClassification({ ...seen, accessToken, model })) satisfies ImageClassificationOutput,
    (await client.imageSegmentation({ ...segmented, model, provider })) satisfies ImageSegmentationOutput,
    (await imageSegmentation({ ...segmented, accessToken, model })) satisfies ImageSegmentationOutput,
    (await client.objectDetection({ ...detected, model, provider })) satisfies ObjectDetectionOutput,
    (await objectDetection({ ...detected, accessToken, model })) satisfies ObjectDetectionOutput,
    (await client.imageToText({ ...captioned, model, provider })) satisfies ImageToTextOutput,
    (await imageToText({ ...captioned, accessToken, model })) satisfies ImageToTextOutput,
    (await client.zeroShotImageClassification({ ...labelled, model })) satisfies ZeroShotImageClassificationOutput,
    (await zeroShotImageClassification({ ...labelled, model })) satisfies ZeroShotImageClassificationOutput,
    // No tasks input type for audio-to-audio; 4.13's own input and answer.
    (await client.audioToAudio({ model, inputs: audio }))[0]?.label,
    (await audioToAudio({ accessToken, model, data: audio }))[0]?.blob,
  ];
}

// The tasks output types of these are objects (`{image: unknown}`, `{audio: Blob, …}`, `{video: unknown}`)
// while 4.13 (and hfkit) answer the Blob itself: the answers are checked as Blobs. A `textToImage` call
// without options is `Promise<string>` in 4.13 (its first overload, `outputType: "url"`, matches an
// absent options argument) though it resolves to a Blob, and `Promise<Blob>` in hfkit: not asserted here.
export async function generated(
  drawn: TextToImageInput,
  redrawn: ImageToImageInput,
  said: TextToSpeechInput,
  played: TextToAudioInput,
  filmed: TextToVideoInput,
  animated: ImageToVideoInput,
  edited: ImageTextToImageInput,
  moved: ImageTextToVideoInput,
): Promise<unknown[]> {
  return [
    await client.textToImage({ ...drawn, model, provider }),
    (await client.textToImage({ ...drawn, model, provider }, { outputType: "blob" })) satisfies Blob,
    (await textToImage({ ...drawn, accessToken, model }, { outputType: "blob" })) satisfies Blob,
    (await textToImage({ ...drawn, accessToken, model }, { outputType: "dataUrl" })) satisfies string,
    (await client.imageToImage({ ...redrawn, model, provider })) satisfies Blob,
    (await imageToImage({ ...redrawn, accessToken, model })) satisfies Blob,
    (await client.textToSpeech({ ...said, model, provider })) satisfies Blob,
    (await textToSpeech({ ...said, accessToken, model })) satisfies Blob,
    (await client.textToAudio({ ...played, model, provider })) satisfies Blob,
    (await textToAudio({ ...played, accessToken, model })) satisfies Blob,
    (await client.textToVideo({ ...filmed, model, provider: "fal-ai" })) satisfies Blob,
    (await textToVideo({ ...filmed, accessToken, model, provider: "fal-ai" })) satisfies Blob,
    (await client.imageToVideo({ ...animated, model, provider: "fal-ai" })) satisfies Blob,
    (await imageToVideo({ ...animated, accessToken, model, provider: "fal-ai" })) satisfies Blob,
    (await client.imageTextToImage({ ...edited, model, provider: "fal-ai" })) satisfies Blob,
    (await imageTextToImage({ ...edited, accessToken, model, provider: "fal-ai" })) satisfies Blob,
    (await client.imageTextToVideo({ ...moved, model, provider: "fal-ai" })) satisfies Blob,
    (await imageTextToVideo({ ...moved, accessToken, model, provider: "fal-ai" })) satisfies Blob,
  ];
}

// The tasks' question inputs type `image` as `unknown`, which 4.13's arguments (`image: Blob`) do not
// take: the inputs are 4.13's, the answers the tasks element types.
export async function questions(): Promise<unknown[]> {
  const inputs = { image: picture, question: "What is the total?" };
  return [
    (await client.documentQuestionAnswering({ inputs, model })) satisfies DocumentQuestionAnsweringOutputElement,
    (await documentQuestionAnswering({ inputs, accessToken, model })) satisfies DocumentQuestionAnsweringOutputElement,
    (await client.visualQuestionAnswering({ inputs, model, provider })) satisfies VisualQuestionAnsweringOutputElement,
    (await visualQuestionAnswering({ inputs, accessToken, model })) satisfies VisualQuestionAnsweringOutputElement,
  ];
}

// No tasks types for the tabular tasks: 4.13's `{inputs: {data}}` and `number[]`.
export async function tabular(): Promise<number[][]> {
  const inputs = { data: { age: ["42"], income: ["1000"] } };
  return [
    await client.tabularClassification({ inputs, model }),
    await tabularClassification({ inputs, accessToken, model }),
    await client.tabularRegression({ inputs, model }),
    await tabularRegression({ inputs, accessToken, model }),
  ];
}
