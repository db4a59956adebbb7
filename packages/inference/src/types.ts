/**
 * Public types. Shaped like `@huggingface/tasks` (so code typed against `@huggingface/inference`
 * type-checks unchanged) and OpenAI's chat protocol. No Node types are referenced.
 */

/** A `fetch`-compatible function: what the `fetch` option takes. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Where the client's warnings go (the `logger` option); `console` fits. */
export interface Logger {
  /** Something worth knowing, such as a model that is loading or a parameter dropped. */
  warn(message: string): void;
  /** Accepted so that common loggers fit; the client does not call it. */
  info?(message: string): void;
  /** Accepted so that common loggers fit; the client does not call it. */
  debug?(message: string): void;
}

/** What `onResponse` is told of every HTTP answer. */
export interface ResponseInfo {
  /** The HTTP status code. */
  status: number;
  /** The response headers, e.g. `x-ratelimit-remaining`. */
  headers: Headers;
  /** The URL that answered, without any `user:password@`. */
  url: string;
  /** The server's `x-request-id`, to quote when reporting a problem. */
  requestId: string | undefined;
}

/** What `onRetry` is told before each wait. */
export interface RetryEvent {
  /** The number of the try about to be made (2 for the first retry). */
  attempt: number;
  /** How long the client waits before that try, in milliseconds. */
  delayMs: number;
  /** The HTTP status that caused the retry; undefined for a connection failure. */
  status?: number;
  /** Why: a loading model, a 429, an overloaded model, a 5xx or a failed connection. */
  reason: "loading" | "rate-limit" | "server-error" | "connection" | "overloaded";
  /** Seconds, as the server sent it (model loading). */
  estimatedTime?: number;
}

/**
 * What serves a model: TGI (text-generation-inference), the transformers pipeline, or any other
 * OpenAI-protocol server (`"openai"`: the HF router and its providers, vLLM, SGLang, llama.cpp's
 * server, Ollama's OpenAI route).
 */
export type Backend = "tgi" | "transformers" | "openai";

/** Options of the client (defaults) and of each call (overrides). */
export interface Options {
  /** `"auto"` (default): the HF router; `"hf-inference"`; or another provider's name. */
  provider?: string;
  /** An hf-inference-style base: chat goes to `{baseUrl}/models/{model}/v1/chat/completions`. */
  baseUrl?: string;
  /** A dedicated endpoint (TGI or OpenAI-compatible server). */
  endpointUrl?: string;
  /**
   * Which server serves the model, when known; skips detection. Dedicated endpoints are taken for TGI
   * (with its few limits, e.g. `n: 1`) unless detected otherwise: say `"openai"` for vLLM, SGLang or llama.cpp.
   */
  backend?: Backend;
  /**
   * Splits inline `<think>…</think>` (models that put their thinking in `content`) out into
   * `delta.reasoning` / `message.reasoning`, across any chunk split. Default false: content as sent.
   */
  splitThinking?: boolean;
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
  /** Aborts the call: the request, any retry wait and the body; the call fails with an AbortError. */
  signal?: AbortSignal;
  /**
   * Deadline over the whole call in ms: retries, waits and body. None by default. Every duration
   * takes a number > 0 or `Infinity` (none); one longer than a timer holds (2^31 - 1 ms, 24.8 days) is held as that.
   */
  timeout?: number;
  /**
   * Until the first data of the answer (a chunk, not a keep-alive), retries and loading waits
   * included. Default 300 000 ms. Raise it for reasoning models that think long before their first token.
   */
  firstChunkTimeout?: number;
  /** Longest silence between received bytes (keep-alives count): the connection is dead. Default 60 000 ms. */
  idleTimeout?: number;
  /**
   * Longest time without data while waiting for the server (`:` comments and `{}` keep-alives do not
   * count): the server is alive but produces nothing. Default 300 000 ms.
   */
  stallTimeout?: number;
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
  /** A Hugging Face token (`hf_…`), sent as `Authorization: Bearer`; overrides the client's. */
  accessToken?: string;
  /** The model id on the Hub, e.g. `"meta-llama/Llama-3.1-8B-Instruct"`; optional on a dedicated endpoint. */
  model?: string;
  /** A dedicated endpoint for this call; overrides the `endpointUrl` option. */
  endpointUrl?: string;
  /** The inference provider for this call; overrides the `provider` option. */
  provider?: string;
}

