import type { ListModelsOptions, RouterModel } from "../types";

/**
 * The models the HF router serves, each with its providers: status, context length, pricing (dollars per million
 * tokens) and capabilities. Remembered for an hour per token (`refresh: true` asks again); a field the router
 * leaves out or sends in another type is absent, an entry without an id is skipped. Its code is loaded on its
 * first use (`features/catalog.ts`), so an app that never asks carries none of it.
 */
export async function listModels(options: ListModelsOptions = {}): Promise<readonly RouterModel[]> {
  return (await import("../features/catalog")).listModels(options);
}
