/** What errors show of an exchange, and the kinds of `@huggingface/inference`'s error classes. */

/** The request that failed, as `HttpError.httpRequest` shows it (the `@huggingface/inference` shape). */
export interface HttpRequestInfo {
  /** The URL, without any `user:password@`. */
  url: string;
  /** The HTTP method, e.g. `"POST"`. */
  method: string;
  /** The request headers, with the token redacted. */
  headers?: Record<string, string>;
  /** The request body that was sent. */
  body?: unknown;
}

/** The error answer, as `HttpError.httpResponse` shows it (the `@huggingface/inference` shape). */
export interface HttpResponseInfo {
  /** The HTTP status the answer came with: 200 for an error sent inside a 200 stream, as `@huggingface/inference` reports it (`HttpError.status` is what the error stands for, e.g. 422). */
  status: number;
  /** The server's `x-request-id`, or `""` when it sent none. */
  requestId: string;
  /** The error body: parsed JSON, else the text. */
  body: unknown;
}

/** The kinds of `@huggingface/inference`'s classes (hfErrors.ts), which our errors also are. */
export const PROVIDER_API = "InferenceClientProviderApiError";
export const HUB_API = "InferenceClientHubApiError";
export const ROUTING = "InferenceClientRoutingError";
export const PROVIDER_OUTPUT = "InferenceClientProviderOutputError";