/** One part of a message's content: a piece of text or an image. */
export interface ChatCompletionInputMessageChunk {
  /** `"text"` or `"image_url"`. */
  type: string;
  /** The text of a `"text"` part. */
  text?: string;
  /** The image of an `"image_url"` part, for models that read images. */
  image_url?: {
    /** An `https:` URL, or a `data:image/…;base64,…` URL. */
    url: string;
    /** OpenAI's detail level: `"auto"`, `"low"` or `"high"`. */
    detail?: string;
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/** A message's content: a string, or an array of text and image parts. */
export type ChatCompletionInputMessageContent = ChatCompletionInputMessageChunk[] | string;

/** A tool call an assistant message made, sent back as part of the conversation. */
export interface ChatCompletionInputToolCall {
  /** The call's id, as the answer gave it; the `tool` message with the result names it. */
  id: string;
  /** `"function"`. */
  type: string;
  /** The function called. */
  function: {
    /** The function's name. */
    name: string;
    /** Its arguments, as the answer gave them (a JSON string, or an object). */
    arguments: unknown;
    /** The function's description. */
    description?: string;
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/** One message of the conversation. */
export interface ChatCompletionInputMessage {
  /** Who speaks: `"system"`, `"user"`, `"assistant"` or `"tool"` (any non-empty string is sent as is). */
  role: string;
  /** What is said; may be null or absent on an assistant message that has `tool_calls`. */
  content?: ChatCompletionInputMessageContent | null;
  /** A name for the speaker, to tell participants of the same role apart. */
  name?: string;
  /** On an assistant message: the tool calls it made. */
  tool_calls?: ChatCompletionInputToolCall[];
  /** On a `"tool"` message: the id of the call whose result this is. */
  tool_call_id?: string;
  [property: string]: unknown;
}

/** A tool the model may call. */
export interface ChatCompletionInputTool {
  /** `"function"`. */
  type: string;
  /** The function the model may call. */
  function: {
    /** The function's name, as the model will name it in a tool call. */
    name: string;
    /** What the function does, so the model knows when to call it. */
    description?: string;
    /** The function's arguments, as a JSON Schema object. */
    parameters?: unknown;
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/** The arguments of a chat completion, as OpenAI's and TGI's Messages API take them. */
export interface ChatCompletionInput {
  /** The model id, e.g. `"meta-llama/Llama-3.1-8B-Instruct"`; on a dedicated endpoint it may be left out. */
  model?: string;
  /** The conversation so far, oldest first: at least one message. */
  messages: ChatCompletionInputMessage[];
  /** The most tokens to generate, a positive integer; unset, the server's limit applies. */
  max_tokens?: number;
  /** Sampling temperature, a number >= 0 (OpenAI's range is 0 to 2): higher is more varied, `0` is greedy. */
  temperature?: number;
  /** Nucleus sampling, between 0 and 1: only tokens within this top probability mass are drawn; `1` is off, `0` greedy. */
  top_p?: number;
  /** Where to stop: a string or an array of strings (TGI takes 4 by default); generation ends at the first one produced. */
  stop?: string[] | string;
  /** A random seed (an integer), for repeatable sampling where the server supports it. */
  seed?: number;
  /** Between -2 and 2 (default 0): positive values penalise tokens by how often they already appeared. */
  frequency_penalty?: number;
  /** Between -2 and 2 (default 0; above -2 for TGI): positive values penalise any token already present. */
  presence_penalty?: number;
  /** `true` returns the log probability of each generated token, in `choices[].logprobs`. */
  logprobs?: boolean;
  /** With `logprobs`: how many likeliest alternatives to return per token, an integer >= 0 (OpenAI: up to 20; TGI: 5 by default). */
  top_logprobs?: number;
  /** Functions the model may call instead of answering in text. */
  tools?: ChatCompletionInputTool[];
  /** Which tool to call: `"auto"` (the model decides), `"none"`, `"required"`, or `{type: "function", function: {name}}`. */
  tool_choice?: unknown;
  /** TGI only: the instruction put before the tool definitions in the prompt. */
  tool_prompt?: string;
  /** The answer's form: `{type: "text"}` (default), or a constraint such as `{type: "json_object"}` or TGI's `{type: "json", value: schema}`. */
  response_format?: {
    /** `"text"`, `"json_object"`, `"json_schema"` (OpenAI), or `"json"` / `"regex"` (TGI). */
    type: string;
    [property: string]: unknown;
  };
  /** Set by the call: `chatCompletionStream` streams, `chatCompletion` does not; a value given here is ignored. */
  stream?: boolean;
  /** Stream options: `include_usage: true` adds a last chunk with `usage` and `choices: []`. */
  stream_options?: {
    /** `true`: the stream ends with a chunk holding the token usage. */
    include_usage?: boolean;
    [property: string]: unknown;
  };
  /** How many answers to generate, a positive integer (default 1); more than 1 only on the HF router. */
  n?: number;
  [property: string]: unknown;
}

/** A tool call in an answer: the model asks you to run a function and send back its result. */
export interface ChatCompletionOutputToolCall {
  /** The call's id; send the result back in a `"tool"` message with this `tool_call_id`. */
  id: string;
  /** `"function"`. */
  type: string;
  /** The function to call. */
  function: {
    /** The function's name, one of the `tools` given. */
    name: string;
    /** Its arguments as a JSON string (parse it: the model may write invalid JSON). */
    arguments: string;
    /** The function's description, when the server repeats it. */
    description?: string;
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/** The message of an answer. */
export interface ChatCompletionOutputMessage {
  /** `"assistant"`. */
  role: string;
  /** The answer's text; absent or empty when the model called tools. */
  content?: string;
  /** The tools the model asks you to call. */
  tool_calls?: ChatCompletionOutputToolCall[];
  /** The id of the tool call this message answers, when the server sets one. */
  tool_call_id?: string;
  /** The model's thinking, whichever name the server used (`reasoning`, `reasoning_content`), or split out of `<think>` with `splitThinking`. */
  reasoning?: string;
  [property: string]: unknown;
}

/** Tokens counted for one call. */
export interface ChatCompletionUsage {
  /** Tokens of the prompt (the messages after the chat template, and the tools). */
  prompt_tokens: number;
  /** Tokens generated. */
  completion_tokens: number;
  /** Both added. */
  total_tokens: number;
  [property: string]: unknown;
}

/** One choice of an answer. */
export interface ChatCompletionOutputComplete {
  /** Which choice this is, from 0. */
  index: number;
  /** The answer. */
  message: ChatCompletionOutputMessage;
  /** Why generation ended: `"stop"` (the end, or a stop sequence), `"length"` (`max_tokens`), `"tool_calls"`. */
  finish_reason: string;
  /** The tokens' log probabilities when `logprobs` was asked for; else null or absent. */
  logprobs?: unknown;
  [property: string]: unknown;
}

/** A whole chat answer, as `chatCompletion` resolves to it. */
export interface ChatCompletionOutput {
  /** The answer's id, as the server gave it (may be empty). */
  id: string;
  /** When the answer was made, in Unix seconds. */
  created: number;
  /** The model that answered, as the server names it. */
  model: string;
  /** The server's version (TGI: its version and commit). */
  system_fingerprint: string;
  /** The answers: one, unless `n` asked for more. */
  choices: ChatCompletionOutputComplete[];
  /** Tokens counted for the call. */
  usage: ChatCompletionUsage;
  [property: string]: unknown;
}

/** A piece of a tool call in a stream; pieces with the same `index` make one call. */
export interface ChatCompletionStreamOutputDeltaToolCall {
  /** Which tool call of the message this piece belongs to, from 0. */
  index: number;
  /** The call's id (in the call's first piece). */
  id: string;
  /** `"function"`. */
  type: string;
  /** The function called. */
  function: {
    /** The function's name (in the call's first piece). */
    name: string;
    /** A piece of the arguments' JSON string; join the pieces in order. */
    arguments: string;
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/** What one chunk adds to a choice. */
export interface ChatCompletionStreamOutputDelta {
  /** `"assistant"`. */
  role: string;
  /** The next piece of the answer's text; join them in order. */
  content?: string;
  /** Pieces of tool calls, merged by `index` (as `collectStream` does). */
  tool_calls?: ChatCompletionStreamOutputDeltaToolCall[];
  /** The id of the tool call this message answers, when the server sets one. */
  tool_call_id?: string;
  /** The next piece of the model's thinking, whichever name the server used (`reasoning`, `reasoning_content`); join in order. */
  reasoning?: string;
  [property: string]: unknown;
}

/** One choice of a chunk. */
export interface ChatCompletionStreamOutputChoice {
  /** Which choice this is, from 0. */
  index: number;
  /** What this chunk adds. */
  delta: ChatCompletionStreamOutputDelta;
  /** Set on the choice's last chunk: `"stop"`, `"length"` or `"tool_calls"`. */
  finish_reason?: string;
  /** The log probabilities of this chunk's tokens when `logprobs` was asked for. */
  logprobs?: unknown;
  [property: string]: unknown;
}

/** One chunk. A usage chunk has `choices: []`, so read content as `chunk.choices[0]?.delta?.content`. */
export interface ChatCompletionStreamOutput {
  /** The answer's id, the same in every chunk (may be empty). */
  id: string;
  /** When the answer was made, in Unix seconds. */
  created: number;
  /** The model that answers, as the server names it. */
  model: string;
  /** The server's version (TGI: its version and commit). */
  system_fingerprint: string;
  /** What this chunk adds to each choice; empty in the usage chunk. */
  choices: ChatCompletionStreamOutputChoice[];
  /** Tokens counted for the call, in the last chunk with `stream_options.include_usage`; else null or absent. */
  usage?: ChatCompletionUsage | null;
  [property: string]: unknown;
}

/** What `chatCompletion` and `chatCompletionStream` take: the chat arguments and the BaseArgs. */
export type ChatCompletionArgs = BaseArgs & ChatCompletionInput;

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
  /** Constrains the output to a grammar: `{type: "json", value: schema}` or `{type: "regex", value}` (TGI). */
  grammar?: unknown;
  /** The LoRA adapter to generate with, on a TGI server that serves several. */
  adapter_id?: string;
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

/** The answer of `textGeneration`. */
export interface TextGenerationOutput {
  /** The text generated (after the prompt, unless `return_full_text`). */
  generated_text: string;
  /** With `details: true`: finish reason, number of tokens, seed, tokens and their log probabilities. */
  details?: Record<string, unknown>;
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
