/**
 * What a call reports as it runs, to the `observe` option: its start, each HTTP attempt, each retry or loading
 * wait, each failover move, its first chunk and its end. No prompt or answer text, never the token. Every string an
 * event carries (a server's or a model's words included: a model's name, a provider, a request id) is redacted (the
 * call's token, any `hf_…` token, `Bearer …`), without control characters, and at most 200 characters long.
 */
import type { FailoverReason } from "./failover";
import type { Backend } from "./backend";
import type { ToolCallStatus } from "./tools";
import type { BreakerState } from "./health";

/** The operation, as OpenTelemetry's GenAI conventions name it (`gen_ai.operation.name`), or the task's name. */
export type CallOperation = "chat" | "text_completion" | "generate_content" | (string & {});

/** Where a call is in its life: what `observe` is told. */
export type CallEvent =
  | CallStartEvent
  | CallAttemptEvent
  | CallRetryEvent
  | CallFailoverEvent
  | CallBreakerEvent
  | CallHedgeEvent
  | CallFirstChunkEvent
  | CallEndEvent
  | CallToolEvent;

/** The call began (before its checks: a call refused as bad input still ends, with `InputError`). */
export interface CallStartEvent {
  /** `"start"`. */
  type: "start";
  /** This call's number in the process, the same on all its events. */
  call: number;
  /** The operation: `"chat"` for chat and the tool runner's steps, `"text_completion"` for `textGeneration`. */
  operation: CallOperation;
  /** The model asked for (`model:provider` as given), or `""` on an endpoint without one. */
  model: string;
  /** Whether the answer is streamed. */
  stream: boolean;
  /** The request's parameters that the conventions name (temperature, top_p, max_tokens, …), when set. */
  parameters: Readonly<Record<string, number | string | boolean>>;
  /** When, in ms since the epoch. */
  time: number;
}

/** An HTTP attempt was answered (its status and headers arrived). */
export interface CallAttemptEvent {
  /** `"attempt"`. */
  type: "attempt";
  /** The call's number. */
  call: number;
  /** The attempt's number, from 1. */
  attempt: number;
  /** The HTTP status. */
  status: number;
  /** From the attempt's request to its answer's headers, in ms. */
  durationMs: number;
  /** The server's host (`router.huggingface.co`), never the path's query or any credential. */
  host: string;
  /** The provider that answered through the HF router (`x-inference-provider`), redacted and at most 200 characters. */
  provider?: string;
  /** Whose protocol the attempt spoke (a chat or `textGeneration` call): `tgi`, `transformers` or `openai`. */
  backend?: Backend;
  /** The server's request id, redacted and at most 200 characters. */
  requestId?: string;
}

