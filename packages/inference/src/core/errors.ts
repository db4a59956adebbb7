/**
 * Typed errors. Every class carries a string-literal `kind`, which is also its `name` (it survives minification), and a
 * `Symbol.for` brand so `instanceof` works across the ESM and CommonJS copies of the package.
 */

import {
  HUB_API,
  type HttpRequestInfo,
  type HttpResponseInfo,
  PROVIDER_API,
  PROVIDER_OUTPUT,
  ROUTING,
} from "./errorShapes";
import { redactText, serverText } from "./redact";

export type { HttpRequestInfo, HttpResponseInfo } from "./errorShapes";

const BRAND: unique symbol = Symbol.for("hfkit.error.kinds");

/**
 * The longest message an error keeps, whoever made it: a server's or a model's words (an error event of megabytes)
 * are kept to their start, redacted before the cut (with room for a token across it), and marked cut with "…".
 */
export const MAX_MESSAGE_CHARS = 4096;

/** The base of every error the client throws: catch it to catch them all. */
export class InferenceError extends Error {
  /** The class's name, which `instanceof` checks across copies of the package. */
  static readonly kind: string = "InferenceError";
  /** The class's name, e.g. `"RateLimitError"` (its `kind`, so it survives minification). */
  declare name: string;
  /** The `kind` of each class this error is (set by the constructor, not enumerable). */
  declare private readonly [BRAND]: unknown[];

