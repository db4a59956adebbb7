/** TGI versions with a predefined model; any other "x.y.z" works too. */
export type TgiVersion = "2.0.2" | "2.1.1" | "2.2.0" | "2.4.0" | "2.4.1" | "3.1.0" | "3.2.0" | (string & {});

/** What serves a model: TGI, the transformers pipeline, or an OpenAI-protocol server (vLLM, SGLang, llama.cpp). */
export type Backend = "tgi" | "transformers" | "vllm" | "sglang" | "llamacpp";

/** How a transformers-pipeline model answers its `/v1/chat/completions` route (three forms seen for real). */
export type ChatRouteError = "unknown-error" | "wrong-format" | "not-found";

/** How one model behaves; every field is optional. */
export interface ModelConfig {
  /** Which server serves the model. Default "tgi". */
  backend?: Backend;
  /** TGI version: decides framing, `[DONE]`, error shapes, finish reasons. Default "3.2.0". */
  tgiVersion?: TgiVersion;
  /** vLLM / SGLang / llama.cpp version emulated. Defaults "0.12.0", "0.5.0", "b6000". */
  serverVersion?: string;
  /** The deterministic answer, streamed one word-token at a time. */
  text?: string;
  /** What the model thinks first: streamed as reasoning deltas in the server's dialect, before `text`. */
  reasoning?: string;
  /** Chat answers put the reasoning inline in `content` as `<think>…</think>` (tags cut across chunks). */
  thinkInline?: boolean;
  /**
   * The router's providers for this model, first = `:fastest`: a name, or a name with what the router's
   * `GET /v1/models` says of it. Default `["hf-inference"]`.
   */
  providers?: (string | RouterProvider)[];
  /** What the router's `GET /v1/models` says the model takes in and gives out. Default text in, text out. */
  architecture?: {
    /** Default `["text"]`. */
    inputModalities?: string[];
    /** Default `["text"]`. */
    outputModalities?: string[];
  };
  /** OpenAI-protocol servers: the stream starts with a chunk whose `choices` is `[]`. */
  leadingEmptyChoices?: boolean;
  /** false: TGI answers 422 `template_error` on the chat route. Default true. */
  chatTemplate?: boolean;
  /** TGI `max_total_tokens` (prompt + `max_new_tokens` limit). Default 4096. */
  maxTotalTokens?: number;
  /** transformers: what the chat route answers. Default "unknown-error". */
  chatRouteError?: ChatRouteError;
  /** transformers: parameters answered with 400 "model_kwargs are not used", in this order. */
  unusedModelKwargs?: string[];
  /** Arguments of every tool call the model makes when given tools (default: a value built from each tool's `parameters`). */
  toolArguments?: Record<string, unknown>;
  /** Faults always scripted for this model (restored fresh by `reset()`). */
  faults?: Fault[];
  /**
   * The pipeline its `POST /models/{id}` serves, e.g. `"fill-mask"` or `"text-to-image"` (see the README's
   * task table); ids `hfkit/<task>` serve that task without a config. Default: text generation.
   */
  task?: string;
  /**
   * What `GET /api/models/{id}?expand[]=inferenceProviderMapping` answers, by provider (the Hub's order is
   * this object's). Default: the mapping of a few `hfkit/...` ids (see the README), else `{}`.
   */
  inferenceProviderMapping?: Record<string, ProviderMappingEntry>;
}

/** A provider of a model on the router, and what the router's `GET /v1/models` says of it (each field optional). */
export interface RouterProvider {
  /** The provider's name, e.g. `"together"`. */
  provider: string;
  /** Its `status`. Default `"live"`. */
  status?: string;
  /** Its `context_length`, in tokens; `null` leaves it out. Default the model's `maxTotalTokens`. */
  contextLength?: number | null;
  /** Its `pricing`, dollars per million tokens; `null` leaves it out. Default `{ input: 0.1, output: 0.3 }`. */
  pricing?: {
    /** Dollars per million prompt tokens. */
    input: number;
    /** Dollars per million generated tokens. */
    output: number;
  } | null;
  /** Its `supports_tools`. Default true. */
  supportsTools?: boolean;
  /** Its `supports_structured_output`. Default true. */
  supportsStructuredOutput?: boolean;
  /** Its `is_model_author`. Default false. */
  isModelAuthor?: boolean;
}

