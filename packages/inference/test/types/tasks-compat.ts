// Code typed with @huggingface/tasks, as written for @huggingface/inference 4.13, with only the import line
// changed: every runtime export hfkit has of 4.13's root, and every method of its InferenceClient.
// Type-checked under `strict` with no Node types (see types.test.ts). 4.13's exports hfkit does not have
// (`snippets`, `makeRequestOptions`, `makeRequestOptionsFromResolvedModel`, `getProviderHelper`,
// `PROVIDERS`) are listed in docs/migrating-from-huggingface-inference.md, checked by docs.test.ts.
import type {
  AudioClassificationOutput,
  AutomaticSpeechRecognitionOutput,
  DocumentQuestionAnsweringOutputElement,
  FillMaskInput,
  FillMaskOutput,
  ImageClassificationOutput,
  ImageSegmentationOutput,
  ImageToTextOutput,
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
  TextToImageInput,
  TokenClassificationInput,
  TokenClassificationOutput,
  TranslationInput,
  TranslationOutput,
  VisualQuestionAnsweringOutputElement,
  ZeroShotClassificationInput,
  ZeroShotClassificationOutput,
  ZeroShotImageClassificationOutput,
} from "@huggingface/tasks";
import {
  HfInference,
  INFERENCE_PROVIDERS,
  InferenceClient,
  InferenceClientEndpoint,
  InferenceClientError,
  InferenceClientHubApiError,
  InferenceClientInputError,
  InferenceClientProviderApiError,
  InferenceClientProviderOutputError,
  InferenceClientRoutingError,
  PROVIDERS_HUB_ORGS,
  PROVIDERS_OR_POLICIES,
  audioClassification,
  audioToAudio,
  automaticSpeechRecognition,
  chatCompletion,
  chatCompletionStream,
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
  setLogger,
  streamingRequest,
  summarization,
  tableQuestionAnswering,
  tabularClassification,
  tabularRegression,
  textClassification,
  textGeneration,
  textGenerationStream,
  textToAudio,
  textToImage,
  textToSpeech,
  textToVideo,
  tokenClassification,
  translation,
  visualQuestionAnswering,
  zeroShotClassification,
  zeroShotImageClassification,
} from "@hfkit/inference";

declare const token: string | undefined;
declare const audio: Blob;
declare const picture: Blob;
const model = "org/model";

