import { jsonResponse } from "../http.js";
import type { ResolvedModel } from "../models.js";
import { imageSha } from "../version.js";

/** TGI's `GET /info`; a pipeline model has no such route. */
export function tgiInfo(model: ResolvedModel): Response {
  if (model.backend !== "tgi") return jsonResponse(404, { error: "Not Found" });
  return jsonResponse(200, {
    model_id: model.id,
    model_sha: null,
    model_dtype: "torch.float16",
    model_device_type: "cuda",
    model_pipeline_tag: "text-generation",
    max_concurrent_requests: 128,
    max_best_of: 2,
    max_stop_sequences: 4,
    max_input_tokens: model.maxTotalTokens - 1,
    max_total_tokens: model.maxTotalTokens,
    validation_workers: 2,
    max_client_batch_size: 4,
    router: "text-generation-router",
    version: model.version,
    sha: imageSha(model.version),
    docker_label: `sha-${imageSha(model.version)}`,
  });
}
