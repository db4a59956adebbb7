/**
 * Public types. Shaped like `@huggingface/tasks` (so code typed against `@huggingface/inference`
 * type-checks unchanged) and OpenAI's chat protocol. No Node types are referenced.
 */

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface Logger {
  warn(message: string): void;
  info?(message: string): void;
  debug?(message: string): void;
}

/** What `onResponse` is told of every HTTP answer. */
export interface ResponseInfo {
  status: number;
  headers: Headers;
  url: string;
  requestId: string | undefined;
}

/** What `onRetry` is told before each wait. */
export interface RetryEvent {
  /** The number of the try about to be made (2 for the first retry). */
  attempt: number;
  delayMs: number;
  status?: number;
  reason: "loading" | "rate-limit" | "server-error" | "connection" | "overloaded";
  /** Seconds, as the server sent it (model loading). */
  estimatedTime?: number;
}

export type Backend = "tgi" | "transformers";

/** Options of the client (defaults) and of each call (overrides). */
export interface Options {
  /** `"auto"` (default): the HF router; `"hf-inference"`; or another provider's name. */
  provider?: string;
  /** An hf-inference-style base: chat goes to `{baseUrl}/models/{model}/v1/chat/completions`. */
  baseUrl?: string;
  /** A dedicated endpoint (TGI or OpenAI-compatible server). */
  endpointUrl?: string;
  /** Which framework serves the model, when known; skips detection. */
  backend?: Backend;
  /**
   * For transformers-served models: drop what the pipeline cannot honour (tools, response_format,
   * logprobs, n > 1, penalties, seed) with a warning, instead of an InputError.
   */
  lenient?: boolean;
  /** A fetch to use instead of the global one (looked up at call time). */
  fetch?: FetchLike;
  /** Passed to fetch as is (e.g. an undici `dispatcher`). */
  fetchOptions?: Record<string, unknown>;
  /** Extra request headers. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Deadline over the whole call in ms: retries, waits and body. None by default. */
  timeout?: number;
  /** Until the first byte of the answer, retries and loading waits included. Default 300 000 ms. */
  firstChunkTimeout?: number;
  /** Longest silence between received bytes of a stream. Default 60 000 ms. */
  idleTimeout?: number;
  /** Extra tries after a 429, 5xx or connection failure. Default 2. */
  maxRetries?: number;
  /** `false` turns every automatic retry off (the `@huggingface/inference` option). */
  retry_on_error?: boolean;
  /** Where warnings go. Default: `console`. */
  logger?: Logger;
  /** Sends `X-HF-Bill-To`. */
  billTo?: string;
  /** `false` sends `x-use-cache: false`. */
  use_cache?: boolean;
  /** Called for every HTTP answer, e.g. to read rate-limit headers. */
  onResponse?: (info: ResponseInfo) => void;
  /** Called before every retry wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Accepted for compatibility with `@huggingface/inference`; no credentials mode is ever set. */
  includeCredentials?: string | boolean;
}

/** Arguments every task takes besides its own (the `@huggingface/inference` BaseArgs). */
export interface BaseArgs {
  accessToken?: string;
  model?: string;
  endpointUrl?: string;
  provider?: string;
}

export interface ChatCompletionInputMessageChunk {
  type: string;
  text?: string;
  image_url?: { url: string; detail?: string; [property: string]: unknown };
  [property: string]: unknown;
}

export type ChatCompletionInputMessageContent = ChatCompletionInputMessageChunk[] | string;

export interface ChatCompletionInputToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: unknown; description?: string; [property: string]: unknown };
  [property: string]: unknown;
}

export interface ChatCompletionInputMessage {
  role: string;
  content?: ChatCompletionInputMessageContent | null;
  name?: string;
  tool_calls?: ChatCompletionInputToolCall[];
  tool_call_id?: string;
  [property: string]: unknown;
}

export interface ChatCompletionInputTool {
  type: string;
  function: { name: string; description?: string; parameters?: unknown; [property: string]: unknown };
  [property: string]: unknown;
}

