/** The AI SDK image model over `textToImage` (diffusers on hf-inference, fal, Replicate, Together, …). */
import { textToImage } from "@hfkit/inference";
import { extraBodyOf } from "./call";
import { modelWarningsFor } from "./spec/adapt";
import { InvalidArgumentError } from "./spec/errors";
import type { BaseCallOptions, ModelResponse, ModelWarningOf, SpecVersion, Warning } from "./spec/types";
import { bytesOf, HfkitTaskModel } from "./task";

/** What `doGenerate` takes (any version; `files` and `mask` are v3/v4's). */
export interface ImageCallOptions extends BaseCallOptions {
  prompt: string | undefined;
  n: number;
  size: `${number}x${number}` | undefined;
  aspectRatio: `${number}:${number}` | undefined;
  seed: number | undefined;
  files?: unknown[] | undefined;
  mask?: unknown;
}

/** What `doGenerate` answers in version V. */
export interface ImageResult<V extends SpecVersion> {
  images: Uint8Array[];
  warnings: Array<ModelWarningOf<V>>;
  response: ModelResponse;
}

/** A text-to-image model: one image per request (`generateImage` asks as many times as `n` says). */
export class HfkitImageModel<V extends SpecVersion = SpecVersion> extends HfkitTaskModel<V> {
  /** One image per request: the task answers one. */
  readonly maxImagesPerCall = 1;

  async doGenerate(options: ImageCallOptions): Promise<ImageResult<V>> {
    const { prompt, size, seed } = options;
    if (typeof prompt !== "string" || prompt === "")
      throw new InvalidArgumentError({ argument: "prompt", message: "prompt must be a non-empty text" });
    const dimensions = size === undefined ? {} : parseSize(size);
    const warnings: Warning[] = [];
    if (options.aspectRatio !== undefined)
      warnings.push({ type: "unsupported", feature: "aspectRatio", details: "Give size (width x height) instead." });
    if (options.files?.length || options.mask !== undefined)
      warnings.push({ type: "unsupported", feature: "files", details: "Text to image takes no input image." });
    const parameters = { ...dimensions, ...(seed === undefined ? {} : { seed }), ...extraBodyOf(options) };
    const body = { inputs: prompt, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
    const { value, response } = await this.run(this.config.settings, options, body, async (accessToken, sdk) =>
      bytesOf(await textToImage({ model: this.modelId, accessToken, ...body }, sdk)),
    );
    return { images: [value], warnings: modelWarningsFor(this.specificationVersion, warnings), response };
  }
}

function parseSize(size: string): { width: number; height: number } {
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (!match)
    throw new InvalidArgumentError({
      argument: "size",
      message: `size must be "{width}x{height}" in pixels, e.g. "1024x768" (got ${JSON.stringify(size)})`,
    });
  return { width: Number(match[1]), height: Number(match[2]) };
}