/** One provider's entry in a model's `inferenceProviderMapping`, as the Hub answers it. */
export interface ProviderMappingEntry {
  /** The provider's own id of the model, e.g. `"black-forest-labs/FLUX.1-schnell"`. */
  providerId: string;
  /** The pipeline the provider serves the model for, e.g. `"text-to-image"`. */
  task: string;
  /** `"live"`, or `"staging"` (for test purposes only). */
  status: "live" | "staging";
  /** For an adapter of a base model the provider serves: its kind (`"lora"`). */
  adapter?: string;
  /** The adapter's weights file in the model's repository. */
  adapterWeightsPath?: string;
}

/** The hub's models: what `createMockHub` and `startMockHub` take. */
export interface MockHubConfig {
  /** Models by id, added to (or replacing) the predefined ones. */
  models?: Record<string, ModelConfig>;
  /** The model behind `/v1/chat/completions` with `model: "tgi"` or none, `/info`, `/generate`. */
  defaultModel?: string;
  /**
   * Refuse what production refuses: a request without a token (401, as the router answers it), and a model the
   * hub does not serve (the router's 400 `model_not_supported`, hf-inference's 404 `Model X does not exist`).
   * Default false: any token or none, and an unknown model answers as a default model of its route's task.
   */
  strict?: boolean;
  /**
   * One line per request (method, path, model, status, time to the status line, the fault applied): `true`
   * writes it with `console.error`, a function receives it. Never holds a token. Default off.
   */
  log?: boolean | ((line: string) => void);
}

/** Which requests a fault applies to: the first `times` matching ones, of one router provider. */
interface FaultScope {
  /** How many requests it applies to; forever when unset (`InjectOptions.times` overrides it). */
  times?: number;
  /**
   * Only the router's requests this provider serves, as `InjectOptions.provider` (which overrides it):
   * how a model's config `faults` name one. Any request when unset.
   */
  provider?: string;
  /**
   * How long it applies, in ms from when it is scripted (injected, or the hub's start for a model's config):
   * then it is removed, and the provider answers again (with `times`, whichever ends first). Forever when
   * unset (`loading`: its `estimatedTime`). Timed with `setTimeout`, so a fake clock (vitest's) moves it.
   */
  durationMs?: number;
}

/** A fault of the serverless proxy: it answers instead of the model (chat, pipeline and generate routes). */
export type ProxyFault = FaultScope &
  (
    | {
        /** 503 `{"error": "Model X is currently loading", "estimated_time"}`; a request with `x-wait-for-model: true` is held until loaded. */
        type: "loading";
        /** The `estimated_time` sent, in seconds. Default 20. */
        estimatedTime?: number;
        /** How long loading lasts, in ms, if `times` does not end it first; Infinity: until `times` or `remove()`. Default `estimatedTime` seconds. */
        durationMs?: number;
      }
    | {
        /** 429 `{"error": "Rate limit reached. ..."}`. */
        type: "rateLimit";
        /** Sent as `retry-after`, in seconds. Default: with `durationMs`, the seconds left of it (rounded up); else none. */
        retryAfter?: number;
        /** Sent as `retry-after-ms`. */
        retryAfterMs?: number;
      }
    | {
        /** A 5xx `{"error": "<reason>"}`, or your body. */
        type: "serverError";
        /** The status. Default 500. */
        status?: number;
        /** A body to send instead of the JSON error. */
        body?: string;
        /** The `content-type` of `body`. Default `text/plain; charset=utf-8`. */
        contentType?: string;
      }
    | {
        /** 401 `{"error": "Invalid username or password."}`. */
        type: "unauthorized";
      }
    | {
        /** 403 "The model X is too large to be loaded automatically (145GB > 10GB). ...". */
        type: "tooLarge";
      }
  );

