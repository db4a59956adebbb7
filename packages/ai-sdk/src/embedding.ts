/** The AI SDK embedding model over `featureExtraction` (TEI, sentence-transformers, the router's providers). */
import { featureExtraction } from "@hfkit/inference";
import { extraBodyOf } from "./call";
import { APICallError } from "./spec/errors";
import { modelWarningsFor } from "./spec/adapt";
import type { BaseCallOptions, ModelWarningOf, SpecVersion, Warning } from "./spec/types";
import { type HfkitTaskSettings, HfkitTaskModel, positiveInteger } from "./task";

/** An embedding model's settings: a task model's, and how many texts one request takes. */
export interface HfkitEmbeddingSettings extends HfkitTaskSettings {
  /** Texts per request; the AI SDK's `embedMany` splits larger lists. Default 32. */
  maxEmbeddingsPerCall?: number;
  /** Normalise the vectors to length 1 (TEI's and the pipeline's `normalize`). */
  normalize?: boolean;
}

/** What `doEmbed` answers in version V. */
export interface EmbedResult<V extends SpecVersion> {
  embeddings: number[][];
  response: { headers: Record<string, string> | undefined; body: unknown };
  warnings: Array<ModelWarningOf<V>>;
}

/** A text embedding model: one vector per text (`embed`, `embedMany`). */
export class HfkitEmbeddingModel<V extends SpecVersion = SpecVersion> extends HfkitTaskModel<
  V,
  HfkitEmbeddingSettings
> {
  /** Texts per request. */
  readonly maxEmbeddingsPerCall: number = 32;
  /** Requests may run side by side. */
  readonly supportsParallelCalls = true;

  constructor(...args: ConstructorParameters<typeof HfkitTaskModel<V, HfkitEmbeddingSettings>>) {
    super(...args);
    this.maxEmbeddingsPerCall =
      positiveInteger(this.config.settings.maxEmbeddingsPerCall, "maxEmbeddingsPerCall") ?? 32;
  }

  async doEmbed(options: BaseCallOptions & { values: string[]; dimensions?: number }): Promise<EmbedResult<V>> {
    const warnings: Warning[] = [];
    if (options.dimensions !== undefined)
      warnings.push({
        type: "unsupported",
        feature: "dimensions",
        details: "The model answers its own size of vector.",
      });
    const { maxEmbeddingsPerCall: _, normalize, ...settings } = this.config.settings;
    const body = { inputs: options.values, ...(normalize === undefined ? {} : { normalize }), ...extraBodyOf(options) };
    const { value, response } = await this.run(settings, options, body, async (accessToken, sdk, url) => {
      const answer = await featureExtraction({ model: this.modelId, accessToken, ...body }, sdk);
      return { answer, embeddings: vectors(answer, options.values.length, url(), body) };
    });
    return {
      embeddings: value.embeddings,
      response: { headers: response.headers, body: value.answer },
      warnings: modelWarningsFor(this.specificationVersion, warnings),
    };
  }
}

/** One vector per text; a model that answers token vectors (no pooling) is refused. */
function vectors(value: unknown, count: number, url: string, body: unknown): number[][] {
  const rows = count === 1 && Array.isArray(value) && typeof value[0] === "number" ? [value] : value;
  if (
    Array.isArray(rows) &&
    rows.length === count &&
    rows.every((row) => Array.isArray(row) && row.every((x) => typeof x === "number"))
  )
    return rows;
  throw new APICallError({
    message: `The model answered ${Array.isArray(rows) ? `${rows.length} items` : typeof rows}, not one vector per text (${count}): is it a sentence-embedding model (pooled)?`,
    url,
    requestBodyValues: body,
    responseBody: JSON.stringify(value),
  });
}
