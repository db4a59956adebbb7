/** The answers of the Responses API: a whole response, and the events of a stream. */
import type { Served } from "./failover";

/** A piece of an answer's text. */
export interface ResponsesOutputText {
  /** `"output_text"`. */
  type: "output_text";
  /** The text. */
  text: string;
  /** Citations and other notes on the text (none from a chat-served model). */
  annotations: unknown[];
  /** The tokens' log probabilities, when the server sent them. */
  logprobs?: unknown[];
}

/** A piece of a reasoning model's thinking. */
export interface ResponsesReasoningText {
  /** `"reasoning_text"`. */
  type: "reasoning_text";
  /** The thinking. */
  text: string;
}

/** Whether an item is still being written, done, or cut short. */
export type ResponsesItemStatus = "in_progress" | "completed" | "incomplete";

/** The answer's message. */
export interface ResponsesOutputMessage {
  /** `"message"`. */
  type: "message";
  /** The item's id (`msg_…`). */
  id: string;
  /** `"assistant"`. */
  role: "assistant";
  /** Where the item stands. */
  status: ResponsesItemStatus;
  /** The text parts. */
  content: ResponsesOutputText[];
}

/** The model's thinking, as a separate item before the message. */
export interface ResponsesReasoningItem {
  /** `"reasoning"`. */
  type: "reasoning";
  /** The item's id (`rs_…`). */
  id: string;
  /** A summary of the thinking (empty unless the server made one). */
  summary: unknown[];
  /** The thinking itself. */
  content?: ResponsesReasoningText[];
  /** Where the item stands. */
  status?: ResponsesItemStatus;
}

/** A function the model asks you to call; send its result back as a `function_call_output` with the same `call_id`. */
export interface ResponsesFunctionCall {
  /** `"function_call"`. */
  type: "function_call";
  /** The item's id (`fc_…`). */
  id: string;
  /** The call's id, which the result names. */
  call_id: string;
  /** The function's name, one of the `tools` given. */
  name: string;
  /** Its arguments as a JSON string (parse it: a model may write invalid JSON). */
  arguments: string;
  /** Where the item stands. */
  status?: ResponsesItemStatus;
}

/** One item of a response's `output`. */
export type ResponsesOutputItem = ResponsesOutputMessage | ResponsesReasoningItem | ResponsesFunctionCall;

/** Tokens counted for one response. */
export interface ResponsesUsage {
  /** Tokens of the input (instructions, messages, tools). */
  input_tokens: number;
  /** Details of the input tokens. */
  input_tokens_details?: {
    /** Input tokens read from the server's cache. */
    cached_tokens: number;
  };
  /** Tokens generated, reasoning included. */
  output_tokens: number;
  /** Details of the output tokens. */
  output_tokens_details?: {
    /** Tokens of reasoning. */
    reasoning_tokens: number;
  };
  /** Both added. */
  total_tokens: number;
}

/** A whole response, as `responses` resolves to it (and `response.completed` carries it). */
export interface ResponsesOutput {
  /** A call that fails over: which candidate answered (on a stream, on each event's `response`). */
  served?: Served;
  /** The response's id (`resp_…`). */
  id: string;
  /** `"response"`. */
  object: "response";
  /** When it was made, in Unix seconds. */
  created_at: number;
  /** `"completed"`; `"incomplete"` when cut by `max_output_tokens`; `"in_progress"` in a stream's first events. */
  status: "completed" | "incomplete" | "in_progress" | "failed" | (string & {});
  /** The model that answered. */
  model: string;
  /** The answer's items, in order: reasoning, the message, function calls. */
  output: ResponsesOutputItem[];
  /** The text of every message of `output`, joined (as the `openai` package adds it). */
  output_text: string;
  /** Why the response is incomplete (`{reason: "max_output_tokens"}`), else null. */
  incomplete_details: {
    /** What cut it: `"max_output_tokens"`, `"content_filter"`. */
    reason: string;
  } | null;
  /** The error of a failed response, else null. */
  error: {
    /** OpenAI's code, e.g. `"server_error"`, `"rate_limit_exceeded"`. */
    code: string | null;
    /** What went wrong. */
    message: string;
  } | null;
  /** The instructions given, else null. */
  instructions: string | null;
  /** The `max_output_tokens` given, else null. */
  max_output_tokens: number | null;
  /** The metadata given, else null. */
  metadata: Record<string, string> | null;
  /** The sampling temperature used. */
  temperature: number;
  /** The nucleus sampling used. */
  top_p: number;
  /** The tools given. */
  tools: unknown[];
  /** The tool choice given. */
  tool_choice: unknown;
  /** Whether several tools may be called at once. */
  parallel_tool_calls: boolean;
  /** Tokens counted, when the server counted them; else null. */
  usage: ResponsesUsage | null;
  [property: string]: unknown;
}