/** A fault of an event stream: the answer starts, then goes wrong the way real servers and networks do. */
export type StreamFault = FaultScope &
  (
    | {
        /** 200, then `Model is overloaded` as an in-stream error in the server's shape. */
        type: "overloadedInStream";
        /** Events sent before the error. Default 0 (the error is the first event). */
        afterChunks?: number;
      }
    | {
        /** The Responses route only: 200, then a `response.failed` event (its `response.error` set), and nothing more. */
        type: "responseFailed";
        /** Events sent before it. Default 0. */
        afterChunks?: number;
        /** `response.error.code`. Default `"server_error"`. */
        code?: string;
        /** `response.error.message`. Default "The model failed to generate a response.". */
        message?: string;
      }
    | {
        /** After the last event (and any `[DONE]`), the body stays open. */
        type: "linger";
      }
    | {
        /** After `afterChunks` events, nothing more; the body stays open. */
        type: "stall";
        /** Events sent before the fault. Default 1. */
        afterChunks?: number;
      }
    | {
        /** After `afterChunks` events, the socket is destroyed. */
        type: "drop";
        /** Events sent before the fault. Default 1. */
        afterChunks?: number;
      }
    | {
        /** After `afterChunks` events, the body ends cleanly, with no `finish_reason`. */
        type: "truncate";
        /** Events sent before the fault. Default 1. */
        afterChunks?: number;
      }
    | {
        /** After `afterChunks` events, one event whose JSON does not parse; the rest follows. */
        type: "malformed";
        /** Events sent before the fault. Default 1. */
        afterChunks?: number;
      }
    | {
        /** A `:` comment after each silence of `intervalMs`, as TGI sends. */
        type: "keepAlive";
        /** The silence before each comment, in ms. Default 15 000 (TGI's). */
        intervalMs?: number;
      }
    | {
        /** A delay between events. */
        type: "slow";
        /** The delay, in ms. */
        delayMs: number;
      }
    | {
        /** Each event written in pieces, cut inside UTF-8 sequences and CRLF pairs too. */
        type: "bodyChunking";
        /** Bytes per piece. Unset: each event in one piece. */
        bytes?: number;
        /** A delay after each piece, in ms. */
        delayMs?: number;
      }
    | {
        /** Lines end with `ending` instead of `"\n"`. */
        type: "lineEnding";
        /** `"\r\n"` or `"\r"` (or `"\n"`, the default). */
        ending: "\n" | "\r\n" | "\r";
      }
    | {
        /** A UTF-8 byte-order mark before the first event. */
        type: "bom";
      }
  );

/**
 * A refusal of the HF router for the provider it routed the request to, answered before the provider is asked.
 * Router requests only (the body's `model` on `/v1/chat/completions` or `/v1/responses`, or hf-inference's own path).
 */
export type RouterFault = FaultScope &
  (
    | {
        /** 400 `{"error": "Model not supported by provider <name>"}`: the provider does not serve the model. */
        type: "modelNotServed";
      }
    | {
        /**
         * 400 `{"error": {"message": "The requested model '<model>' is not supported by any provider you have enabled.",
         * "type": "invalid_request_error", "param": "model", "code": "model_not_supported"}}`.
         */
        type: "providerNotEnabled";
      }
    | {
        /**
         * A request whose body has a non-empty `tools` list: 400 `{"error": {"message": "Provider <name> does not
         * support tools for model '<model>'.", "type": "invalid_request_error", "param": "tools", "code":
         * "tools_not_supported"}}`. A request without tools is answered normally, and does not count.
         */
        type: "toolsUnsupported";
      }
  );

/** A fault of the connection, before any status line: a delay, or no answer at all. */
export type ConnectionFault = FaultScope &
  (
    | {
        /** Waits `delayMs` before the status line. */
        type: "headersDelay";
        /** The wait, in ms. */
        delayMs: number;
      }
    | {
        /**
         * No HTTP answer: the Node server (`startMockHub`) destroys the socket before a status line, so `fetch`
         * rejects with a `TypeError` (a network error); the core's `handle()` gives `Response.error()` (type
         * `"error"`, status 0), which msw turns into the same `TypeError`. Any request for the model (with a
         * `provider`, that provider's router requests).
         */
        type: "refused";
      }
  );

/**
 * A wait before the first token: before the first event of a stream (its status line goes at once), before
 * the status line of a whole answer. Fixed (`delayMs`), or heavy-tailed: log-normal with the given `p50Ms` and
 * `p99Ms`, the n-th request's wait drawn from `seed` and n, so that a run repeats.
 */
