/** Together under the router (`/together/...`). */
import { jsonResponse } from "../http.js";
import { PNG_BASE64 as IMAGE } from "../pipelines.js";
import type { MockProvider } from "./route.js";

/** `POST /together/v1/images/generations`: Together's images API (`response_format` "base64" or "url"). */
function together(body: Record<string, unknown>, origin: string): Response {
  const model = typeof body.model === "string" ? body.model : "";
  if (typeof body.prompt !== "string" || body.prompt === "") return jsonResponse(400, { error: { message: "prompt is required", type: "invalid_request_error" } });
  const image = body.response_format === "url" ? { url: `${origin}/files/${encodeURIComponent(model)}.png` } : { b64_json: IMAGE };
  return jsonResponse(200, { id: `mock-together-${body.prompt.length}`, model, object: "list", data: [{ index: 0, ...image, type: "image" }] });
}

export const TOGETHER: MockProvider = {
  routes: [{ pattern: /^\/together\/v1\/images\/generations\/?$/, serve: together }],
};
