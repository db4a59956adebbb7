// Compiled with tasks-io*.ts against hfkit only (tsconfig.hfkit.json): where hfkit is stricter than 4.13,
// a typo beside a tasks-typed input is still a type error (4.13's arguments, with tasks' index signatures,
// take any field). `collectStream` is hfkit's: this file does not compile if the alias resolves elsewhere.
import type { ChatCompletionInput, ChatCompletionInputMessage } from "@huggingface/tasks";
import type * as Tasks from "@huggingface/tasks";
import type * as Ours from "@huggingface/inference";
import { InferenceClient, chatCompletionStream, collectStream } from "@huggingface/inference";

declare const client: InferenceClient;
declare const input: ChatCompletionInput;
declare const said: ChatCompletionInputMessage;
const model = "org/model";

export async function typosBesideTasksInputs(): Promise<unknown[]> {
  // @ts-expect-error `max_token` is not a field: `max_tokens` is
  const a = await client.chatCompletion({ ...input, model, max_token: 20 });
  // @ts-expect-error `temprature` is not a field
  const b = await collectStream(chatCompletionStream({ ...input, model, temprature: 0.3 }));
  // @ts-expect-error a message has `content`, not `contnet`
  const c = await client.chatCompletion({ ...input, model, messages: [{ ...said, contnet: "Hi" }] });
  // @ts-expect-error `top_logprob` is not a field: `top_logprobs` is
  const d = await client.chatCompletion({ ...input, model, logprobs: true, top_logprob: 3 });
  return [a, b, c, d];
}

// A token that may be unset (`process.env.HF_TOKEN`), taken with `exactOptionalPropertyTypes` on too.
export function unsetToken(token: string | undefined, input: ChatCompletionInput): Promise<unknown> {
  return client.chatCompletion({ ...input, accessToken: token, model });
}

// hfkit's types named as @huggingface/tasks names them: each input takes the tasks value, each output
// is a tasks value. The exceptions are 4.13's too: FeatureExtractionOutput (one text, many, or token-level
// vectors) and TextGenerationStreamOutput (`generated_text` and `details` null before the last event).
type Holds<T extends true> = T;
type Fits<From, To> = [From] extends [To] ? true : false;
export type InputsTakeTasksValues = [
  Holds<Fits<Tasks.ChatCompletionInput, Ours.ChatCompletionInput>>,
  Holds<Fits<Tasks.ChatCompletionInputMessage, Ours.ChatCompletionInputMessage>>,
  Holds<Fits<Tasks.TextGenerationInput, Ours.TextGenerationInput>>,
  Holds<Fits<Tasks.TextGenerationInputGenerateParameters, Ours.TextGenerationInputGenerateParameters>>,
];
export type OutputsAreTasksValues = [
  Holds<Fits<Ours.AudioClassificationOutput, Tasks.AudioClassificationOutput>>,
  Holds<Fits<Ours.AutomaticSpeechRecognitionOutput, Tasks.AutomaticSpeechRecognitionOutput>>,
  Holds<Fits<Ours.ChatCompletionOutput, Tasks.ChatCompletionOutput>>,
  Holds<Fits<Ours.ChatCompletionOutputComplete, Tasks.ChatCompletionOutputComplete>>,
  Holds<Fits<Ours.ChatCompletionOutputMessage, Tasks.ChatCompletionOutputMessage>>,
  Holds<Fits<Ours.ChatCompletionStreamOutput, Tasks.ChatCompletionStreamOutput>>,
  Holds<Fits<Ours.ChatCompletionStreamOutputChoice, Tasks.ChatCompletionStreamOutputChoice>>,
  Holds<Fits<Ours.ChatCompletionStreamOutputDelta, Tasks.ChatCompletionStreamOutputDelta>>,
  Holds<Fits<Ours.DocumentQuestionAnsweringOutputElement, Tasks.DocumentQuestionAnsweringOutputElement>>,
  Holds<Fits<Ours.FillMaskOutput, Tasks.FillMaskOutput>>,
  Holds<Fits<Ours.FillMaskOutputElement, Tasks.FillMaskOutputElement>>,
  Holds<Fits<Ours.ImageClassificationOutput, Tasks.ImageClassificationOutput>>,
  Holds<Fits<Ours.ImageSegmentationOutput, Tasks.ImageSegmentationOutput>>,
  Holds<Fits<Ours.ImageSegmentationOutputElement, Tasks.ImageSegmentationOutputElement>>,
  Holds<Fits<Ours.ImageToTextOutput, Tasks.ImageToTextOutput>>,
  Holds<Fits<Ours.ObjectDetectionOutput, Tasks.ObjectDetectionOutput>>,
  Holds<Fits<Ours.ObjectDetectionOutputElement, Tasks.ObjectDetectionOutputElement>>,
  Holds<Fits<Ours.QuestionAnsweringOutputElement, Tasks.QuestionAnsweringOutputElement>>,
  Holds<Fits<Ours.SentenceSimilarityOutput, Tasks.SentenceSimilarityOutput>>,
  Holds<Fits<Ours.SummarizationOutput, Tasks.SummarizationOutput>>,
  Holds<Fits<Ours.TableQuestionAnsweringOutputElement, Tasks.TableQuestionAnsweringOutputElement>>,
  Holds<Fits<Ours.TextClassificationOutput, Tasks.TextClassificationOutput>>,
  Holds<Fits<Ours.TextGenerationOutput, Tasks.TextGenerationOutput>>,
  Holds<Fits<Ours.TextGenerationOutputBestOfSequence, Tasks.TextGenerationOutputBestOfSequence>>,
  Holds<Fits<Ours.TextGenerationOutputDetails, Tasks.TextGenerationOutputDetails>>,
  Holds<Fits<Ours.TextGenerationOutputFinishReason, Tasks.TextGenerationOutputFinishReason>>,
  Holds<Fits<Ours.TextGenerationOutputPrefillToken, Tasks.TextGenerationOutputPrefillToken>>,
  Holds<Fits<Ours.TokenClassificationOutput, Tasks.TokenClassificationOutput>>,
  Holds<Fits<Ours.TokenClassificationOutputElement, Tasks.TokenClassificationOutputElement>>,
  Holds<Fits<Ours.TranslationOutput, Tasks.TranslationOutput>>,
  Holds<Fits<Ours.VisualQuestionAnsweringOutputElement, Tasks.VisualQuestionAnsweringOutputElement>>,
  Holds<Fits<Ours.ZeroShotClassificationOutput, Tasks.ZeroShotClassificationOutput>>,
  Holds<Fits<Ours.ZeroShotImageClassificationOutput, Tasks.ZeroShotImageClassificationOutput>>,
];
// @ts-expect-error the stream's events, 4.13's as hfkit's, have `generated_text: null` before the last one
export type StreamEventsAreNot = Holds<Fits<Ours.TextGenerationStreamOutput, Tasks.TextGenerationStreamOutput>>;