export type LatencyFault = FaultScope & {
  /** `"latency"`. */
  type: "latency";
  /** A fixed wait, in ms (>= 0). Not with `p50Ms` / `p99Ms`. */
  delayMs?: number;
  /** The median wait, in ms (> 0), with `p99Ms`. */
  p50Ms?: number;
  /** The 99th percentile, in ms (>= `p50Ms`), with `p50Ms`. */
  p99Ms?: number;
  /** The draws' seed, an integer. Default 1. */
  seed?: number;
};

/**
 * A fault of the model's structured answer: the next answer written for a JSON schema (`response_format`, a
 * JSON `grammar` on `/generate`) comes out broken, then the model keeps to the schema again (`times` defaults
 * to 1 here). Requests that ask for no schema neither see nor use it.
 */
export type StructuredOutputFault = FaultScope &
  (
    | {
        /** Text that is not JSON: a sentence before the JSON, whose last character is missing. */
        type: "badJson";
      }
    | {
        /** Valid JSON that breaks the schema: the first required property left out, else a value of a type it does not take. */
        type: "schemaViolation";
      }
  );

/** A scripted failure: a proxy fault, a stream fault, a router refusal, a fault of the connection, a latency, or of a structured answer. */
export type Fault = ProxyFault | StreamFault | RouterFault | ConnectionFault | LatencyFault | StructuredOutputFault;

/** The name of a fault, e.g. `"loading"` or `"drop"`. */
export type FaultType = Fault["type"];

/** Which requests an injected fault applies to. */
export interface InjectOptions {
  /** Only requests for this model (all models when unset). */
  model?: string;
  /**
   * Only the router's requests that this provider serves (its `:provider` suffix, the router's pick, or
   * `"hf-inference"` on its own path): one provider of a model failing while the others answer, to test
   * failover offline. Overrides `fault.provider`; every request when both are unset.
   */
  provider?: string;
  /** Overrides `fault.times`. */
  times?: number;
}

/** A scripted fault; read `hits` to see how often it applied. */
export interface FaultRule {
  /** The fault scripted. */
  readonly fault: Fault;
  /** The model it applies to; undefined: every model. */
  readonly model: string | undefined;
  /** The router's provider it applies to; undefined: any request. */
  readonly provider: string | undefined;
  /** How many requests it has applied to so far. */
  readonly hits: number;
  /** Applications left; undefined = unlimited. */
  readonly remaining: number | undefined;
  /** When `durationMs` ends it, in ms since the epoch; undefined: no end in time. */
  readonly endsAt: number | undefined;
  /** `false` once used up, timed out or removed. */
  readonly active: boolean;
  /** Stops the fault at once. */
  remove(): void;
}

/** A request the hub received, as `hub.requests` lists it. */
export interface RecordedRequest {
  /** The HTTP method. */
  method: string;
  /** Path and query, as received. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, else the text; undefined when empty. */
  body: unknown;
  /** When it arrived, in ms since the epoch. */
  time: number;
  /** The `x-request-id` the hub answered it with (`mock-<n>`). */
  requestId: string;
  /**
   * The router's provider it went to (its `:provider`, the router's pick, or `"hf-inference"` on its own path),
   * as a provider's faults see it; undefined for a request that no provider serves.
   */
  provider?: string;
}

/** Options of `MockHubCore.handle`. */
export interface HandleOptions {
  /** A path prefix to strip before routing (msw handlers mounted under a base URL). */
  basePath?: string;
}

/** The web-standard core: runs in Node, browsers and msw. */
export interface MockHubCore {
  /** Answers one request as the Hugging Face backends would; a `refused` fault answers `Response.error()`. */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /** Every request received, in order, until `reset()`. */
  readonly requests: RecordedRequest[];
  /** Response bodies currently being written or held open. */
  openStreams(): number;
  /** Adds or replaces a model, from the next request on. */
  setModel(id: string, config: ModelConfig): void;
  /**
   * Scripts a fault for the next `times` requests (all, without) for `model` (every model, without), for
   * `durationMs` if it says. A value out of its range is a RangeError naming the field and the range.
   */
  inject(fault: Fault, options?: InjectOptions): FaultRule;
  /** Removes every scripted fault, config ones included, until `reset()`. */
  clearFaults(): void;
  /** Clears recorded requests and injected faults; restores the models' configured faults. */
  reset(): void;
  /** Ends open streams, releases held requests and clears every timer. */
  dispose(): void;
}
