/**
 * The text and table tasks: arguments and answers shaped like `@huggingface/tasks` (each with its
 * index signature, so values typed with either package fit the other).
 */
import type { BaseArgs } from "./base";

/** A task's `parameters`, passed to the pipeline as they are; the ones hfkit checks are typed in each task's own. */
export interface TaskParameters {
  /** Any parameter the model's pipeline takes. */
  [name: string]: unknown;
}

/** A label and how likely it is: what the classification tasks answer. */
export interface ClassificationOutputElement {
  /** The predicted class. */
  label: string;
  /** Its probability, from 0 to 1. */
  score: number;
  /** Anything else the server sent. */
  [property: string]: unknown;
}

/** The parameters of the classification tasks (text, image, audio). */
export interface ClassificationParameters extends TaskParameters {
  /** How many of the most likely classes to answer (an integer >= 1). */
  top_k?: number;
  /** The function applied to the model's outputs to get the scores. */
  function_to_apply?: "sigmoid" | "softmax" | "none";
}

/** `featureExtraction`: one text or several, as TEI and the sentence-transformers pipeline take them. */
export type FeatureExtractionArgs = BaseArgs & {
  /** The text, or the texts, to embed. */
  inputs: string | string[];
  /** Normalise the embeddings. */
  normalize?: boolean;
  /** The name of the prompt the model defines, prepended to the inputs. */
  prompt_name?: string;
  /** Truncate inputs longer than the model takes. */
  truncate?: boolean;
  /** Which side to truncate. */
  truncation_direction?: "left" | "right";
  /** Passed to the pipeline as they are. */
  parameters?: TaskParameters;
  /** Anything else is sent as is. */
  [property: string]: unknown;
};
/** The embeddings: one vector per input (or per token), as the model answers them. */
export type FeatureExtractionOutput = (number | number[] | number[][])[];

/** `fillMask`: a text with the model's mask token in it. */
export type FillMaskArgs = BaseArgs & {
  /** The text with a mask token (e.g. `[MASK]` or `<mask>`). */
  inputs: string;
  /** The pipeline's parameters. */
  parameters?: TaskParameters & {
    /** How many candidates to answer (an integer >= 1). */
    top_k?: number;
    /** Only score these words. */
    targets?: string[];
  };
};
/** One candidate for the mask. */
export interface FillMaskOutputElement {
  /** Its probability. */
  score: number;
  /** The text with the mask filled in. */
  sequence: string;
  /** The token id. */
  token: number;
  /** The token. */
  token_str?: string;
  /** In `@huggingface/tasks`' type (required, `unknown`); servers do not send it. */
  tokenStr: unknown;
  /** Anything else the server sent. */
  [property: string]: unknown;
}
/** The candidates, most likely first. */
export type FillMaskOutput = FillMaskOutputElement[];

/** `questionAnswering`: a question and the text that holds its answer. */
export type QuestionAnsweringArgs = BaseArgs & {
  /** The question and its context. */
  inputs: {
    /** The question. */
    question: string;
    /** The text to find the answer in. */
    context: string;
  };
  /** The pipeline's parameters (`top_k`, `max_answer_len`, ...). */
  parameters?: TaskParameters;
};
/** An answer found in the context. */
export interface QuestionAnsweringOutputElement {
  /** The answer. */
  answer: string;
  /** Where it ends in the context (characters). */
  end: number;
  /** How likely it is. */
  score: number;
  /** Where it starts in the context (characters). */
  start: number;
  /** Anything else the server sent. */
  [property: string]: unknown;
}

/** `sentenceSimilarity`: one sentence compared with others. */
export type SentenceSimilarityArgs = BaseArgs & {
  /** The sentence and the ones to compare it with. */
  inputs: {
    /** The sentence compared. */
    source_sentence: string;
    /** The sentences it is compared with (at least one). */
    sentences: string[];
  };
  /** Passed to the pipeline as they are. */
  parameters?: TaskParameters;
};
/** One similarity per sentence, in order. */
export type SentenceSimilarityOutput = number[];

