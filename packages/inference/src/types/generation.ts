/** `textGeneration` (TGI's `generate`) and the retired "conversational" task: arguments and answers. */
import type { BaseArgs } from "./base";
import type { ChatRouting } from "./chat";
import type { Served } from "./failover";
import type { JsonSchema, SchemaLike } from "./schema";

/** How TGI's `generate` (or the transformers pipeline) continues a text. */
export interface TextGenerationInputGenerateParameters {
  /** The most tokens to generate, a positive integer. */
  max_new_tokens?: number;
  /** Sampling temperature, a number >= 0: higher is more varied; `0` is greedy (sent as `do_sample: false`). */
  temperature?: number;
  /** Nucleus sampling, between 0 and 1: only tokens within this top probability mass are drawn; `1` is off, `0` greedy. */
  top_p?: number;
  /** Only the `top_k` likeliest tokens are drawn from, a positive integer. */
  top_k?: number;
  /** Typical sampling, between 0 and 1: keeps the most typical tokens up to this probability mass; `1` is off. */
  typical_p?: number;
  /** `true` draws each token at random (with the settings above); `false` always takes the likeliest (greedy). */
  do_sample?: boolean;
  /** A number > 0: above 1 discourages repeating tokens already present (1.0 is none; 1.2 is common). */
  repetition_penalty?: number;
  /** Between -2 and 2 (default 0): positive values penalise tokens by how often they already appeared. */
  frequency_penalty?: number;
  /** `true`: `generated_text` starts with the prompt; `false`: only the new text. */
  return_full_text?: boolean;
  /** Stop sequences (TGI takes 4 by default): generation ends at the first one produced. */
  stop?: string[];
  /** A random seed (an integer), for repeatable sampling. */
  seed?: number;
  /** `true` adds `details`: finish reason, number of tokens, seed, the tokens and their log probabilities. */
  details?: boolean;
  /** With `details`: also the prompt's tokens and their log probabilities. */
  decoder_input_details?: boolean;
  /** Generate this many sequences and return the likeliest, a positive integer (TGI; needs sampling). */
  best_of?: number;
  /** Keep only the last `truncate` tokens of the prompt (TGI). */
  truncate?: number;
  /** `true` marks the text with a statistical watermark (TGI). */
  watermark?: boolean;
  /** With `details`: the likeliest alternatives at each position, an integer >= 0 (TGI: 5 at most by default). */
  top_n_tokens?: number;
  /**
   * Constrains the output to a grammar (TGI): `{type: "json", value}`, `value` a JSON Schema or a Standard Schema
   * validator (its JSON Schema sent; `jsonSchema` beside it for Valibot), the answer parsed and checked into `parsed`;
   * or `{type: "regex", value}`.
   */
  grammar?: JsonGrammar | OtherGrammar;
  /** The LoRA adapter to generate with, on a TGI server that serves several. */
  adapter_id?: string;
  [property: string]: unknown;
}

/** TGI's JSON grammar: the generated text follows `value`'s schema, and is parsed and checked into `parsed`. */
export interface JsonGrammar {
  /** `"json"`. */
  type: "json";
  /** A JSON Schema, or a Standard Schema validator (its JSON Schema is sent). */
  value: SchemaLike;
  /** The JSON Schema of a validator whose library gives none (Valibot: `toJsonSchema(schema)`). */
  jsonSchema?: JsonSchema;
}

/** Another TGI grammar, sent as it is: `{type: "regex", value}`. */
export interface OtherGrammar {
  /** `"regex"`, or a type the server knows. */
  type: string;
  /** The grammar itself. */
  value: unknown;
  [property: string]: unknown;
}

/** The arguments of TGI's `generate`. */
export interface TextGenerationInput {
  /** The text to continue. */
  inputs: string;
  /** How to generate. */
  parameters?: TextGenerationInputGenerateParameters;
  /** Set by the call: `textGenerationStream` streams, `textGeneration` does not; a value given here is ignored. */
  stream?: boolean;
  [property: string]: unknown;
}

/** What `textGeneration` and `textGenerationStream` take: the generate arguments and the BaseArgs. */
export type TextGenerationArgs = BaseArgs & TextGenerationInput;

/**
 * What `textGeneration` takes: the arguments of one target, or a `provider` list and `fallbackModels` tried in
 * order (failover; not for `textGenerationStream`, which runs on hf-inference and endpoints).
 */
export type TextGenerationCallArgs = Omit<BaseArgs, "provider"> & ChatRouting & TextGenerationInput;

/** The answer of `textGeneration`. */
export interface TextGenerationOutput {
  /** The text generated (after the prompt, unless `return_full_text`). */
  generated_text: string;
  /** With `details: true` (TGI): finish reason, number of tokens, seed, tokens and their log probabilities. */
  details?: TextGenerationOutputDetails;
  /** With a JSON `grammar`: the generated text's value, parsed and checked against the grammar's schema. */
  parsed?: unknown;
  /** With a `provider` list or `fallbackModels`: the model and provider that answered (no cost: the answer has no token counts). */
  served?: Served;
  [property: string]: unknown;
}

/** Why TGI's `generate` ended: the token limit, the end-of-sequence token, or a stop sequence. */
export type TextGenerationOutputFinishReason = "length" | "eos_token" | "stop_sequence";

/** A prompt token of a `textGeneration` answer's `details.prefill`, as `@huggingface/tasks` types it. */
export interface TextGenerationOutputPrefillToken {
  /** The token's id in the model's vocabulary. */
  id: number;
  /** The token's text. */
  text: string;
  /** Its log probability (TGI sends null for the first token). */
  logprob: number;
  [property: string]: unknown;
}

