/**
 * The AI SDK's error classes this provider throws, recreated: every major (`ai` 5, 6, 7) recognises its
 * errors by the markers `Symbol.for("vercel.ai.error")` and `Symbol.for("vercel.ai.error.<name>")`, not by
 * class, so `APICallError.isInstance(e)` of each major is true for these.
 */
const MARKER = "vercel.ai.error";

function hasMarker(error: unknown, marker: string): boolean {
  const symbol = Symbol.for(marker);
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[symbol] === true;
}

/** The base of the AI SDK's errors (`AISDKError`). */
export class AISDKError extends Error {
  constructor({ name, message, cause }: { name: string; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = name;
    (this as unknown as Record<symbol, boolean>)[Symbol.for(MARKER)] = true;
    (this as unknown as Record<symbol, boolean>)[Symbol.for(`${MARKER}.${name}`)] = true;
  }

  /** Any AI SDK error, of any major. */
  static isInstance(error: unknown): error is AISDKError {
    return hasMarker(error, MARKER);
  }
}

/** A call to the API failed: `statusCode`, `responseBody`, `data` as far as known. */
export class APICallError extends AISDKError {
  readonly url: string;
  readonly requestBodyValues: unknown;
  readonly statusCode?: number;
  readonly responseHeaders?: Record<string, string>;
  readonly responseBody?: string;
  readonly isRetryable: boolean;
  readonly data?: unknown;
  constructor(o: {
    message: string;
    url: string;
    requestBodyValues: unknown;
    statusCode?: number;
    responseHeaders?: Record<string, string>;
    responseBody?: string;
    cause?: unknown;
    isRetryable?: boolean;
    data?: unknown;
  }) {
    super({ name: "AI_APICallError", message: o.message, cause: o.cause });
    this.url = o.url;
    this.requestBodyValues = o.requestBodyValues;
    this.statusCode = o.statusCode;
    this.responseHeaders = o.responseHeaders;
    this.responseBody = o.responseBody;
    this.isRetryable = o.isRetryable ?? false;
    this.data = o.data;
  }
  static override isInstance(error: unknown): error is APICallError {
    return hasMarker(error, `${MARKER}.AI_APICallError`);
  }
}

/** An argument (a setting, an option) is invalid: `argument` names it. */
export class InvalidArgumentError extends AISDKError {
  readonly argument: string;
  constructor(o: { argument: string; message: string; cause?: unknown }) {
    super({ name: "AI_InvalidArgumentError", message: o.message, cause: o.cause });
    this.argument = o.argument;
  }
  static override isInstance(error: unknown): error is InvalidArgumentError {
    return hasMarker(error, `${MARKER}.AI_InvalidArgumentError`);
  }
}

/** The prompt is invalid. */
export class InvalidPromptError extends AISDKError {
  readonly prompt: unknown;
  constructor(o: { prompt: unknown; message: string; cause?: unknown }) {
    super({ name: "AI_InvalidPromptError", message: `Invalid prompt: ${o.message}`, cause: o.cause });
    this.prompt = o.prompt;
  }
  static override isInstance(error: unknown): error is InvalidPromptError {
    return hasMarker(error, `${MARKER}.AI_InvalidPromptError`);
  }
}

/** The provider has no such model (of this type). */
export class NoSuchModelError extends AISDKError {
  readonly modelId: string;
  readonly modelType: string;
  constructor(o: { modelId: string; modelType: string; message?: string }) {
    super({ name: "AI_NoSuchModelError", message: o.message ?? `No such ${o.modelType}: ${o.modelId}` });
    this.modelId = o.modelId;
    this.modelType = o.modelType;
  }
  static override isInstance(error: unknown): error is NoSuchModelError {
    return hasMarker(error, `${MARKER}.AI_NoSuchModelError`);
  }
}

/** Something the call asks for is not supported. */
export class UnsupportedFunctionalityError extends AISDKError {
  readonly functionality: string;
  constructor(o: { functionality: string; message?: string }) {
    super({
      name: "AI_UnsupportedFunctionalityError",
      message: o.message ?? `'${o.functionality}' functionality not supported.`,
    });
    this.functionality = o.functionality;
  }
  static override isInstance(error: unknown): error is UnsupportedFunctionalityError {
    return hasMarker(error, `${MARKER}.AI_UnsupportedFunctionalityError`);
  }
}
