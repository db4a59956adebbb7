/** Where a task other than chat goes: hf-inference's `{base}/models/{id}` (or its pipeline path), an endpoint, or a provider looked up in the Hub's mapping. */
import { InputError } from "../core/errors";
import type { BaseArgs, Options } from "../types";
import {
  checkBaseUrl,
  checkProviderModel,
  modelPath,
  requireModel,
  routeOptions,
  routerOf,
  type RouteOptions,
  trimSlashes,
} from "./routes";

/** The route options of a task that does not fail over: a `provider` list is refused (chat, `textGeneration` and the Responses API take theirs before routing). */
export function taskOptions(args: BaseArgs, options: Options): RouteOptions {
  const provider: unknown = args.provider ?? options.provider;
  if (provider !== undefined && typeof provider !== "string") {
    throw new InputError(
      "`provider` must be a provider's name here: a list fails over for chat, textGeneration and the Responses API only",
      "provider",
    );
  }
  return routeOptions(args, options);
}

/** Where a task other than chat and text generation goes, and the model it names. */
export interface TaskRoute {
  url: string;
  /** The model id, for messages ("endpoint" on an endpoint without one). */
  model: string;
}

/** The two pipelines hf-inference serves at `/pipeline/{task}`, so that one model answers both (as `@huggingface/inference` sends them). */
const PIPELINE_PATH_TASKS: readonly string[] = ["feature-extraction", "sentence-similarity"];

/**
 * The provider a task other than chat is looked up for in the Hub's mapping: a provider other than
 * hf-inference, or `"auto"`, with no endpoint and no `baseUrl`; undefined when hf-inference or an endpoint serves it.
 * A provider left unset is hf-inference here (no lookup).
 */
export function taskProvider(args: BaseArgs, options: Options): string | undefined {
  const o = taskOptions(args, options);
  checkProviderModel(args, o);
  if (
    o.endpointUrl !== undefined ||
    o.baseUrl !== undefined ||
    o.provider === undefined ||
    o.provider === "hf-inference"
  )
    return undefined;
  requireModel(o.model, `a task on provider "${o.provider}"`);
  return o.provider;
}

/** The URL of a task on hf-inference or an endpoint: a dedicated endpoint as is; else hf-inference's `{base}/models/{id}`. */
export function taskRoute(args: BaseArgs, options: Options, task: string): TaskRoute {
  const o = taskOptions(args, options);
  checkProviderModel(args, o);
  if (o.endpointUrl !== undefined)
    return { url: checkBaseUrl(o.endpointUrl, "endpointUrl"), model: o.model || "endpoint" };
  const model = requireModel(o.model, `${task} on hf-inference`);
  const base = trimSlashes(
    o.baseUrl === undefined ? `${routerOf(o)}/hf-inference` : checkBaseUrl(o.baseUrl, "baseUrl"),
  );
  const pipeline = PIPELINE_PATH_TASKS.includes(task) ? `/pipeline/${task}` : "";
  return { url: `${base}/models/${modelPath(model)}${pipeline}`, model };
}
