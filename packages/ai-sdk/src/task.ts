/** What the models of the other types (embeddings, images, transcription, speech, reranking) share. */
import type { Options } from "@hfkit/inference";
import { callContext, targetUrl } from "./call";
import { toAiSdkError } from "./errors";
import type { HfkitModelConfig } from "./model";
import { InvalidArgumentError } from "./spec/errors";
import type { BaseCallOptions, ModelResponse, SpecVersion } from "./spec/types";

/** A task model's settings: every option of `@hfkit/inference` except `signal`; one router provider at most. */
export interface HfkitTaskSettings extends Omit<Options, "signal" | "provider"> {
  /** The router's provider (`"hf-inference"`, `"fal-ai"`, …); default: the router's choice. */
  provider?: string;
}

/** A task's answer and the response the AI SDK reports. */
export interface TaskAnswer<T> {
  value: T;
  response: ModelResponse;
}

/** The base of the task models: the AI SDK's identity fields, and one call run with its errors mapped. */
export abstract class HfkitTaskModel<V extends SpecVersion, S extends HfkitTaskSettings = HfkitTaskSettings> {
  /** The specification implemented: `"v2"` (`ai` 5), `"v3"` (`ai` 6) or `"v4"` (`ai` 7). */
  readonly specificationVersion: V;
  /** The provider's name, e.g. `"hfkit.embedding"`. */
  readonly provider: string;
  /** The model id, e.g. `"BAAI/bge-small-en-v1.5"`. */
  readonly modelId: string;
  protected readonly config: HfkitModelConfig<V, S>;

  constructor(modelId: string, config: HfkitModelConfig<V, S>) {
    if (typeof modelId !== "string" || modelId === "")
      throw new InvalidArgumentError({
        argument: "modelId",
        message: 'modelId must be a non-empty string, e.g. "org/model"',
      });
    this.specificationVersion = config.specificationVersion;
    this.provider = config.provider;
    this.modelId = modelId;
    this.config = config;
  }

  /** Runs `task` with the settings, the call's signal and headers; `body` is what the errors report as sent. */
  protected async run<T>(
    settings: Options,
    call: BaseCallOptions,
    body: unknown,
    task: (accessToken: string, options: Options, url: () => string) => Promise<T>,
  ): Promise<TaskAnswer<T>> {
    const context = callContext(settings, call, () =>
      targetUrl(settings, this.modelId, "", `https://router.huggingface.co/${settings.provider ?? "auto"}`),
    );
    let value: T;
    try {
      value = await task(this.config.accessToken(), context.options, context.url);
    } catch (error) {
      throw toAiSdkError(error, { url: context.url(), body, prompt: body });
    }
    return { value, response: { timestamp: new Date(), modelId: this.modelId, headers: context.headers } };
  }
}

/** A setting that must be a whole number of at least 1, checked before any request. */
export function positiveInteger(value: number | undefined, argument: string): number | undefined {
  if (value === undefined || (Number.isInteger(value) && value >= 1)) return value;
  throw new InvalidArgumentError({
    argument,
    message: `${argument} must be a whole number of at least 1 (got ${String(value)})`,
  });
}

/** A Blob's bytes. */
export async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}
