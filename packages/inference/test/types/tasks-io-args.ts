// The tasks inputs of tasks-io.ts under 4.13's own name for each task's arguments (`FillMaskArgs`, …), as
// its users annotate them. Compiled against hfkit's src and against 4.13.
import type {
  AudioClassificationInput,
  AutomaticSpeechRecognitionInput,
  FeatureExtractionInput,
  FillMaskInput,
  ImageClassificationInput,
  ImageSegmentationInput,
  ImageTextToImageInput,
  ImageTextToVideoInput,
  ImageToImageInput,
  ImageToTextInput,
  ImageToVideoInput,
  ObjectDetectionInput,
  QuestionAnsweringInput,
  SentenceSimilarityInput,
  SummarizationInput,
  TableQuestionAnsweringInput,
  TextClassificationInput,
  TextToAudioInput,
  TextToImageInput,
  TextToVideoInput,
  TokenClassificationInput,
  TranslationInput,
  ZeroShotClassificationInput,
  ZeroShotImageClassificationInput,
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

declare const accessToken: string;
declare const picture: Blob;
declare const audio: Blob;
const model = "org/model";
const provider = "hf-inference";

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
