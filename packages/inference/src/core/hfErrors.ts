import { HUB_API, PROVIDER_API, PROVIDER_OUTPUT, ROUTING } from "./errorShapes";
import { HttpError, type HttpErrorInit, InferenceError, InputError } from "./errors";

// `@huggingface/inference`'s classes, so its `instanceof` checks take the same branches. Each is a class of
// its own, and our typed errors are also of these: a `NotFoundError` from a provider is an
// `InferenceClientProviderApiError`, a `MalformedEventError` an `InferenceClientProviderOutputError`.
export { InferenceError as InferenceClientError, InputError as InferenceClientInputError };

/** A provider or endpoint answered with an error: every `HttpError` from a server is one (`@huggingface/inference`'s class). */
export class InferenceClientProviderApiError extends HttpError {
  static override readonly kind: string = PROVIDER_API;
}

/** The Hugging Face Hub's API answered with an error (`@huggingface/inference`'s class). */
export class InferenceClientHubApiError extends HttpError {
  static override readonly kind: string = HUB_API;
  /** As {@link HttpError}'s constructor; the error is a Hub API error. */
  constructor(message: string, init: HttpErrorInit) {
    super(message, { ...init, source: "hub" });
  }
}

/** The call could not be routed: no provider serves the model, or the one named does not (`@huggingface/inference`'s class). */
export class InferenceClientRoutingError extends InferenceError {
  static override readonly kind: string = ROUTING;
}

/** A provider's answer was not what the task expects (`@huggingface/inference`'s class); a `MalformedEventError` is one. */
export class InferenceClientProviderOutputError extends InferenceError {
  static override readonly kind: string = PROVIDER_OUTPUT;
}