export interface ChatCompletionInput {
  model?: string;
  messages: ChatCompletionInputMessage[];
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[] | string;
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  tools?: ChatCompletionInputTool[];
  tool_choice?: unknown;
  tool_prompt?: string;
  response_format?: { type: string; [property: string]: unknown };
  stream?: boolean;
  stream_options?: { include_usage?: boolean; [property: string]: unknown };
  n?: number;
  [property: string]: unknown;
}

export interface ChatCompletionOutputToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string; description?: string; [property: string]: unknown };
  [property: string]: unknown;
}

export interface ChatCompletionOutputMessage {
  role: string;
  content?: string;
  tool_calls?: ChatCompletionOutputToolCall[];
  tool_call_id?: string;
  [property: string]: unknown;
}

export interface ChatCompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [property: string]: unknown;
}

export interface ChatCompletionOutputComplete {
  index: number;
  message: ChatCompletionOutputMessage;
  finish_reason: string;
  logprobs?: unknown;
  [property: string]: unknown;
}

export interface ChatCompletionOutput {
  id: string;
  created: number;
  model: string;
  system_fingerprint: string;
  choices: ChatCompletionOutputComplete[];
  usage: ChatCompletionUsage;
  [property: string]: unknown;
}

export interface ChatCompletionStreamOutputDeltaToolCall {
  index: number;
  id: string;
  type: string;
  function: { name: string; arguments: string; [property: string]: unknown };
  [property: string]: unknown;
}

export interface ChatCompletionStreamOutputDelta {
  role: string;
  content?: string;
  tool_calls?: ChatCompletionStreamOutputDeltaToolCall[];
  tool_call_id?: string;
  [property: string]: unknown;
}

export interface ChatCompletionStreamOutputChoice {
  index: number;
  delta: ChatCompletionStreamOutputDelta;
  finish_reason?: string;
  logprobs?: unknown;
  [property: string]: unknown;
}

/** One chunk. A usage chunk has `choices: []`, so read content as `chunk.choices[0]?.delta?.content`. */
export interface ChatCompletionStreamOutput {
  id: string;
  created: number;
  model: string;
  system_fingerprint: string;
  choices: ChatCompletionStreamOutputChoice[];
  usage?: ChatCompletionUsage | null;
  [property: string]: unknown;
}

export type ChatCompletionArgs = BaseArgs & ChatCompletionInput;

export interface TextGenerationInputGenerateParameters {
  max_new_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  typical_p?: number;
  do_sample?: boolean;
  repetition_penalty?: number;
  frequency_penalty?: number;
  return_full_text?: boolean;
  stop?: string[];
  seed?: number;
  details?: boolean;
  decoder_input_details?: boolean;
  best_of?: number;
  truncate?: number;
  watermark?: boolean;
  top_n_tokens?: number;
  grammar?: unknown;
  adapter_id?: string;
  [property: string]: unknown;
}

export interface TextGenerationInput {
  inputs: string;
  parameters?: TextGenerationInputGenerateParameters;
  stream?: boolean;
  [property: string]: unknown;
}

export type TextGenerationArgs = BaseArgs & TextGenerationInput;

export interface TextGenerationOutput {
  generated_text: string;
  details?: Record<string, unknown>;
  [property: string]: unknown;
}

export interface TextGenerationStreamToken {
  id: number;
  text: string;
  logprob: number;
  special: boolean;
  [property: string]: unknown;
}

/** One event of TGI's `generate_stream`; the last has a string `generated_text`. */
export interface TextGenerationStreamOutput {
  index: number;
  token: TextGenerationStreamToken;
  generated_text?: string | null;
  details?: Record<string, unknown> | null;
  top_tokens?: TextGenerationStreamToken[];
  [property: string]: unknown;
}

/** The retired "conversational" task's input. */
export interface ConversationalArgs extends BaseArgs {
  inputs: { text: string; past_user_inputs?: string[]; generated_responses?: string[] };
  parameters?: { temperature?: number; top_p?: number; max_new_tokens?: number; [property: string]: unknown };
  [property: string]: unknown;
}

export interface ConversationalOutput {
  generated_text: string;
  conversation: { past_user_inputs: string[]; generated_responses: string[] };
  warnings?: string[];
  [property: string]: unknown;
}
