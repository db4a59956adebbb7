/** The arguments of the OpenAI Responses API (`POST /v1/responses`), as the `openai` package's `responses.create` takes them. */
import type { BaseArgs } from "./base";
import type { ChatRouting } from "./chat";

/** One part of an input message's content: text, or an image. */
export interface ResponsesInputContentPart {
  /** `"input_text"`, `"input_image"`, or `"output_text"` (an earlier answer sent back). */
  type: "input_text" | "input_image" | "output_text" | (string & {});
  /** The text of an `input_text` or `output_text` part. */
  text?: string;
  /** The image of an `input_image` part: an `https:` URL or a `data:image/…;base64,…` URL. */
  image_url?: string;
  /** OpenAI's detail level of an image: `"auto"`, `"low"` or `"high"`. */
  detail?: string;
  [property: string]: unknown;
}

/** A message of the conversation. */
export interface ResponsesInputMessage {
  /** `"message"`; may be left out. */
  type?: "message";
  /** Who speaks: `"user"`, `"assistant"`, `"system"` or `"developer"`. */
  role: "user" | "assistant" | "system" | "developer" | (string & {});
  /** What is said: a string, or a list of parts. */
  content: string | ResponsesInputContentPart[];
  [property: string]: unknown;
}

/** A function call the model made earlier, sent back as part of the conversation. */
export interface ResponsesFunctionCallInput {
  /** `"function_call"`. */
  type: "function_call";
  /** The call's id, which the `function_call_output` with its result names. */
  call_id: string;
  /** The function's name. */
  name: string;
  /** Its arguments, a JSON string. */
  arguments: string;
  /** The item's id, as the answer gave it (`fc_…`). */
  id?: string;
  [property: string]: unknown;
}

/** The result of a function call, for the model to read. */
export interface ResponsesFunctionCallOutputInput {
  /** `"function_call_output"`. */
  type: "function_call_output";
  /** The id of the call whose result this is. */
  call_id: string;
  /** The result, as a string (often JSON). */
  output: string;
  [property: string]: unknown;
}

/** One item of `input`: a message, a function call, a function call's result. */
export type ResponsesInputItem = ResponsesInputMessage | ResponsesFunctionCallInput | ResponsesFunctionCallOutputInput;

/** A function the model may call. */
export interface ResponsesFunctionTool {
  /** `"function"` (servers with the Responses API may take other tool types; the chat fallback only functions). */
  type: "function" | (string & {});
  /** The function's name, as the model will name it in a call. */
  name?: string;
  /** What the function does, so the model knows when to call it. */
  description?: string;
  /** The function's arguments, as a JSON Schema object. */
  parameters?: unknown;
  /** Whether the arguments must follow the schema strictly. */
  strict?: boolean;
  [property: string]: unknown;
}

/** Which tool to call: `"auto"`, `"none"`, `"required"`, or one function. */
export type ResponsesToolChoice =
  | "auto"
  | "none"
  | "required"
  | {
      /** `"function"`. */
      type: "function";
      /** The function to call. */
      name: string;
    };

/** The answer's form: text, any JSON object, or JSON that follows a schema. */
export interface ResponsesTextFormat {
  /** `"text"` (default), `"json_object"` or `"json_schema"`. */
  type: "text" | "json_object" | "json_schema";
  /** The schema's name (`json_schema`). */
  name?: string;
  /** The JSON Schema the answer follows (`json_schema`). */
  schema?: unknown;
  /** What the schema describes (`json_schema`). */
  description?: string;
  /** Whether the answer must follow the schema strictly (`json_schema`). */
  strict?: boolean;
}

/** The arguments of a Responses API call. */
export interface ResponsesInput {
  /** The model id, e.g. `"openai/gpt-oss-120b"` (with `:provider` on the router); may be left out on a dedicated endpoint. */
  model?: string;
  /** What the model answers: a user's text, or the conversation as a list of items. */
  input: string | ResponsesInputItem[];
  /** A system message put before the input. */
  instructions?: string;
  /** Functions the model may call. */
  tools?: ResponsesFunctionTool[];
  /** Which tool to call. */
  tool_choice?: ResponsesToolChoice;
  /** Sampling temperature, a number from 0 to 2: higher is more varied, `0` greedy. */
  temperature?: number;
  /** Nucleus sampling, between 0 and 1: `1` is off, `0` greedy. */
  top_p?: number;
  /** The most tokens to generate (reasoning included), a positive integer. */
  max_output_tokens?: number;
  /** Reasoning options of a reasoning model. */
  reasoning?: {
    /** How hard the model thinks: `"low"`, `"medium"` or `"high"`. */
    effort?: "minimal" | "low" | "medium" | "high" | (string & {});
    /** A summary of the reasoning: `"auto"`, `"concise"` or `"detailed"`. */
    summary?: string;
  };
  /** The answer's text options. */
  text?: {
    /** The answer's form: `{type: "json_schema", name, schema}` for structured output. */
    format?: ResponsesTextFormat;
  };
  /** Set by the call: `responsesStream` streams, `responses` does not; a value given here is ignored. */
  stream?: boolean;
  /** Whether the model may call several tools at once. */
  parallel_tool_calls?: boolean;
  /** Key-value pairs kept with the response. */
  metadata?: Record<string, string>;
  /** A stable id of the end user. */
  user?: string;
  /** The id of an earlier response to continue from (servers with the Responses API only). */
  previous_response_id?: string;
  /** Whether the server stores the response. */
  store?: boolean;
}

/** What `responses` and `responsesStream` take: the Responses arguments and the BaseArgs. */
export type ResponsesArgs = Omit<BaseArgs, "provider"> & ChatRouting & ResponsesInput;

/** A Responses call to one target (no failover): what the layers below the failover take. */
export type OneResponsesArgs = BaseArgs & ResponsesInput;
