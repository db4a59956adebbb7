/** hfkit's typed errors as the AI SDK's error classes, the original kept as `cause`. */
import { AISDKError, APICallError, InvalidArgumentError, InvalidPromptError } from "./spec/errors";
import {
  AbortError,
  ConnectionError,
  HttpError,
  InferenceError,
  InputError,
  MalformedEventError,
  ModelLoadingError,
} from "@hfkit/inference";

const isAiSdkError = (error: unknown): boolean => AISDKError.isInstance(error);

/** What is known of the call when it failed. */
export interface CallInfo {
  /** The URL that answered last, or where the call was going. */
  url: string;
  /** The chat arguments sent. */
  body: unknown;
  /** The prompt, for an `InvalidPromptError`. */
  prompt: unknown;
}

/**
 * The AI SDK's error for an error of `@hfkit/inference`:
 * - `HttpError` and its subclasses (over HTTP or inside a 200 stream): `APICallError` with the status,
 *   the body as text (`responseBody`) and parsed (`data`), the request body, the URL and `x-request-id`;
 * - `TimeoutError`, `ConnectionError`, `IncompleteStreamError`, `MalformedEventError` (and any other
 *   error of ours): `APICallError` without a status (`responseBody` holds a malformed event's text);
 * - `InputError`: `InvalidPromptError` when it concerns `messages`, else `InvalidArgumentError`;
 * - `AbortError` and anything that is not ours: as they are (the AI SDK knows an abort by its name).
 *
 * `isRetryable` is always `false`: `@hfkit/inference` has already retried what was worth retrying
 * (its `maxRetries`), so the AI SDK must not send the call again.
 */
export function toAiSdkError(error: unknown, info: CallInfo): unknown {
  if (!(error instanceof InferenceError) || error instanceof AbortError || isAiSdkError(error)) return error;
  if (error instanceof InputError) {
    const argument = error.field ?? "options";
    if (/^(messages|prompt)\b/.test(argument))
      return new InvalidPromptError({ prompt: info.prompt, message: error.message, cause: error });
    return new InvalidArgumentError({ argument, message: error.message, cause: error });
  }
  if (error instanceof HttpError) {
    return new APICallError({
      message: error.message,
      url: error.url || info.url,
      requestBodyValues: error.httpRequest.body ?? info.body,
      statusCode: error.status,
      responseHeaders: error.requestId ? { "x-request-id": error.requestId } : undefined,
      responseBody: typeof error.body === "string" ? error.body : JSON.stringify(error.body),
      isRetryable: false,
      data: error instanceof ModelLoadingError ? { body: error.body, estimatedTime: error.estimatedTime } : error.body,
      cause: error,
    });
  }
  // TimeoutError, ConnectionError, IncompleteStreamError, MalformedEventError and any later kind.
  return new APICallError({
    message: error.message,
    url: (error instanceof ConnectionError ? error.url : undefined) ?? info.url,
    requestBodyValues: info.body,
    responseBody: error instanceof MalformedEventError ? error.data : undefined,
    isRetryable: false,
    cause: error,
  });
}
