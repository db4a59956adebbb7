/** The tool runner: its arguments, options, events and result. */
import type { ChatCompletionArgs, ChatCompletionInputMessage } from "./chat";
import type { ChatCompletionOutput, ChatCompletionOutputMessage, ChatCompletionUsage } from "./chatOutput";
import type { SchemaLike, SchemaTool } from "./schema";

/** What `runTools` takes: a chat's arguments, with the tools the model may call and the code that runs them. */
export type RunToolsArgs<S extends readonly SchemaLike[] = readonly SchemaLike[]> = Omit<
  ChatCompletionArgs,
  "tools" | "response_format"
> & {
  /**
   * The tools, each with its `run`; the model is sent their names, descriptions and parameters' JSON Schema. Each
   * is typed from its own `parameters`: written here or made by `tool()`, `run`'s arguments are the validator's
   * output type (`unknown` for a plain JSON Schema).
   */
  tools: { readonly [K in keyof S]: SchemaTool<S[K]> };
};

/** A call the model asks for, as the approval hook sees it. */
export interface ToolCallRequest {
  /** The call's id (made up when the server gave none, as TGI does). */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments, parsed and checked. */
  arguments: unknown;
  /** The step of the loop, from 1. */
  step: number;
}

/** How a tool call went: `ok`, or what kept it from an answer. */
export type ToolCallStatus = "ok" | "error" | "timeout" | "refused" | "invalid-arguments" | "unknown-tool";

/** One tool call and what it gave: the model is sent `content`. */
export interface ToolCallResult {
  /** The call's id. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments as parsed (the raw text when it did not parse). */
  arguments: unknown;
  /** How it went. */
  status: ToolCallStatus;
  /** What `run` returned (for `ok`). */
  value?: unknown;
  /** Why it did not run or what it threw (unless `ok`). */
  error?: Error;
  /** What the model is sent: the value as text (a string as is, anything else as JSON), or the error's message. */
  content: string;
}

/** One step of the loop: the model's answer, and the tool calls it asked for, run. */
export interface ToolStep {
  /** From 1. */
  step: number;
  /** The model's answer. */
  answer: ChatCompletionOutput;
  /** Its tool calls, in the order it asked for them (none on the last step). */
  results: ToolCallResult[];
}

/** What a tool loop ended with. */
export interface ToolRun {
  /** The model's last message: the answer (or, when `maxSteps` was reached, the calls it still asked for). */
  message: ChatCompletionOutputMessage;
  /** Why the loop ended: the model answered without tools, or `maxSteps` was reached. */
  stopReason: "answer" | "max-steps";
  /** Every step, in order. */
  steps: ToolStep[];
  /** The conversation: the messages given, then each step's assistant message and tool results. */
  messages: ChatCompletionInputMessage[];
  /** Tokens counted over every step (as the servers reported them). */
  usage: ChatCompletionUsage;
}

/** What `runToolsStream` yields, in order: a step's text, its tool calls as they are formed, each result as it comes, the step's end, the end. */
export type ToolRunEvent = ToolTextEvent | ToolCallEvent | ToolResultEvent | ToolStepEvent | ToolDoneEvent;

/** A piece of a step's text. */
export interface ToolTextEvent {
  /** `"text"`. */
  type: "text";
  /** The step, from 1. */
  step: number;
  /** The next piece of the text. */
  delta: string;
}

/** A call the model asked for, its arguments whole and checked. */
export interface ToolCallEvent {
  /** `"tool-call"`. */
  type: "tool-call";
  /** The step, from 1. */
  step: number;
  /** The call. */
  call: ToolCallRequest;
}

/** A call's result, as it finished. */
export interface ToolResultEvent {
  /** `"tool-result"`. */
  type: "tool-result";
  /** The step, from 1. */
  step: number;
  /** What the call gave, or why it did not. */
  result: ToolCallResult;
}

/** A step's end: the model's answer and its calls' results. */
export interface ToolStepEvent {
  /** `"step"`. */
  type: "step";
  /** The step. */
  step: ToolStep;
}

/** The end of the loop. */
export interface ToolDoneEvent {
  /** `"done"`. */
  type: "done";
  /** What the loop ended with (also the generator's return value). */
  run: ToolRun;
}
