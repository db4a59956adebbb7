/**
 * The audio, image and multimodal tasks: arguments and answers shaped like `@huggingface/tasks`.
 * A binary input is a `Blob` or an `ArrayBuffer`; the older `data` field is taken too, as there.
 */
import type { BaseArgs } from "./base";
import type {
  ClassificationOutputElement,
  ClassificationParameters,
  QuestionAnsweringOutputElement,
  TaskParameters,
} from "./textTasks";

/** An audio file or an image, sent as the request body (or base64 in a JSON body). */
export type BinaryInput = Blob | ArrayBuffer;

/** A binary input as `inputs`, or as `@huggingface/inference`'s older `data`. */
export type BinaryArgs<P = TaskParameters> = BaseArgs &
  (
    | {
        /** The audio or image. */
        inputs: BinaryInput;
        /** The pipeline's parameters: not sent with a binary body (the pipeline reads the bytes alone), as `@huggingface/inference` does. */
        parameters?: P;
      }
    | {
        /** The audio or image (the older name of `inputs`). */
        data: BinaryInput;
      }
  );

/** `audioClassification`'s arguments. */
export type AudioClassificationArgs = BinaryArgs<ClassificationParameters>;
/** The classes, most likely first. */
export type AudioClassificationOutput = ClassificationOutputElement[];

/** `audioToAudio`'s arguments. */
export type AudioToAudioArgs = BinaryArgs;
/** One audio the model made (a separated source, an enhanced signal). */
export interface AudioToAudioOutput {
  /** The audio, base64-encoded. */
  blob: string;
  /** Its media type, e.g. `audio/flac`. */
  "content-type": string;
  /** What it is (model specific). */
  label: string;
}

/** `automaticSpeechRecognition`'s arguments. */
export type AutomaticSpeechRecognitionArgs = BinaryArgs;
/** The transcription. */
export interface AutomaticSpeechRecognitionOutput {
  /** The text heard. */
  text: string;
  /** Timed pieces, with `return_timestamps`. */
  chunks?: {
    /** The piece's text. */
    text: string;
    /** Its start and end, in seconds. */
    timestamp: number[];
  }[];
  /** Anything else the server sent. */
  [property: string]: unknown;
}

/** `imageClassification`'s arguments. */
export type ImageClassificationArgs = BinaryArgs<ClassificationParameters>;
/** The classes, most likely first. */
export type ImageClassificationOutput = ClassificationOutputElement[];

/** `objectDetection`'s arguments. */
export type ObjectDetectionArgs = BinaryArgs;
/** One object found. */
export interface ObjectDetectionOutputElement {
  /** Where it is, in pixels. */
  box: {
    /** Left edge. */
    xmin: number;
    /** Top edge. */
    ymin: number;
    /** Right edge. */
    xmax: number;
    /** Bottom edge. */
    ymax: number;
    /** Anything else the server sent. */
    [property: string]: unknown;
  };
  /** What it is. */
  label: string;
  /** How likely. */
  score: number;
  /** Anything else the server sent. */
  [property: string]: unknown;
}
/** The objects found. */
export type ObjectDetectionOutput = ObjectDetectionOutputElement[];

/** `imageToText`'s arguments. */
export type ImageToTextArgs = BinaryArgs;
/** The caption. */
export interface ImageToTextOutput {
  /** The text. */
  generated_text?: string;
  /** In `@huggingface/tasks`' type (required, `unknown`); servers send `generated_text`. */
  generatedText: unknown;
  /** Anything else the server sent. */
  [property: string]: unknown;
}

/** An image and, for some tasks, the parameters sent with it as JSON (the image base64-encoded). */
export type ImageArgs<P = TaskParameters> = BaseArgs & {
  /** The image. */
  inputs: BinaryInput;
  /** The pipeline's parameters. */
  parameters?: P;
};

/** `imageSegmentation`'s arguments (sent as JSON, the image base64-encoded). */
export type ImageSegmentationArgs = ImageArgs;
/** One segment. */
export interface ImageSegmentationOutputElement {
  /** What it is. */
  label: string;
  /** Its mask: a base64-encoded PNG. */
  mask: string;
  /** How likely. */
  score?: number;
  /** Anything else the server sent. */
  [property: string]: unknown;
}
/** The segments. */
export type ImageSegmentationOutput = ImageSegmentationOutputElement[];

