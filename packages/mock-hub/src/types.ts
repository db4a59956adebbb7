/** TGI versions with a predefined model; any other "x.y.z" works too. */
export type TgiVersion =
  | "2.0.2"
  | "2.1.1"
  | "2.2.0"
  | "2.4.0"
  | "2.4.1"
  | "3.1.0"
  | "3.2.0"
  | (string & {});

export type Backend = "tgi" | "transformers";

/** How a transformers-pipeline model answers its `/v1/chat/completions` route (three forms seen for real). */
export type ChatRouteError = "unknown-error" | "wrong-format" | "not-found";

export interface ModelConfig {
  /** Which server serves the model. Default "tgi". */
  backend?: Backend;
  /** TGI version: decides framing, `[DONE]`, error shapes, finish reasons. Default "3.2.0". */
  tgiVersion?: TgiVersion;
  /** The deterministic answer, streamed one word-token at a time. */
  text?: string;
  /** false: TGI answers 422 `template_error` on the chat route. Default true. */
  chatTemplate?: boolean;
  /** TGI `max_total_tokens` (prompt + `max_new_tokens` limit). Default 4096. */
  maxTotalTokens?: number;
  /** transformers: what the chat route answers. Default "unknown-error". */
  chatRouteError?: ChatRouteError;
  /** transformers: parameters answered with 400 "model_kwargs are not used", in this order. */
  unusedModelKwargs?: string[];
  /** Arguments of the tool call the model makes when given tools (default: built from the schema). */
  toolArguments?: Record<string, unknown>;
  /** Faults always scripted for this model (restored fresh by `reset()`). */
  faults?: Fault[];
}

export interface MockHubConfig {
  models?: Record<string, ModelConfig>;
  /** The model behind `/v1/chat/completions` with `model: "tgi"` or none, `/info`, `/generate`. */
  defaultModel?: string;
}

/** Applies to the first `times` matching requests (forever when unset). */
interface Counted {
  times?: number;
}

export type ProxyFault = Counted &
  (
    | { type: "loading"; estimatedTime?: number; durationMs?: number }
    | { type: "rateLimit"; retryAfter?: number; retryAfterMs?: number }
    | { type: "serverError"; status?: number; body?: string; contentType?: string }
    | { type: "unauthorized" }
    | { type: "tooLarge" }
  );

export type StreamFault = Counted &
  (
    | { type: "overloadedInStream" }
    | { type: "linger" }
    | { type: "stall"; afterChunks?: number }
    | { type: "drop"; afterChunks?: number }
    | { type: "truncate"; afterChunks?: number }
    | { type: "malformed"; afterChunks?: number }
    | { type: "keepAlive"; intervalMs?: number }
    | { type: "slow"; delayMs: number }
    | { type: "bodyChunking"; bytes?: number; delayMs?: number }
    | { type: "lineEnding"; ending: "\n" | "\r\n" | "\r" }
    | { type: "bom" }
  );

export type Fault = ProxyFault | StreamFault | (Counted & { type: "headersDelay"; delayMs: number });

export type FaultType = Fault["type"];

export interface InjectOptions {
  /** Only requests for this model (all models when unset). */
  model?: string;
  /** Overrides `fault.times`. */
  times?: number;
}

/** A scripted fault; read `hits` to see how often it applied. */
export interface FaultRule {
  readonly fault: Fault;
  readonly model: string | undefined;
  readonly hits: number;
  /** Applications left; undefined = unlimited. */
  readonly remaining: number | undefined;
  readonly active: boolean;
  remove(): void;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, else the text; undefined when empty. */
  body: unknown;
  time: number;
  requestId: string;
}

export interface HandleOptions {
  /** A path prefix to strip before routing (msw handlers mounted under a base URL). */
  basePath?: string;
}

/** The web-standard core: runs in Node, browsers and msw. */
export interface MockHubCore {
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  readonly requests: RecordedRequest[];
  /** Response bodies currently being written or held open. */
  openStreams(): number;
  setModel(id: string, config: ModelConfig): void;
  inject(fault: Fault, options?: InjectOptions): FaultRule;
  /** Removes every scripted fault, config ones included, until `reset()`. */
  clearFaults(): void;
  /** Clears recorded requests and injected faults; restores the models' configured faults. */
  reset(): void;
  /** Ends open streams, releases held requests and clears every timer. */
  dispose(): void;
}
