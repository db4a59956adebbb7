/** The chat task's arguments, as OpenAI's and TGI's Messages API shape them. */
import type { BaseArgs } from "./base";
import type { JsonSchemaFormat } from "./schema";
import type { WeightedProvider } from "./health";

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
    /** Its arguments, as the answer gave them (a JSON string, or an object); optional as in `@huggingface/tasks`' type. */
    arguments?: unknown;
    /** The function's description. */
    description?: string;
    [property: string]: unknown;
  };
  [property: string]: unknown;
}

/** Who speaks: the roles every server knows, autocompleted; any other non-empty string is sent as is. */
export type ChatCompletionRole = "system" | "user" | "assistant" | "tool" | "developer" | (string & {});

/** One message of the conversation. */
export interface ChatCompletionInputMessage {
  /** Who speaks: `"system"`, `"user"`, `"assistant"`, `"tool"` or `"developer"` (any non-empty string is sent as is). */
  role: ChatCompletionRole;
  /** What is said; may be null or absent on an assistant message that has `tool_calls`. */
  content?: ChatCompletionInputMessageContent | null;
  /** A name for the speaker, to tell participants of the same role apart. */
  name?: string;
  /** On an assistant message: the tool calls it made. */
  tool_calls?: ChatCompletionInputToolCall[];
  /** On a `"tool"` message: the id of the call whose result this is. */
  tool_call_id?: string;
  /** On an assistant message: its thinking, for servers that take it back (e.g. DeepSeek-style `reasoning_content`). */
  reasoning?: string;
  /** As `reasoning`, the name some servers use. */
  reasoning_content?: string;
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

/** The arguments of a chat completion, as OpenAI's and TGI's Messages API take them; `T`: the type of a `json_schema` answer's value. */
export interface ChatCompletionInput<T = unknown> {
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
  /** Biases on tokens: OpenAI's map of token id to a bias between -100 and 100 (`@huggingface/tasks` types TGI's list). */
  logit_bias?: Record<string, number> | number[];
  /** How much a reasoning model thinks before answering: OpenAI's `"minimal"`, `"low"`, `"medium"`, `"high"`. */
  reasoning_effort?: string;
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
  /**
   * The answer's form: `{type: "text"}` (default); `{type: "json_schema", json_schema: {name, schema}}` with a JSON
   * Schema or a Standard Schema validator (sent in each server's own shape; the answer parsed and checked into
   * `message.parsed`); or a server's own constraint such as `{type: "json_object"}` or TGI's `{type: "json", value}`.
   */
  response_format?: JsonSchemaFormat<T> | ResponseFormat;
  /** Set by the call: `chatCompletionStream` streams, `chatCompletion` does not; a value given here is ignored. */
  stream?: boolean;
  /** Stream options: `include_usage: true` adds a last chunk with `usage` and `choices: []`. */
  stream_options?: {
    /** `true`: the stream ends with a chunk holding the token usage. */
    include_usage?: boolean;
    /** vLLM and SGLang: `usage` on every chunk too. */
    continuous_usage_stats?: boolean;
    [property: string]: unknown;
  };
  /** How many answers to generate, a positive integer (default 1); more than 1 only on the HF router and OpenAI-protocol servers. */
  n?: number;
  /** An end-user id, passed on to the provider (OpenAI's `user`). */
  user?: string;
  /**
   * Fields a server takes beyond OpenAI's (vLLM's `top_k`, `min_p`, `repetition_penalty`,
   * `chat_template_kwargs`; llama.cpp's `return_progress`): merged into the request body as they are.
   * The known fields above are typed, so a typo such as `max_token` is a type error; unknown fields
   * given at the top level are still sent at run time (JavaScript callers, the proxy).
   */
  extra_body?: Record<string, unknown>;
}

/** A chat call's own routing: one provider, or candidates tried in order before the first token. */
export interface ChatRouting {
  /**
   * The inference provider for this call (overrides the `provider` option), or a list tried in order
   * (`["groq", "together", "auto"]`): before the first token, a candidate that fails moves the call to the next.
   */
  provider?: string | readonly (string | WeightedProvider)[];
  /** Models tried after the main model's providers, in order: `org/name` (the router's choice of provider) or `org/name:provider`. */
  fallbackModels?: readonly string[];
}

/** What `chatCompletion` and `chatCompletionStream` take: the chat arguments, the BaseArgs and the routing. */
export type ChatCompletionArgs<T = unknown> = Omit<BaseArgs, "provider"> & ChatRouting & ChatCompletionInput<T>;

/** A `response_format` other than a `json_schema` one: `{type: "text"}`, `{type: "json_object"}`, TGI's `{type: "json", value}`. */
export interface ResponseFormat {
  /** `"text"`, `"json_object"`, or `"json"` / `"regex"` (TGI). */
  type: string;
  [property: string]: unknown;
}

/** A chat call to one target (no failover): what the chat layers below the failover take. */
export type OneChatArgs = BaseArgs & ChatCompletionInput;
