import type { FailoverEvent } from "./failover";
import type { ToolCallRequest } from "./tools";
import type { Backend } from "./backend";
import type { CallEvent } from "./observe";
import type { HealthEvent, HealthOptions, HedgeOptions, RoutingOptions } from "./health";

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
  /** Accepted so that `@huggingface/inference`'s loggers fit; the client does not call it. */
  error?(message: string): void;
  /** Accepted so that `@huggingface/inference`'s loggers fit; the client does not call it. */
  log?(message: string): void;
  /** Where the lines of `HFKIT_LOG=debug` (or `DEBUG=hfkit`) go: one per request, status and retry, never the token; stderr when absent. */
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
  /** Whose protocol the request spoke (a chat or `textGeneration` call): `tgi`, `transformers` or `openai`. */
  backend?: Backend;
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

export type { Backend } from "./backend";

/** Options of the client (defaults) and of each call (overrides). */
export interface Options {
  /** `"auto"` (default): the HF router; `"hf-inference"`; or another provider's name. */
  provider?: string;
  /** An hf-inference-style base: chat goes to `{baseUrl}/models/{model}/v1/chat/completions`. */
  baseUrl?: string;
  /**
   * The HF router: chat goes to `{routerUrl}/v1/chat/completions` and the catalog is read from `{routerUrl}/v1/models`.
   * Default `https://router.huggingface.co`; a mock hub's URL runs the same calls offline.
   */
  routerUrl?: string;
  /** A dedicated endpoint (TGI or OpenAI-compatible server). */
  endpointUrl?: string;
  /**
   * The Hugging Face Hub asked for a model's inference provider mapping (tasks other than chat on a
   * provider other than hf-inference, or `"auto"`). Default `https://huggingface.co`.
   */
  hubUrl?: string;
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
   * Streamed chat: keep each chunk's event text as the server sent it, read back with `eventText(chunk)`, for the
   * chunks hfkit left as sent (no dialect fix, no split thinking, no tool calls, nothing a failover or a schema added).
   * A relay writes those bytes instead of serialising the chunk again. Default false (a text lives as long as its chunk).
   */
  keepEventText?: boolean;
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
  /**
   * Let a provider's answer name a file, result or poll URL on a loopback, private, link-local or cloud-metadata
   * address (`127.0.0.1`, `10.x`, `169.254.169.254`, `[::1]`, `localhost`). Default `false`: such a URL is refused
   * with an `InferenceClientProviderOutputError`, unless the call's own target is such a host (a local endpoint).
   */
  allowPrivateNetwork?: boolean;
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
  /** Where warnings go. Default: `console`, or what `setLogger` set. */
  logger?: Logger;
  /** Sends `X-HF-Bill-To`. */
  billTo?: string;
  /** `false` sends `x-use-cache: false`. */
  use_cache?: boolean;
  /** Called for every HTTP answer, e.g. to read rate-limit headers. */
  onResponse?: (info: ResponseInfo) => void;
  /** Called before every retry wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Chat calls that fail over (a `provider` list or `fallbackModels`): called at each move to the next candidate. */
  onFailover?: (event: FailoverEvent) => void;
  /**
   * Calls that fail over remember each target's health across calls (a circuit breaker per `model:provider` or
   * endpoint, per credential): a target that failed lately is skipped without a request. On by default
   * (docs/health.md gives the defaults); `false` turns it off, an object sets its threshold, window, cooldown, store.
   */
  health?: false | HealthOptions;
  /** Calls that fail over: the order of the candidates (by latency, throughput or price), a price cap, exploration. */
  routing?: RoutingOptions;
  /**
   * Calls that fail over, opt in: when the running candidate has given no first token after `afterMs` (or the
   * `percentile` of its observed times to first token), the next one starts too; the first to give a token serves the
   * call and the other is aborted (docs/health.md, "Hedged first tokens": a losing provider may bill the prompt).
   * `false` turns a client's hedge off for one call.
   */
  hedge?: false | HedgeOptions;
  /** Calls that fail over: told when a target's breaker opens, half-opens or closes, and when a hedge starts or is won. */
  onHealth?: (event: HealthEvent) => void;
  /**
   * Chat and `textGeneration` calls report to it as they run: their start, each HTTP attempt, each retry or loading
   * wait, each failover move, the first chunk and the end, with timings, tokens, the provider and the error's class
   * (no prompt or answer text, never the token). `@hfkit/otel`'s `withTelemetry()` makes OpenTelemetry spans and
   * metrics of it. An exception it throws is dropped: observing never fails a call.
   */
  observe?: (event: CallEvent) => void;
  /** Accepted for compatibility with `@huggingface/inference`; no credentials mode is ever set. */
  includeCredentials?: string | boolean;
}

/** Options of `listModels`: a call's options, and the catalog's own. */
export interface ListModelsOptions extends Options {
  /** A Hugging Face token (`hf_...`); left out, `HF_TOKEN` from the environment where there is one. */
  accessToken?: string;
  /** `true`: ask the router again even if its list is remembered (then remember the new one). */
  refresh?: boolean;
}

/** A `runTools` call's options: a chat call's, and the loop's own. */
export interface RunToolsOptions extends Options {
  /** The most model calls (steps) the loop makes, an integer from 1 to 100 (default 10). */
  maxSteps?: number;
  /** How long one tool call may run, in ms (default 60 000); a tool's own `timeout` comes first. */
  toolTimeout?: number;
  /** Asked before each call runs: `false` refuses it (the model is told). */
  approve?: (call: ToolCallRequest) => boolean | Promise<boolean>;
}

export type * from "./base";
export type * from "./catalog";
export type * from "./failover";
export type * from "./health";
export type * from "./chat";
export type * from "./chatOutput";
export type * from "./generation";
export type * from "./textTasks";
export type * from "./mediaTasks";
export type * from "./responses";
export type * from "./responsesOutput";
export type * from "./schema";
export type * from "./tools";
export type * from "./observe";