export async function everyMethod(): Promise<unknown[]> {
  const client = new InferenceClient(token, { billTo: "org", retry_on_error: true });
  const fill: FillMaskInput = { inputs: "Paris is the [MASK] of France." };
  const qa: QuestionAnsweringInput = { inputs: { question: "Where?", context: "In Paris." } };
  const similar: SentenceSimilarityInput = { inputs: { source_sentence: "a", sentences: ["b"] } };
  const summary: SummarizationInput = { inputs: "text", parameters: { truncation: "longest_first" } };
  const table: TableQuestionAnsweringInput = { inputs: { question: "?", table: { a: ["1"] } } };
  const classify: TextClassificationInput = { inputs: "I like you", parameters: { top_k: 2 } };
  const image: TextToImageInput = { inputs: "a cat", parameters: { width: 64 } };
  const tokens: TokenClassificationInput = { inputs: "Paris" };
  const translate: TranslationInput = { inputs: "Bonjour", parameters: { tgt_lang: "en" } };
  const zero: ZeroShotClassificationInput = { inputs: "football", parameters: { candidate_labels: ["sport"] } };

  const a: AudioClassificationOutput = await client.audioClassification({ model, data: audio });
  const b = await client.audioToAudio({ model, inputs: audio });
  const c: AutomaticSpeechRecognitionOutput = await client.automaticSpeechRecognition({ model, data: audio });
  const d: DocumentQuestionAnsweringOutputElement = await client.documentQuestionAnswering({
    model,
    inputs: { image: picture, question: "?" },
  });
  const e = await client.featureExtraction({ model, inputs: "Hello" });
  const f: FillMaskOutput = await client.fillMask({ model, ...fill });
  const g: ImageClassificationOutput = await client.imageClassification({ model, data: picture });
  const h: ImageSegmentationOutput = await client.imageSegmentation({ model, inputs: picture });
  const i: Blob = await client.imageToImage({ model, inputs: picture, parameters: { prompt: "a dog" } });
  const j: ImageToTextOutput = await client.imageToText({ model, data: picture });
  const k: ObjectDetectionOutput = await client.objectDetection({ model, data: picture });
  const l: QuestionAnsweringOutputElement = await client.questionAnswering({ model, ...qa });
  const m: SentenceSimilarityOutput = await client.sentenceSimilarity({ model, ...similar });
  const n: SummarizationOutput = await client.summarization({ model, ...summary });
  const o: TableQuestionAnsweringOutputElement = await client.tableQuestionAnswering({ model, ...table });
  const p: number[] = await client.tabularClassification({ model, inputs: { data: { a: ["1"] } } });
  const q: number[] = await client.tabularRegression({ model, inputs: { data: { a: ["1"] } } });
  const r: TextClassificationOutput = await client.textClassification({ model, ...classify });
  const s: Blob = await client.textToAudio({ model, inputs: "a riff" });
  const t: Blob = await client.textToImage({ model, ...image });
  const t2: string = await client.textToImage({ model, ...image }, { outputType: "dataUrl" });
  const u: Blob = await client.textToSpeech({ model, inputs: "Hello" });
  const v: TokenClassificationOutput = await client.tokenClassification({ model, ...tokens });
  const w: TranslationOutput = await client.translation({ model, ...translate });
  const x: VisualQuestionAnsweringOutputElement = await client.visualQuestionAnswering({
    model,
    inputs: { image: picture, question: "?" },
  });
  const y: ZeroShotClassificationOutput = await client.zeroShotClassification({ model, ...zero });
  const z: ZeroShotImageClassificationOutput = await client.zeroShotImageClassification({
    model,
    inputs: picture,
    parameters: { candidate_labels: ["cat"] },
  });
  const videos: Blob[] = await Promise.all([
    client.textToVideo({ model, inputs: "a cat" }),
    client.imageToVideo({ model, inputs: picture }),
    client.imageTextToImage({ model, inputs: picture, parameters: { prompt: "x" } }),
    client.imageTextToVideo({ model, inputs: picture }),
  ]);
  const raw = await client.request<{ ok: boolean }>({ model, inputs: "x" }, { task: "fill-mask" });
  for await (const event of client.streamingRequest<{ token: { text: string } }>({ model, inputs: "x" }))
    void event.token.text;
  const chat = await client.chatCompletion({ model, messages: [{ role: "user", content: "Hi" }] });
  for await (const chunk of client.chatCompletionStream({ model, messages: [{ role: "user", content: "Hi" }] }))
    void chunk.choices[0]?.delta?.content;
  const gen = await client.textGeneration({ model, inputs: "Hi" });
  for await (const event of client.textGenerationStream({ model, inputs: "Hi" })) void event.token.text;
  const endpoint = client.endpoint("https://example.test").fillMask({ inputs: "a [MASK]" });
  return [
    a,
    b[0]?.blob,
    c.text,
    d,
    e,
    f,
    g,
    h,
    i,
    j.generated_text,
    k,
    l,
    m,
    n,
    o,
    p,
    q,
    r,
    s,
    t,
    t2,
    u,
    v,
    w,
    x,
    y,
    z,
    videos,
    raw.ok,
    chat,
    gen,
    endpoint,
  ];
}

export async function everyExport(): Promise<unknown[]> {
  setLogger({ debug() {}, info() {}, warn() {}, error() {}, log() {} });
  const errors = [
    InferenceClientError,
    InferenceClientInputError,
    InferenceClientProviderApiError,
    InferenceClientHubApiError,
    InferenceClientRoutingError,
    InferenceClientProviderOutputError,
  ];
  const clients = [new HfInference(token), new InferenceClientEndpoint(token, { endpointUrl: "https://example.test" })];
  const lists: string[] = [...INFERENCE_PROVIDERS, ...PROVIDERS_OR_POLICIES, PROVIDERS_HUB_ORGS["hf-inference"]];
  const fns = [
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
    textGeneration,
    textGenerationStream,
    textToAudio,
    textToImage,
    textToSpeech,
    textToVideo,
    tokenClassification,
    translation,
    visualQuestionAnswering,
    zeroShotClassification,
    zeroShotImageClassification,
    chatCompletion,
    chatCompletionStream,
  ];
  const standalone = await fillMask({ accessToken: token, model, inputs: "a [MASK]" }, { retry_on_error: false });
  return [errors, clients, lists, fns, standalone];
}