/** One of the `best_of` sequences of a `textGeneration` answer's `details`. */
export interface TextGenerationOutputBestOfSequence {
  /** The sequence's text. */
  generated_text: string;
  /** Why it ended. */
  finish_reason: TextGenerationOutputFinishReason;
  /** How many tokens it has. */
  generated_tokens: number;
  /** The seed it was sampled with. */
  seed?: number;
  /** The prompt's tokens. */
  prefill: TextGenerationOutputPrefillToken[];
  /** Its tokens. */
  tokens: TextGenerationStreamToken[];
  /** With `top_n_tokens`: the likeliest alternatives at each position. */
  top_tokens?: TextGenerationStreamToken[][];
  [property: string]: unknown;
}

/**
 * A `textGeneration` answer's `details` (`details: true`), as TGI sends it and `@huggingface/tasks` types it
 * (a provider's completions route gives only `finish_reason` and `seed`, as with `@huggingface/inference`).
 */
export interface TextGenerationOutputDetails {
  /** Why generation ended. */
  finish_reason: TextGenerationOutputFinishReason;
  /** How many tokens were generated. */
  generated_tokens: number;
  /** The seed sampling used. */
  seed?: number;
  /** The prompt's tokens (with `decoder_input_details`). */
  prefill: TextGenerationOutputPrefillToken[];
  /** The generated tokens. */
  tokens: TextGenerationStreamToken[];
  /** With `top_n_tokens`: the likeliest alternatives at each position. */
  top_tokens?: TextGenerationStreamToken[][];
  /** With `best_of`: the other sequences. */
  best_of_sequences?: TextGenerationOutputBestOfSequence[];
  [property: string]: unknown;
}

/** One token of a `generate_stream` event. */
export interface TextGenerationStreamToken {
  /** The token's id in the model's vocabulary. */
  id: number;
  /** The token's text. */
  text: string;
  /** The token's log probability. */
  logprob: number;
  /** `true` for a special token such as end-of-sequence, which is not part of the answer. */
  special: boolean;
  [property: string]: unknown;
}

/** A prompt token of `details.prefill` (`@huggingface/inference`'s type). */
export interface TextGenerationStreamPrefillToken {
  /** The token's id in the model's vocabulary. */
  id: number;
  /** The token's text. */
  text: string;
  /** Its log probability (absent for the first token). */
  logprob?: number;
}

/** Why generation ended, in TGI's `generate` words. */
export type TextGenerationStreamFinishReason = "length" | "eos_token" | "stop_sequence" | (string & {});

/** One of the `best_of` sequences in `details.best_of_sequences`. */
export interface TextGenerationStreamBestOfSequence {
  /** The sequence's text. */
  generated_text: string;
  /** Why it ended. */
  finish_reason: TextGenerationStreamFinishReason;
  /** How many tokens it has. */
  generated_tokens: number;
  /** The seed it was sampled with. */
  seed?: number;
  /** The prompt's tokens. */
  prefill: TextGenerationStreamPrefillToken[];
  /** Its tokens. */
  tokens: TextGenerationStreamToken[];
}

/** The last event's `details` with `details: true` (`@huggingface/inference`'s type). */
export interface TextGenerationStreamDetails {
  /** Why generation ended. */
  finish_reason: TextGenerationStreamFinishReason;
  /** How many tokens were generated. */
  generated_tokens: number;
  /** The seed sampling used. */
  seed?: number;
  /** The prompt's tokens (with `decoder_input_details`). */
  prefill: TextGenerationStreamPrefillToken[];
  /** The generated tokens. */
  tokens: TextGenerationStreamToken[];
  /** With `best_of`: the other sequences. */
  best_of_sequences?: TextGenerationStreamBestOfSequence[];
}

/** One event of TGI's `generate_stream`; the last has a string `generated_text`. */
export interface TextGenerationStreamOutput {
  /** The token's position in the answer, from 1. */
  index: number;
  /** The token generated. */
  token: TextGenerationStreamToken;
  /** The whole text, in the last event only; null before. */
  generated_text?: string | null;
  /** In the last event with `details: true`: finish reason, number of tokens, seed; else null. */
  details?: Record<string, unknown> | null;
  /** With `top_n_tokens`: the likeliest alternatives at this position. */
  top_tokens?: TextGenerationStreamToken[];
  [property: string]: unknown;
}

/** The retired "conversational" task's input. */
export interface ConversationalArgs extends BaseArgs {
  /** The new user text and the conversation so far. */
  inputs: {
    /** The user's new message. */
    text: string;
    /** The user's earlier messages, oldest first. */
    past_user_inputs?: string[];
    /** The model's earlier answers, oldest first, one per earlier user message. */
    generated_responses?: string[];
  };
  /** How to generate. */
  parameters?: {
    /** Sampling temperature, a number >= 0; `0` is greedy. */
    temperature?: number;
    /** Nucleus sampling, between 0 and 1. */
    top_p?: number;
    /** The most tokens to generate, a positive integer (sent as `max_tokens`). */
    max_new_tokens?: number;
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/** The answer of the "conversational" task. */
export interface ConversationalOutput {
  /** The model's answer. */
  generated_text: string;
  /** The conversation with this turn added, to pass back as the next call's `inputs`. */
  conversation: {
    /** The user's messages, this one last. */
    past_user_inputs: string[];
    /** The model's answers, this one last. */
    generated_responses: string[];
  };
  /** Warnings from the server, if any. */
  warnings?: string[];
  [property: string]: unknown;
}
