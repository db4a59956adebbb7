/** Replicate under the router (`/replicate/...`). */
import { isRecord, jsonResponse } from "../http.js";
import type { MockProvider } from "./route.js";

/**
 * `POST /replicate/v1/models/{owner}/{name}/predictions` (or `/v1/predictions` with a `version`): Replicate's
 * predictions API; with `Prefer: wait` the prediction has succeeded, its `output` a list of one file URL.
 */
function replicate(body: Record<string, unknown>, origin: string, request: Request, path: string): Response {
  const model = /^\/replicate\/v1\/models\/([^/]+\/[^/]+)\/predictions/.exec(path)?.[1] ?? "";
  const input = isRecord(body.input) ? body.input : undefined;
  if (!input || typeof input.prompt !== "string") return jsonResponse(422, { detail: "input.prompt is required", status: 422, title: "Input validation failed" });
  const id = `mock-${(model || String(body.version)).replace(/[^a-z0-9]/gi, "-")}`;
  const done = /\bwait\b/.test(request.headers.get("prefer") ?? "");
  return jsonResponse(done ? 200 : 201, {
    id,
    model,
    version: body.version ?? "hfkit-version",
    input,
    status: done ? "succeeded" : "starting",
    output: done ? [`${origin}/files/${id}.png`] : null,
    urls: { get: `${origin}/replicate/v1/predictions/${id}` },
  });
}

export const REPLICATE: MockProvider = {
  routes: [
    {
      pattern: /^\/replicate\/v1\/(models\/[^/]+\/[^/]+\/)?predictions\/?$/,
      serve: replicate,
      model: (path, body) => /models\/([^/]+\/[^/]+)\//.exec(path)?.[1] ?? String(body.version),
    },
  ],
};