  /** `message` says what failed (its first 4 096 characters are kept); `cause` is the underlying error, if any. */
  constructor(message: string, options?: { cause?: unknown }) {
    // Cut as server text is (redacted with room past the cut: a token across it is replaced, not halved).
    super(message?.length > MAX_MESSAGE_CHARS ? `${serverText(message, "", MAX_MESSAGE_CHARS)}…` : message, options);
    this.name = new.target.kind;
    const kinds: unknown[] = [];
    // Each class up the chain that declares its own `kind`; `Error` does not.
    for (let c: { kind?: unknown } | null = new.target; c && Object.hasOwn(c, "kind"); c = Reflect.getPrototypeOf(c)) {
      kinds.push(c.kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
  }

  /** Marks this error as also being of the class whose `kind` is given (a second family, such as `@huggingface/inference`'s). */
  protected also(kind: string): void {
    this[BRAND].push(kind);
  }

  /** `instanceof` that also recognises errors of this class made by another copy of the package (ESM and CommonJS). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const kinds: unknown = Reflect.get(value, BRAND);
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** Bad arguments: raised before any request is sent. */
export class InputError extends InferenceError {
  static override readonly kind: string = "InputError";
  /** The argument at fault, e.g. `top_p` or `messages[1].role`. */
  declare readonly field: string | undefined;
  /** `message` says what is wrong; `field` names the argument. */
  constructor(message: string, field?: string) {
    super(message);
    this.field = field;
  }
}

/** What an HttpError is made from. */
export interface HttpErrorInit {
  /** The HTTP status code (for an error inside a 200 stream, the status that error stands for). */
  status: number;
  /** The error body: parsed JSON, else the text. */
  body: unknown;
  /** The HTTP status the answer came with, when it differs from `status` (200 for an error inside a stream). */
  httpStatus?: number;
  /** The server's `x-request-id`. */
  requestId?: string;
  /** The URL that answered, without any `user:password@`. */
  url: string;
  /** The HTTP method. Default `"POST"`. */
  method?: string;
  /** The request headers, token redacted. */
  requestHeaders?: Record<string, string>;
  /** The request body that was sent. */
  requestBody?: unknown;
  /** The underlying error, if any. */
  cause?: unknown;
  /** How long the server asked to wait before a retry (`retry-after` / `retry-after-ms`), ms. */
  retryAfterMs?: number;
  /** The inference provider that answered, from the router's `x-inference-provider` header. */
  provider?: string;
  /** Who answered: a provider or endpoint (default, an `InferenceClientProviderApiError` too) or the Hub (an `InferenceClientHubApiError`). */
  source?: "provider" | "hub";
  /** The answer says the call could not be routed (no provider serves the model): an `InferenceClientRoutingError` too. */
  routing?: boolean;
}

/** The server answered with an error, over HTTP or inside a 200 stream. */
export class HttpError extends InferenceError {
  static override readonly kind: string = "HttpError";
  /** The HTTP status code; for an error inside a 200 stream, the status that error stands for (e.g. 422). */
  declare readonly status: number;
  /** The error body: parsed JSON (e.g. `{"error": "...", "error_type": "validation"}`), else the text. */
  declare readonly body: unknown;
  /** The server's `x-request-id`, to quote when reporting a problem. */
  declare readonly requestId: string | undefined;
  /** The URL that answered, without any `user:password@`. */
  declare readonly url: string;
  /** `@huggingface/inference` shape: the request, token redacted. */
  declare readonly httpRequest: HttpRequestInfo;
  /** `@huggingface/inference` shape. */
  declare readonly httpResponse: HttpResponseInfo;
  /** How long the server asked to wait before a retry (`retry-after` / `retry-after-ms`), in ms; undefined when it did not say. */
  declare readonly retryAfterMs: number | undefined;
  /** The inference provider that answered through the HF router (`x-inference-provider`), when it said. */
  declare readonly provider: string | undefined;

  /** `message` says what the server answered; `init` holds the exchange. */
  constructor(message: string, init: HttpErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.requestId = init.requestId;
    this.url = init.url;
    this.httpRequest = {
      url: init.url,
      method: init.method ?? "POST",
      headers: init.requestHeaders,
      body: init.requestBody,
    };
    this.httpResponse = { status: init.httpStatus ?? init.status, requestId: init.requestId ?? "", body: init.body };
    this.retryAfterMs = init.retryAfterMs;
    this.provider = init.provider;
    this.also(init.source === "hub" ? HUB_API : PROVIDER_API);
    if (init.routing) this.also(ROUTING);
  }
}

/** 401: the token is missing, invalid or expired. */
export class AuthenticationError extends HttpError {
  static override readonly kind: string = "AuthenticationError";
}
/** 403: the token may not use this model or provider, or the model is too large for the serverless API; not retried. */
export class PermissionError extends HttpError {
  static override readonly kind: string = "PermissionError";
}
/** 404: no such model, endpoint or route. */
export class NotFoundError extends HttpError {
  static override readonly kind: string = "NotFoundError";
}
/** 400 or 422, or TGI's validation, template or tool error (also inside a 200 stream): the request was refused as given. */
export class ValidationError extends HttpError {
  static override readonly kind: string = "ValidationError";
}
/** 429, or TGI's "Model is overloaded": too many requests; retried up to `maxRetries` before it reaches you. */
export class RateLimitError extends HttpError {
  static override readonly kind: string = "RateLimitError";
}
/** 5xx, TGI's generation errors, or an unknown error inside a stream; retried up to `maxRetries` before it reaches you. */
export class ServerError extends HttpError {
  static override readonly kind: string = "ServerError";
}
/** 503 "currently loading": the model was still loading when a further wait would pass your time limits (or retries are off). */
export class ModelLoadingError extends HttpError {
  static override readonly kind: string = "ModelLoadingError";
  /** Seconds, as the server sent it. */
  declare readonly estimatedTime: number | undefined;
  /** As {@link HttpError}'s constructor, plus the server's `estimatedTime` in seconds. */
  constructor(message: string, init: HttpErrorInit & { estimatedTime?: number }) {
    super(message, init);
    this.estimatedTime = init.estimatedTime;
  }
}

/** The stream ended before the answer was complete. Chunks already yielded stay delivered. */
export class IncompleteStreamError extends InferenceError {
  static override readonly kind: string = "IncompleteStreamError";
}

/** At most this much of a server's text is kept in an error (`MalformedEventError.data`, bodies). */
export const KEPT_TEXT_CHARS = 64 * 1024;

/** An event of the stream, or a 2xx answer, could not be parsed (or was too large); `data` holds its start. */
export class MalformedEventError extends InferenceError {
  static override readonly kind: string = "MalformedEventError";
  /** The raw text of the event or answer that could not be parsed: its first 64 KiB at most. */
  declare readonly data: string;
  /**
   * `message` says what was expected; `data` is the raw text (kept up to 64 KiB); `cause` the parse
   * error; `secret`, the access token, is redacted from both texts (a server may echo it).
   */
  constructor(message: string, data: string, cause?: unknown, secret?: string) {
    super(redactText(message, secret), { cause });
    this.also(PROVIDER_OUTPUT);
    const text = String(data);
    // Redacted before it is cut (with room for a secret of any length across the cut), then cut: no token's start is left behind.
    this.data = redactText(text.slice(0, KEPT_TEXT_CHARS + 256 + (secret?.length ?? 0)), secret).slice(
      0,
      KEPT_TEXT_CHARS,
    );
  }
}

/**
 * Which limit fired: `timeout` (`"deadline"`), `firstChunkTimeout` (`"first-chunk"`), `idleTimeout`
 * (`"idle"`: no byte at all, the connection is dead) or `stallTimeout` (`"stall"`: bytes such as
 * keep-alives, but no data: the server is alive and produces nothing).
 */
export type TimeoutKind = "deadline" | "first-chunk" | "idle" | "stall";

/** A time limit fired; the request and the body were cancelled. Chunks already yielded stay delivered. */
export class TimeoutError extends InferenceError {
  static override readonly kind: string = "TimeoutError";
  /** Which limit fired: `"deadline"` (`timeout`), `"first-chunk"` (`firstChunkTimeout`), `"idle"` (`idleTimeout`) or `"stall"` (`stallTimeout`). */
  declare readonly kind: TimeoutKind;
  /** The limit that fired, in milliseconds. */
  declare readonly timeoutMs: number;
  /** The limit that fired and its value in milliseconds; the message names both. */
  constructor(kind: TimeoutKind, timeoutMs: number) {
    super(TIMEOUT_MESSAGES[kind](timeoutMs));
    this.kind = kind;
    this.timeoutMs = timeoutMs;
  }
}

const TIMEOUT_MESSAGES: Record<TimeoutKind, (ms: number) => string> = {
  deadline: (ms) => `The call did not complete within its timeout of ${ms} ms`,
  "first-chunk": (ms) => `No answer arrived within firstChunkTimeout (${ms} ms)`,
  idle: (ms) => `The server sent nothing for longer than idleTimeout (${ms} ms)`,
  stall: (ms) => `The server sent no data for longer than stallTimeout (${ms} ms), only keep-alives`,
};

/** The connection failed or dropped (refused, DNS, reset, terminated mid-body). */
export class ConnectionError extends InferenceError {
  static override readonly kind: string = "ConnectionError";
  /** The URL that was tried, without credentials; undefined when the failure is not tied to one request. */
  declare readonly url: string | undefined;
  /** `message` names the host and the failure; `url` the request's URL (redacted); `cause` the fetch's error (redacted). */
  constructor(message: string, options?: { cause?: unknown; url?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.url = options?.url;
  }
}

/** The caller's signal aborted the call; `cause` is the signal's reason. */
export class AbortError extends InferenceError {
  static override readonly kind: string = "AbortError";
}
