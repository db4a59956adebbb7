import { getLogger, warnOnce } from "../core/logger";
import type { Options, RequestArgs, RequestOptions } from "../types";
import { runTask } from "./run";
import { binaryBody, jsonBody } from "../checks/inputs";

/** The deprecation `@huggingface/inference` warns of, once per process here. */
export function warnDeprecated(name: string, options: Options): void {
  warnOnce(
    options.logger ?? getLogger(),
    `deprecated:${name}`,
    `The ${name} method is deprecated and will be removed in a future version of huggingface.js. Use specific task functions instead.`,
  );
}

/**
 * Sends any body to the model (hf-inference or an endpoint) and answers what came back, unchecked: JSON,
 * or a Blob. Deprecated, as in `@huggingface/inference`: use the task functions.
 */
export function request<T>(args: RequestArgs, options: Options & RequestOptions = {}): Promise<T> {
  warnDeprecated("request", options);
  const body = (a: RequestArgs) => (a.data !== undefined ? binaryBody(a) : jsonBody(a));
  return runTask({ task: options.task ?? "custom", body, answer: (value) => value as T }, args, options);
}