/** A retry, or a wait for a loading model, was planned. */
export interface CallRetryEvent {
  /** `"retry"`. */
  type: "retry";
  /** The call's number. */
  call: number;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** Why: `"loading"` (a wait for the model, `estimatedTime` the server's estimate), `"rate-limit"`, `"server-error"`, `"connection"`, … */
  reason: string;
  /** The wait before the next attempt, in ms. */
  delayMs: number;
  /** The failed attempt's HTTP status, when it had one. */
  status?: number;
  /** A loading model: the server's estimate of the time left, in seconds. */
  estimatedTime?: number;
}

/** A call that fails over moved from one candidate to the next. */
export interface CallFailoverEvent {
  /** `"failover"`. */
  type: "failover";
  /** The call's number. */
  call: number;
  /** The candidate left, `model:provider`. */
  from: string;
  /** The next one. */
  to: string;
  /** Why. */
  reason: FailoverReason;
  /** The error's class name (`ServerError`, `TimeoutError`); absent for a skip. */
  error?: string;
}

/** A call that fails over changed a target's circuit breaker: opened it, took its probe (half-open), or closed it. */
export interface CallBreakerEvent {
  /** `"breaker"`. */
  type: "breaker";
  /** The call's number. */
  call: number;
  /** The target, `model:provider` or an endpoint's origin. */
  target: string;
  /** Its new state. */
  state: BreakerState;
  /** Failures within the window when it changed. */
  failures: number;
  /** When it opened: how long until one call may probe it, in ms. */
  cooldownMs?: number;
}

/** A hedge started (the next candidate beside the running one), or was won (`winner` set; the other was aborted). */
export interface CallHedgeEvent {
  /** `"hedge"`. */
  type: "hedge";
  /** The call's number. */
  call: number;
  /** The candidate that was running. */
  from: string;
  /** The candidate started beside it. */
  to: string;
  /** The one whose first token came first; absent when the hedge starts. */
  winner?: string;
}

/** The first chunk with data arrived (never a keep-alive, never an empty event). */
export interface CallFirstChunkEvent {
  /** `"first-chunk"`. */
  type: "first-chunk";
  /** The call's number. */
  call: number;
  /** From the call's start, in ms. */
  ms: number;
}

/** The call ended: its answer, or its error. */
export interface CallEndEvent {
  /** `"end"`. */
  type: "end";
  /** The call's number. */
  call: number;
  /** From the call's start to its end (a stream's: its last chunk, or its error), in ms. */
  durationMs: number;
  /** A stream's chunks with data (for a whole answer, 1). */
  chunks: number;
  /** A stream's mean time between its chunks after the first, in ms (absent with fewer than two). */
  timePerChunkMs?: number;
  /** Tokens, when the server counted them. */
  usage?: CallTokens;
  /** The model that answered, as the server names it: redacted and at most 200 characters. */
  responseModel?: string;
  /**
   * Each choice's finish reason (at most 128): `stop`, `length`, `tool_calls`, `content_filter`, `function_call`,
   * `eos_token`, `stop_sequence`, `abort`, `error`, or a Responses API status (`completed`, `incomplete`, `failed`,
   * `cancelled`, `in_progress`, `queued`); any other word a server sends is `"other"`.
   */
  finishReasons: string[];
  /** The provider that served it (the router's `x-inference-provider`, or a failover's `served`), redacted, ≤ 200 characters. */
  provider?: string;
  /** Whose protocol served it (a chat or `textGeneration` call): `tgi`, `transformers` or `openai`. */
  backend?: Backend;
  /** How many HTTP attempts it took, and how many of those were retries or loading waits. */
  attempts: number;
  /** The error that ended it: its class name and, for a timeout, which limit fired. */
  error?: CallErrorInfo;
}

/** Tokens counted for a call. */
export interface CallTokens {
  /** The prompt's. */
  input: number;
  /** The answer's. */
  output: number;
}

/** What ended a call in error. */
export interface CallErrorInfo {
  /** The error's class name, e.g. `"RateLimitError"`. */
  name: string;
  /** A `TimeoutError`'s limit: `"deadline"`, `"first-chunk"`, `"idle"` or `"stall"`. */
  kind?: string;
}

/** The tool runner ran one tool call (the GenAI conventions' `execute_tool`): an event of its own, once it is over. */
export interface CallToolEvent {
  /** `"tool"`. */
  type: "tool";
  /** This tool call's own number in the process (the steps' chat calls have theirs). */
  call: number;
  /** The runner's step that asked for it, from 1. */
  step: number;
  /** The declared tool the model asked for; `""` when it named none of them (`unknown-tool`): a made-up name is never told. */
  name: string;
  /** The tool call's id (the model's, redacted and at most 200 characters). */
  callId: string;
  /** How it went: `ok`, or why it did not run or failed (`error`, `timeout`, `refused`, `unknown-tool`, `invalid-arguments`). */
  status: ToolCallStatus;
  /** From the start of its run (its approval included) to its result, in ms. */
  durationMs: number;
  /** The error's class name, unless `ok`. */
  error?: string;
}