/** `summarization` and `translation`: a text. */
export type Text2TextArgs = BaseArgs & {
  /** The text. */
  inputs: string;
  /** The pipeline's parameters (`generate_parameters`, `truncation`, `src_lang`, `tgt_lang`, ...). */
  parameters?: TaskParameters;
};
/** `summarization`'s arguments. */
export type SummarizationArgs = Text2TextArgs;
/** The summary. */
export interface SummarizationOutput {
  /** The summary. */
  summary_text: string;
  /** Anything else the server sent. */
  [property: string]: unknown;
}
/** `translation`'s arguments. */
export type TranslationArgs = Text2TextArgs;
/** The translation. */
export interface TranslationOutput {
  /** The translated text. */
  translation_text: string;
  /** Anything else the server sent. */
  [property: string]: unknown;
}

/** `tableQuestionAnswering`: a question on a table. */
export type TableQuestionAnsweringArgs = BaseArgs & {
  /** The question and the table. */
  inputs: {
    /** The question. */
    question: string;
    /** The table: column name to its cells, every column of the same length. */
    table: Record<string, string[]>;
  };
  /** The pipeline's parameters (`padding`, `sequential`, `truncation`). */
  parameters?: TaskParameters;
};
/** The answer found in the table. */
export interface TableQuestionAnsweringOutputElement {
  /** The aggregation applied (`SUM`, `AVERAGE`, `NONE`, ...). */
  aggregator?: string;
  /** The answer. */
  answer: string;
  /** The cells it comes from. */
  cells: string[];
  /** Their `[row, column]` coordinates. */
  coordinates: number[][];
  /** Anything else the server sent. */
  [property: string]: unknown;
}

/** `textClassification`: a text to classify. */
export type TextClassificationArgs = BaseArgs & {
  /** The text. */
  inputs: string;
  /** The pipeline's parameters. */
  parameters?: ClassificationParameters;
};
/** The classes, most likely first. */
export type TextClassificationOutput = ClassificationOutputElement[];

/** `tokenClassification`: a text whose words are labelled (named entities, parts of speech). */
export type TokenClassificationArgs = BaseArgs & {
  /** The text. */
  inputs: string;
  /** The pipeline's parameters (`aggregation_strategy`, `ignore_labels`, `stride`). */
  parameters?: TaskParameters;
};
/** One labelled span. */
export interface TokenClassificationOutputElement {
  /** Where it ends (characters). */
  end: number;
  /** Its label, without aggregation. */
  entity?: string;
  /** Its label, with aggregation. */
  entity_group?: string;
  /** How likely the label is. */
  score: number;
  /** Where it starts (characters). */
  start: number;
  /** The span's text. */
  word: string;
  /** Anything else the server sent. */
  [property: string]: unknown;
}
/** The labelled spans, in order. */
export type TokenClassificationOutput = TokenClassificationOutputElement[];

/** `zeroShotClassification`: a text and the labels to choose from. */
export type ZeroShotClassificationArgs = BaseArgs & {
  /** The text. */
  inputs: string;
  /** The labels, and how to ask. */
  parameters: TaskParameters & {
    /** The labels to choose from (at least one). */
    candidate_labels: string[];
    /** The sentence each label is put in, with `{}` for the label. */
    hypothesis_template?: string;
    /** Several labels may be true at once. */
    multi_label?: boolean;
  };
};
/** The labels, most likely first. */
export type ZeroShotClassificationOutput = ClassificationOutputElement[];

/** `tabularClassification` and `tabularRegression`: rows of features. */
export type TabularArgs = BaseArgs & {
  /** The table. */
  inputs: {
    /** Column name to its values, every column of the same length. */
    data: Record<string, string[]>;
  };
};
/** `tabularClassification`'s arguments. */
export type TabularClassificationArgs = TabularArgs;
/** The predicted label of each row. */
export type TabularClassificationOutput = number[];
/** `tabularRegression`'s arguments. */
export type TabularRegressionArgs = TabularArgs;
/** The predicted value of each row. */
export type TabularRegressionOutput = number[];
