/** Z.ai under the router (`/zai-org/api/paas/v4/...`): async image generation (its results polled) and layout parsing. */
import { jsonResponse } from "../http.js";
import type { MockProvider } from "./route.js";

/** Z.ai's error body, `{error: {code, message}}`. */
const refuse = (code: string, message: string): Response => jsonResponse(400, { error: { code, message } });

/** `POST /zai-org/api/paas/v4/async/images/generations`: a task `PROCESSING`; its id names the model (a `failing` one fails when polled). */
function generations(body: Record<string, unknown>): Response {
  if (typeof body.model !== "string" || body.model === "") return refuse("1211", "model is required");
  if (typeof body.prompt !== "string" || body.prompt === "") return refuse("1214", "prompt is required");
  if (body.size !== undefined && !(typeof body.size === "string" && /^\d+x\d+$/.test(body.size)))
    return refuse("1214", "size must be {width}x{height}");
  const id = `mock-zai-${body.model.replace(/[^a-z0-9]/gi, "-")}-${body.prompt.length}`;
  return jsonResponse(200, { model: body.model, id, request_id: `req-${id}`, task_status: "PROCESSING" });
}

/** `GET /zai-org/api/paas/v4/async-result/{id}`: the task succeeded (one image served under `/files/`), or failed. */
function result(request: Request, path: string): Response | undefined {
  const id = request.method === "GET" ? /^\/zai-org\/api\/paas\/v4\/async-result\/([^/]+)$/.exec(path)?.[1] : undefined;
  if (!id) return undefined;
  if (id.includes("failing")) return jsonResponse(200, { id, request_id: `req-${id}`, task_status: "FAIL" });
  const origin = new URL(request.url).origin;
  return jsonResponse(200, {
    model: "glm-image",
    id,
    request_id: `req-${id}`,
    task_status: "SUCCESS",
    image_result: [{ url: `${origin}/files/${id}.png` }],
  });
}

/** `POST /zai-org/api/paas/v4/layout_parsing`: `model` and `file` (a data URL or an http(s) URL) required; the markdown says what was received. */
function layoutParsing(body: Record<string, unknown>): Response {
  if (typeof body.model !== "string" || body.model === "") return refuse("1211", "model is required");
  const file = typeof body.file === "string" ? body.file : "";
  const data = /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(file);
  if (!data && !/^https?:\/\//.test(file)) return refuse("1214", "file must be a data URL or a URL");
  const what = data ? `${atob(data[2] ?? "").length} bytes of ${data[1]}` : `the image at ${file}`;
  return jsonResponse(200, {
    id: `mock-layout-${file.length}`,
    created: 1700000000,
    model: body.model,
    md_results: `# Page 1\n\n${what}`,
    layout_details: [[{ index: 0, label: "text", bbox_2d: [0, 0, 1, 1], content: what }]],
    data_info: { num_pages: 1 },
    usage: { total_tokens: 10 },
  });
}

export const ZAI_ORG: MockProvider = {
  routes: [
    { pattern: /^\/zai-org\/api\/paas\/v4\/async\/images\/generations\/?$/, serve: generations },
    { pattern: /^\/zai-org\/api\/paas\/v4\/layout_parsing\/?$/, serve: layoutParsing },
  ],
  gets: [result],
  mappings: {
    "hfkit/text-to-image-zai": {
      "zai-org": { providerId: "hfkit-zai/glm-image", task: "text-to-image", status: "live" },
    },
    "hfkit/text-to-image-zai-failing": {
      "zai-org": { providerId: "hfkit-zai/failing-image", task: "text-to-image", status: "live" },
    },
    "hfkit/image-to-text-zai": {
      "zai-org": { providerId: "hfkit-zai/glm-ocr", task: "image-to-text", status: "live" },
    },
  },
};
