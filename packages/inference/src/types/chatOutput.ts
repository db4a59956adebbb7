/** The chat task's answers: a whole answer, and the chunks of a stream. */
import type { Served } from "./failover";

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

/** Why a choice ended: `"stop"` (the end, or a stop sequence), `"length"` (`max_tokens`), `"tool_calls"`, `"content_filter"`; other strings pass as the server sent them. */
export type ChatCompletionFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | (string & {});

/** The message of an answer; `T`: the type of `parsed` (a `json_schema` answer's value). */
export interface ChatCompletionOutputMessage<T = unknown> {
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
  /** With a `json_schema` `response_format`: the answer's value, parsed and checked against the schema. */
  parsed?: T;
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
export interface ChatCompletionOutputComplete<T = unknown> {
  /** Which choice this is, from 0. */
  index: number;
  /** The answer. */
  message: ChatCompletionOutputMessage<T>;
  /** Why generation ended: `"stop"` (the end, or a stop sequence), `"length"` (`max_tokens`), `"tool_calls"`. */
  finish_reason: ChatCompletionFinishReason;
  /** The tokens' log probabilities when `logprobs` was asked for; else absent (a server's `null` is made absent). */
  logprobs?: ChatCompletionOutputLogprobs;
  [property: string]: unknown;
}

/** The log probabilities of a choice's tokens (`logprobs: true`), as `@huggingface/tasks` types them. */
export interface ChatCompletionOutputLogprobs {
  /** One entry per generated token, in order. */
  content: ChatCompletionOutputLogprob[];
  [property: string]: unknown;
}

/** A generated token, its log probability, and the likeliest alternatives (`top_logprobs`). */
export interface ChatCompletionOutputLogprob {
  /** The token's text. */
  token: string;
  /** Its log probability. */
  logprob: number;
  /** The `top_logprobs` likeliest tokens at this position, most likely first. */
  top_logprobs: ChatCompletionOutputTopLogprob[];
  [property: string]: unknown;
}

/** One of the likeliest tokens at a position. */
export interface ChatCompletionOutputTopLogprob {
  /** The token's text. */
  token: string;
  /** Its log probability. */
  logprob: number;
  [property: string]: unknown;
}

/** A whole chat answer, as `chatCompletion` resolves to it; `T`: the type of a `json_schema` answer's `parsed`. */
export interface ChatCompletionOutput<T = unknown> {
  /** The answer's id, as the server gave it (may be empty). */
  id: string;
  /** When the answer was made, in Unix seconds. */
  created: number;
  /** The model that answered, as the server names it. */
  model: string;
  /** The server's version (TGI: its version and commit). */
  system_fingerprint: string;
  /** The answers: one, unless `n` asked for more. */
  choices: ChatCompletionOutputComplete<T>[];
  /** Tokens counted for the call. */
  usage: ChatCompletionUsage;
  /** A call that fails over: which candidate answered (and, with the router's catalog, what it cost). */
  served?: Served;
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

/** One choice of a chunk; `T`: the type of a `json_schema` answer's value. */
export interface ChatCompletionStreamOutputChoice<T = unknown> {
  /** Which choice this is, from 0. */
  index: number;
  /** What this chunk adds. */
  delta: ChatCompletionStreamOutputDelta;
  /** Set on the choice's last chunk: `"stop"`, `"length"` or `"tool_calls"`. */
  finish_reason?: ChatCompletionFinishReason;
  /** The log probabilities of this chunk's tokens when `logprobs` was asked for; else absent (a server's `null` is made absent). */
  logprobs?: ChatCompletionOutputLogprobs;
  /** With a `json_schema` `response_format`: the value of the text so far (a string or number not yet whole is left out). */
  partial?: PartialValue<T>;
  /** With a `json_schema` `response_format`, on the choice's last chunk: the value, parsed and checked against the schema. */
  parsed?: T;
  [property: string]: unknown;
}

/** What a value read from a text cut short can be: its objects' properties and arrays' items so far. */
export type PartialValue<T> = T extends readonly (infer I)[]
  ? PartialValue<I>[]
  : T extends object
    ? { [K in keyof T]?: PartialValue<T[K]> }
    : T;

/** One chunk. A usage chunk has `choices: []`, so read content as `chunk.choices[0]?.delta?.content`. */
export interface ChatCompletionStreamOutput<T = unknown> {
  /** The answer's id, the same in every chunk (may be empty). */
  id: string;
  /** When the answer was made, in Unix seconds. */
  created: number;
  /** The model that answers, as the server names it. */
  model: string;
  /** The server's version (TGI: its version and commit). */
  system_fingerprint: string;
  /** What this chunk adds to each choice; empty in the usage chunk. */
  choices: ChatCompletionStreamOutputChoice<T>[];
  /** Tokens counted for the call, in the last chunk with `stream_options.include_usage`; else absent (a server's `null` is made absent). */
  usage?: ChatCompletionUsage;
  /** A call that fails over: which candidate answers (with `cost` on the chunk that has `usage`). */
  served?: Served;
  [property: string]: unknown;
}