/** Fields every stream event has. */
interface EventBase {
  /** The event's number in the stream, from 0. */
  sequence_number: number;
}

/** Fields of the events about one item. */
interface ItemEvent extends EventBase {
  /** The item's id. */
  item_id: string;
  /** The item's place in `output`. */
  output_index: number;
}

/** The response starts, is under way, or ended (`completed`, `incomplete`). */
export interface ResponsesLifecycleEvent extends EventBase {
  /** Which step. */
  type: "response.created" | "response.in_progress" | "response.completed" | "response.incomplete";
  /** The response as it stands. */
  response: ResponsesOutput;
}

/** An item of `output` starts or is done. */
export interface ResponsesItemEvent extends EventBase {
  /** Which step. */
  type: "response.output_item.added" | "response.output_item.done";
  /** The item's place in `output`. */
  output_index: number;
  /** The item as it stands. */
  item: ResponsesOutputItem;
}

/** A content part of an item starts or is done. */
export interface ResponsesContentPartEvent extends ItemEvent {
  /** Which step. */
  type: "response.content_part.added" | "response.content_part.done";
  /** The part's place in the item's content. */
  content_index: number;
  /** The part as it stands. */
  part: ResponsesOutputText | ResponsesReasoningText;
}

/** The next piece of the answer's text or thinking. */
export interface ResponsesTextDeltaEvent extends ItemEvent {
  /** Text or thinking. */
  type: "response.output_text.delta" | "response.reasoning_text.delta";
  /** The part's place in the item's content. */
  content_index: number;
  /** The piece; join them in order. */
  delta: string;
  /** The piece's log probabilities, when sent. */
  logprobs?: unknown[];
}

/** The whole text or thinking of a part. */
export interface ResponsesTextDoneEvent extends ItemEvent {
  /** Text or thinking. */
  type: "response.output_text.done" | "response.reasoning_text.done";
  /** The part's place in the item's content. */
  content_index: number;
  /** The whole text. */
  text: string;
  /** The log probabilities, when sent. */
  logprobs?: unknown[];
}

/** The next piece of a function call's arguments. */
export interface ResponsesFunctionCallArgumentsDeltaEvent extends ItemEvent {
  /** `"response.function_call_arguments.delta"`. */
  type: "response.function_call_arguments.delta";
  /** The piece; join them in order. */
  delta: string;
}

/** A function call's whole arguments. */
export interface ResponsesFunctionCallArgumentsDoneEvent extends ItemEvent {
  /** `"response.function_call_arguments.done"`. */
  type: "response.function_call_arguments.done";
  /** The arguments, a JSON string. */
  arguments: string;
  /** The function's name. */
  name?: string;
}

/**
 * One event of a Responses stream. `response.failed` and `error` events are thrown as typed errors
 * instead; events of other types (hosted tools' progress, summaries) are not yielded.
 */
export type ResponsesStreamEvent =
  | ResponsesLifecycleEvent
  | ResponsesItemEvent
  | ResponsesContentPartEvent
  | ResponsesTextDeltaEvent
  | ResponsesTextDoneEvent
  | ResponsesFunctionCallArgumentsDeltaEvent
  | ResponsesFunctionCallArgumentsDoneEvent;
