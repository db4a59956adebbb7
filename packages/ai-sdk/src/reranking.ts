/** The AI SDK reranking model over `sentenceSimilarity` (sentence-transformers models on hf-inference). */
import { sentenceSimilarity } from "@hfkit/inference";
import type { BaseCallOptions, ModelResponse, SpecVersion, Warning } from "./spec/types";
import { HfkitTaskModel } from "./task";

/** What `doRerank` takes. */
export interface RerankCallOptions extends BaseCallOptions {
  documents: { type: "text"; values: string[] } | { type: "object"; values: Array<Record<string, unknown>> };
  query: string;
  topN?: number;
}

/** What `doRerank` answers. */
export interface RerankResult {
  ranking: Array<{ index: number; relevanceScore: number }>;
  warnings: Warning[];
  response: ModelResponse & { body: unknown };
}

/**
 * A reranking model (`rerank`, `ai` 6 and 7): each document's similarity to the query, most similar first.
 * Object documents are compared as their JSON text.
 */
export class HfkitRerankingModel<
  V extends Exclude<SpecVersion, "v2"> = Exclude<SpecVersion, "v2">,
> extends HfkitTaskModel<V> {
  async doRerank(options: RerankCallOptions): Promise<RerankResult> {
    const sentences =
      options.documents.type === "text"
        ? options.documents.values
        : options.documents.values.map((value) => JSON.stringify(value));
    const inputs = { source_sentence: options.query, sentences };
    const { value, response } = await this.run(this.config.settings, options, { inputs }, (accessToken, sdk) =>
      sentenceSimilarity({ model: this.modelId, accessToken, inputs }, sdk),
    );
    const ranking = value
      .map((relevanceScore, index) => ({ index, relevanceScore }))
      .sort((a, b) => b.relevanceScore - a.relevanceScore);
    return {
      ranking: ranking.slice(0, options.topN ?? ranking.length),
      warnings: [],
      response: { ...response, body: value },
    };
  }
}
