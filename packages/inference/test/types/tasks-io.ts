// Every task, both ways, typed with @huggingface/tasks as a 4.13 user types it: a tasks-typed input
// (any value of the type, not one literal) spread into the call with `model` and `provider`, and the
// awaited answer (each chunk of a stream) assigned to the tasks output type; by the client and standalone.
// Compiled twice (see types.test.ts): `@huggingface/inference` resolved to hfkit's src
// (tsconfig.hfkit.json) and to the real 4.13 (tsconfig.hf.json). Where 4.13's own answer or arguments
// do not fit the tasks type, the line is left out and a comment says why.
import type {
  AudioClassificationInput,
  AudioClassificationOutput,
  AutomaticSpeechRecognitionInput,
  AutomaticSpeechRecognitionOutput,
  ChatCompletionInput,
  ChatCompletionInputMessage,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
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
  TextGenerationInput,
  TextGenerationOutput,
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
import type {
  AudioClassificationArgs,
  AudioToAudioArgs,
  AutomaticSpeechRecognitionArgs,
  BaseArgs,
  DocumentQuestionAnsweringArgs,
  FeatureExtractionArgs,
  FillMaskArgs,
  ImageClassificationArgs,
  ImageSegmentationArgs,
  ImageTextToImageArgs,
  ImageTextToVideoArgs,
  ImageToImageArgs,
  ImageToTextArgs,
  ImageToVideoArgs,
  ObjectDetectionArgs,
  QuestionAnsweringArgs,
  RequestArgs,
  SentenceSimilarityArgs,
  SummarizationArgs,
  TableQuestionAnsweringArgs,
  TabularClassificationArgs,
  TabularRegressionArgs,
  TextClassificationArgs,
  TextToAudioArgs,
  TextToImageArgs,
  TextToVideoArgs,
  TextToVideoOutput,
  TokenClassificationArgs,
  TranslationArgs,
  VisualQuestionAnsweringArgs,
  ZeroShotClassificationArgs,
  ZeroShotImageClassificationArgs,
} from "@huggingface/inference";
import {
  InferenceClient,
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
} from "@huggingface/inference";

declare const accessToken: string;
declare const client: InferenceClient;
declare const picture: Blob;
declare const audio: Blob;
const model = "org/model";
const provider = "hf-inference";

export async function chat(input: ChatCompletionInput, history: ChatCompletionInputMessage[]): Promise<unknown[]> {
  const a: ChatCompletionOutput = await client.chatCompletion({ ...input, model, provider });
  const b: ChatCompletionOutput = await chatCompletion({ ...input, accessToken, model, provider });
  const c: ChatCompletionOutput = await client.chatCompletion({ model, messages: history, max_tokens: 9 });
  // The answer's message, tool calls and all, goes back into a tasks-typed history.
  const ours = await client.chatCompletion({ ...input, model });
  const next: ChatCompletionInputMessage[] = [...history, a.choices[0].message, ours.choices[0].message];
  await chatCompletion({ ...input, model, messages: next });
  for await (const chunk of client.chatCompletionStream({ ...input, model, provider })) {
    const d: ChatCompletionStreamOutput = chunk;
    void d;
  }
  for await (const chunk of chatCompletionStream({ ...input, accessToken, model })) {
    const e: ChatCompletionStreamOutput = chunk;
    void e;
  }
  // On an endpoint, the tasks value is the whole argument.
  const f: ChatCompletionOutput = await client.endpoint("https://e.example").chatCompletion(input);
  return [a, b, c, f];
}

// Every field @huggingface/tasks declares, written out as a literal (an unknown field would be an error).
export function everyChatField(): Promise<ChatCompletionOutput> {
  const tool = { name: "f", description: "d", parameters: { type: "object" } };
  const call = { id: "call_1", type: "function", function: tool };
  const said = [{ type: "text" as const, text: "Hi" }, { type: "image_url" as const, image_url: { url: "https://i" } }];
  return client.chatCompletion({
    model,
    provider,
    messages: [{ role: "user", content: said, name: "me" }, { role: "assistant", tool_calls: [call] }],
    frequency_penalty: 0,
    logit_bias: [0.5],
    logprobs: true,
    max_tokens: 9,
    n: 1,
    presence_penalty: 0,
    reasoning_effort: "low",
    response_format: { type: "json_schema", json_schema: { name: "x", schema: {}, strict: true, description: "d" } },
    seed: 1,
    stop: ["\n"],
    stream: false,
    stream_options: { include_usage: true },
    temperature: 0,
    tool_choice: { function: { name: "f" } },
    tool_prompt: "Use a tool",
    tools: [{ type: "function", function: tool }],
    top_logprobs: 2,
    top_p: 1,
  });
}

export async function generation(input: TextGenerationInput): Promise<unknown[]> {
  const c: TextGenerationOutput = await client.endpoint("https://e.example").textGeneration(input);
  const a: TextGenerationOutput = await client.textGeneration({ ...input, model, provider });
  const b: TextGenerationOutput = await textGeneration({ ...input, accessToken, model, provider });
  // 4.13's chunk has `generated_text: string | null` and `details: … | null` where the tasks'
  // TextGenerationStreamOutput has them optional, and its `index` is optional where tasks requires it:
  // neither package's chunk is assigned to the tasks type.
  for await (const chunk of client.textGenerationStream({ ...input, model, provider })) void chunk.token.text;
  for await (const chunk of textGenerationStream({ ...input, accessToken, model })) void chunk.token.text;
  return [a, b, c];
}

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

// The custom calls take a tasks input as it is; the answer is typed by the caller.
export async function custom(input: ChatCompletionInput, fill: FillMaskInput): Promise<unknown[]> {
  const a: ChatCompletionOutput = await client.request<ChatCompletionOutput>({ ...input, model, provider });
  const b: FillMaskOutput = await request<FillMaskOutput>({ ...fill, accessToken, model }, { task: "fill-mask" });
  for await (const chunk of streamingRequest<ChatCompletionStreamOutput>({ ...input, model })) void chunk.choices;
  for await (const chunk of client.streamingRequest<ChatCompletionStreamOutput>({ ...input, model })) void chunk.id;
  return [a, b];
}

// What both packages refuse, so that this file cannot pass against a package typed `any`.
export async function refused(
  input: ChatCompletionInput,
  generate: TextGenerationInput,
  fill: FillMaskInput,
): Promise<unknown[]> {
  // @ts-expect-error `provider` is a string
  const a = await client.chatCompletion({ ...input, model, provider: 42 });
  // @ts-expect-error `max_new_tokens` is a number
  const b = await client.textGeneration({ ...generate, model, parameters: { max_new_tokens: "5" } });
  // @ts-expect-error fill-mask's `inputs` is a string
  const c = await fillMask({ ...fill, model, inputs: 42 });
  // @ts-expect-error an answer's id is a string
  const d: number = (await chatCompletion({ ...input, model })).id;
  // @ts-expect-error a classification answer is a list
  const e: TextClassificationOutput[number] = await client.textClassification({ model, inputs: "I like you" });
  return [a, b, c, d, e];
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

// The same inputs under 4.13's own names for each task's arguments, as its users annotate them.
declare const fillIn: FillMaskInput;
declare const qaIn: QuestionAnsweringInput;
declare const similarIn: SentenceSimilarityInput;
declare const summaryIn: SummarizationInput;
declare const tableIn: TableQuestionAnsweringInput;
declare const classifyIn: TextClassificationInput;
declare const tokensIn: TokenClassificationInput;
declare const translateIn: TranslationInput;
declare const zeroIn: ZeroShotClassificationInput;
declare const embedIn: FeatureExtractionInput;
declare const heardIn: AudioClassificationInput;
declare const spokenIn: AutomaticSpeechRecognitionInput;
declare const seenIn: ImageClassificationInput;
declare const segmentedIn: ImageSegmentationInput;
declare const detectedIn: ObjectDetectionInput;
declare const captionedIn: ImageToTextInput;
declare const labelledIn: ZeroShotImageClassificationInput;
declare const drawnIn: TextToImageInput;
declare const redrawnIn: ImageToImageInput;
declare const playedIn: TextToAudioInput;
declare const filmedIn: TextToVideoInput;
declare const animatedIn: ImageToVideoInput;
declare const editedIn: ImageTextToImageInput;
declare const movedIn: ImageTextToVideoInput;

export function namedArgs(): unknown[] {
  const base: BaseArgs = { accessToken, model, provider };
  const question = { image: picture, question: "?" };
  const table = { data: { a: ["1"] } };
  const args: [
    FillMaskArgs,
    QuestionAnsweringArgs,
    SentenceSimilarityArgs,
    SummarizationArgs,
    TableQuestionAnsweringArgs,
    TextClassificationArgs,
    TokenClassificationArgs,
    TranslationArgs,
    ZeroShotClassificationArgs,
    FeatureExtractionArgs,
    AudioClassificationArgs,
    AutomaticSpeechRecognitionArgs,
    ImageClassificationArgs,
    ImageSegmentationArgs,
    ObjectDetectionArgs,
    ImageToTextArgs,
    ZeroShotImageClassificationArgs,
    TextToImageArgs,
    ImageToImageArgs,
    TextToAudioArgs,
    TextToVideoArgs,
    ImageToVideoArgs,
    ImageTextToImageArgs,
    ImageTextToVideoArgs,
    DocumentQuestionAnsweringArgs,
    VisualQuestionAnsweringArgs,
    AudioToAudioArgs,
    TabularClassificationArgs,
    TabularRegressionArgs,
    RequestArgs,
  ] = [
    { ...base, ...fillIn },
    { ...base, ...qaIn },
    { ...base, ...similarIn },
    { ...base, ...summaryIn },
    { ...base, ...tableIn },
    { ...base, ...classifyIn },
    { ...base, ...tokensIn },
    { ...base, ...translateIn },
    { ...base, ...zeroIn },
    { ...base, ...embedIn },
    { ...base, ...heardIn },
    { ...base, ...spokenIn },
    { ...base, ...seenIn },
    { ...base, ...segmentedIn },
    { ...base, ...detectedIn },
    { ...base, ...captionedIn },
    { ...base, ...labelledIn },
    { ...base, ...drawnIn },
    { ...base, ...redrawnIn },
    { ...base, ...playedIn },
    { ...base, ...filmedIn },
    { ...base, ...animatedIn },
    { ...base, ...editedIn },
    { ...base, ...movedIn },
    { ...base, inputs: question },
    { ...base, inputs: question },
    { ...base, inputs: audio },
    { ...base, inputs: table },
    { ...base, inputs: table },
    { ...base, ...fillIn },
  ];
  const answer: TextToVideoOutput = picture;
  return [args, answer];
}
