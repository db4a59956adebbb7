/** Nscale under the router (`/nscale/...`): its images API. */
import { jsonResponse } from "../http.js";
import { PNG_BASE64 as IMAGE } from "../pipelines.js";
import type { MockProvider } from "./route.js";

/** `POST /nscale/v1/images/generations`: `model` and `prompt` required; `response_format` "b64_json" only (Nscale answers no URLs). */
function images(body: Record<string, unknown>): Response {
  const refuse = (message: string) =>
    jsonResponse(400, { error: { message, type: "invalid_request_error", param: null, code: null } });
  if (typeof body.model !== "string" || body.model === "") return refuse("model is required");
  if (typeof body.prompt !== "string" || body.prompt === "") return refuse("prompt is required");
  if (body.response_format !== undefined && body.response_format !== "b64_json")
    return refuse("response_format must be b64_json");
  return jsonResponse(200, { created: 1700000000, data: [{ b64_json: IMAGE }] });
}

export const NSCALE: MockProvider = {
  routes: [{ pattern: /^\/nscale\/v1\/images\/generations\/?$/, serve: images }],
  mappings: {
    "hfkit/text-to-image-nscale": {
      nscale: { providerId: "hfkit-nscale/flux-schnell", task: "text-to-image", status: "live" },
    },
  },
};
