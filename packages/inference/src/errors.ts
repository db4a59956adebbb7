/**
 * Typed errors. Every class carries a string-literal `name` (survives minification) and a
 * `Symbol.for` brand so `instanceof` works across the ESM and CommonJS copies of the package.
 */

const BRAND = Symbol.for("hfkit.error.kinds");

type Kinded = { kind: string };

export interface HttpRequestInfo {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface HttpResponseInfo {
  status: number;
  requestId: string;
  body: unknown;
}

export class InferenceError extends Error {
  static readonly kind: string = "InferenceError";
  override name: string = "InferenceError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const kinds: string[] = [];
    for (let c = new.target as unknown; c && Object.hasOwn(c as object, "kind"); c = Object.getPrototypeOf(c)) {
      kinds.push((c as Kinded).kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const kinds = (value as Record<symbol, unknown>)[BRAND];
    return Array.isArray(kinds) && kinds.includes((this as unknown as Kinded).kind);
  }
}

/** Bad arguments: raised before any request is sent. */
export class InputError extends InferenceError {
  static override readonly kind: string = "InputError";
  override name = "InputError";
  /** The argument at fault, e.g. `top_p` or `messages[1].role`. */
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.field = field;
  }
}

export interface HttpErrorInit {
  status: number;
  body: unknown;
  requestId?: string;
  url: string;
  method?: string;
  requestHeaders?: Record<string, string>;
  requestBody?: unknown;
  cause?: unknown;
}

/** The server answered with an error, over HTTP or inside a 200 stream. */
export class HttpError extends InferenceError {
  static override readonly kind: string = "HttpError";
  override name = "HttpError";
  readonly status: number;
  readonly body: unknown;
  readonly requestId: string | undefined;
  readonly url: string;
  /** `@huggingface/inference` shape: the request, token redacted. */
  readonly httpRequest: HttpRequestInfo;
  /** `@huggingface/inference` shape. */
  readonly httpResponse: HttpResponseInfo;

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
    this.httpResponse = { status: init.status, requestId: init.requestId ?? "", body: init.body };
  }
}

export class AuthenticationError extends HttpError {
  static override readonly kind: string = "AuthenticationError";
  override name = "AuthenticationError";
}
export class PermissionError extends HttpError {
  static override readonly kind: string = "PermissionError";
  override name = "PermissionError";
}
export class NotFoundError extends HttpError {
  static override readonly kind: string = "NotFoundError";
  override name = "NotFoundError";
}
export class ValidationError extends HttpError {
  static override readonly kind: string = "ValidationError";
  override name = "ValidationError";
}
export class RateLimitError extends HttpError {
  static override readonly kind: string = "RateLimitError";
  override name = "RateLimitError";
}
export class ServerError extends HttpError {
  static override readonly kind: string = "ServerError";
  override name = "ServerError";
}
export class ModelLoadingError extends HttpError {
  static override readonly kind: string = "ModelLoadingError";
  override name = "ModelLoadingError";
  /** Seconds, as the server sent it. */
  readonly estimatedTime: number | undefined;
  constructor(message: string, init: HttpErrorInit & { estimatedTime?: number }) {
    super(message, init);
    this.estimatedTime = init.estimatedTime;
  }
}

/** The stream ended before the answer was complete. Chunks already yielded stay delivered. */
export class IncompleteStreamError extends InferenceError {
  static override readonly kind: string = "IncompleteStreamError";
  override name = "IncompleteStreamError";
}

/** An event of the stream could not be parsed; `data` holds the raw event data. */
export class MalformedEventError extends InferenceError {
  static override readonly kind: string = "MalformedEventError";
  override name = "MalformedEventError";
  readonly data: string;
  constructor(message: string, data: string, cause?: unknown) {
    super(message, { cause });
    this.data = data;
  }
}

export type TimeoutKind = "deadline" | "first-chunk" | "idle";

export class TimeoutError extends InferenceError {
  static override readonly kind: string = "TimeoutError";
  override name = "TimeoutError";
  readonly kind: TimeoutKind;
  /** The limit that fired, in milliseconds. */
  readonly timeoutMs: number;
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
};

/** The connection failed or dropped (refused, DNS, reset, terminated mid-body). */
export class ConnectionError extends InferenceError {
  static override readonly kind: string = "ConnectionError";
  override name = "ConnectionError";
}

/** The caller's signal aborted the call; `cause` is the signal's reason. */
export class AbortError extends InferenceError {
  static override readonly kind: string = "AbortError";
  override name = "AbortError";
}

// `@huggingface/inference` names, so existing `instanceof` checks keep working.
export { InferenceError as InferenceClientError };
export { InputError as InferenceClientInputError };
export { HttpError as InferenceClientProviderApiError };
export { HttpError as InferenceClientHubApiError };
export { MalformedEventError as InferenceClientProviderOutputError };