/** `imageToImage`'s arguments: the image alone is sent as the body; with `parameters`, as JSON (base64). */
export type ImageToImageArgs = ImageArgs;

/** `zeroShotImageClassification`: an image and the labels to choose from. */
export type ZeroShotImageClassificationArgs = BaseArgs & {
  /** The image, or (the older form) `{ image }`. */
  inputs:
    | BinaryInput
    | {
        /** The image. */
        image: BinaryInput;
      };
  /** The labels, and how to ask. */
  parameters: TaskParameters & {
    /** The labels to choose from (at least one). */
    candidate_labels: string[];
    /** The sentence each label is put in, with `{}` for the label. */
    hypothesis_template?: string;
  };
};
/** The labels, most likely first. */
export type ZeroShotImageClassificationOutput = ClassificationOutputElement[];

/** `documentQuestionAnswering` and `visualQuestionAnswering`: a question on an image. */
export type ImageQuestionArgs = BaseArgs & {
  /** The question and the image. */
  inputs: {
    /** The document or picture. */
    image: Blob;
    /** The question. */
    question: string;
  };
  /** The pipeline's parameters (`top_k`, ...). */
  parameters?: TaskParameters;
};
/** `documentQuestionAnswering`'s arguments. */
export type DocumentQuestionAnsweringArgs = ImageQuestionArgs;
/** The answer found in the document: a question-answering answer whose `start` and `end` count words, not characters. */
export type DocumentQuestionAnsweringOutputElement = QuestionAnsweringOutputElement;
/** `visualQuestionAnswering`'s arguments. */
export type VisualQuestionAnsweringArgs = ImageQuestionArgs;
/** The answer. */
export interface VisualQuestionAnsweringOutputElement {
  /** The answer. */
  answer: string;
  /** How likely. */
  score: number;
  /** Anything else the server sent. */
  [property: string]: unknown;
}

/** A text for the tasks that answer audio or an image. */
export type TextToMediaArgs = BaseArgs & {
  /** The text (the prompt, or what to say). */
  inputs: string;
  /** The pipeline's parameters (`width`, `height`, `num_inference_steps`, `generation_parameters`, ...). */
  parameters?: TaskParameters;
};
/** `textToImage`'s arguments. */
export type TextToImageArgs = TextToMediaArgs;
/** `textToSpeech`'s arguments. */
export type TextToSpeechArgs = TextToMediaArgs;
/** `textToAudio`'s arguments. */
export type TextToAudioArgs = TextToMediaArgs;
/** `textToVideo`'s arguments. */
export type TextToVideoArgs = TextToMediaArgs;
/** `imageToVideo`, `imageTextToImage`, `imageTextToVideo`: an image (optional for the last two) and parameters. */
export type ImageToMediaArgs = BaseArgs & {
  /** The image. */
  inputs?: Blob;
  /** The parameters (`prompt`, ...). */
  parameters?: TaskParameters;
};
/** `imageToVideo`'s arguments (`@huggingface/inference`'s name). */
export type ImageToVideoArgs = ImageToMediaArgs;
/** `imageTextToImage`'s arguments (`@huggingface/inference`'s name). */
export type ImageTextToImageArgs = ImageToMediaArgs;
/** `imageTextToVideo`'s arguments (`@huggingface/inference`'s name). */
export type ImageTextToVideoArgs = ImageToMediaArgs;
/** `textToVideo`'s answer: the video (`@huggingface/inference`'s name). */
export type TextToVideoOutput = Blob;
/** How `textToImage` answers: a `Blob` (default), a `data:` URL, or JSON. */
export type OutputType = "url" | "dataUrl" | "blob" | "json";
/** `textToImage`'s options: the {@link Options} and the form of the answer. */
export interface TextToImageOptions {
  /** `"blob"` (default), `"dataUrl"` or `"json"`; `"url"` is refused on hf-inference, as there. */
  outputType?: OutputType;
}

/** `request` and `streamingRequest`: any body the model's pipeline takes, or a binary `data`. */
export type RequestArgs = BaseArgs & {
  /** A binary body (audio, an image), sent as is. */
  data?: BinaryInput;
  /** Anything else is the JSON body. */
  [property: string]: unknown;
};
/** `request`'s options: the {@link Options}, and the task (its route: `feature-extraction` and `sentence-similarity` have their own). */
export interface RequestOptions {
  /** The pipeline, e.g. `"feature-extraction"`. */
  task?: string;
}
