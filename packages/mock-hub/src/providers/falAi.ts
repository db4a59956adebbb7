/** fal under the router (`/fal-ai/...`): its queue and its whisper. */
import { jsonResponse } from "../http.js";
import type { MockProvider } from "./route.js";

/** `POST /fal-ai/{providerId}`: with `?_subdomain=queue`, a request queued (its result an image); else fal's whisper. */
function falAi(body: Record<string, unknown>, _origin: string, request: Request, path: string): Response {
  if (new URL(request.url).searchParams.get("_subdomain") !== "queue") return falAiSpeech(body);
  if (typeof body.prompt !== "string" || body.prompt === "") return jsonResponse(422, { detail: [{ loc: ["body", "prompt"], msg: "field required", type: "value_error.missing" }] });
  const model = path.slice("/fal-ai".length);
  const id = `mock-fal-${body.prompt.length}`;
  const at = `https://queue.fal.run${model}/requests/${id}`;
  return jsonResponse(200, { request_id: id, status: "IN_QUEUE", response_url: at, status_url: `${at}/status`, cancel_url: `${at}/cancel`, queue_position: 0 });
}

/** `GET /fal-ai/{providerId}/requests/{id}/status` (`COMPLETED`) and `GET /fal-ai/{providerId}/requests/{id}` (the result, one image). */
function falAiQueue(request: Request, path: string): Response | undefined {
  const match = request.method === "GET" ? /^\/fal-ai\/[^/]+\/[^/]+\/requests\/([^/]+)(\/status)?$/.exec(path) : null;
  if (!match) return undefined;
  if (match[2]) return jsonResponse(200, { status: "COMPLETED", request_id: match[1], response_url: `https://queue.fal.run${path.slice("/fal-ai".length, -"/status".length)}` });
  const origin = new URL(request.url).origin;
  return jsonResponse(200, { images: [{ url: `${origin}/files/${match[1]}.png`, width: 1, height: 1, content_type: "image/png" }], seed: 42, has_nsfw_concepts: [false] });
}

/** fal's whisper, `{audio_url: data URL}` → `{text, chunks}`. */
function falAiSpeech(body: Record<string, unknown>): Response {
  const audio = typeof body.audio_url === "string" ? /^data:([^;,]+);base64,([A-Za-z0-9+/]+={0,2})$/.exec(body.audio_url) : null;
  if (!audio) return jsonResponse(422, { detail: [{ loc: ["body", "audio_url"], msg: "Unsupported data URL", type: "value_error" }] });
  const bytes = atob(audio[2] ?? "").length;
  return jsonResponse(200, { text: `${bytes} bytes of ${audio[1]}`, chunks: [{ timestamp: [0, 1.5], text: `${bytes} bytes` }, { timestamp: [1.5, 2], text: `of ${audio[1]}` }] });
}

export const FAL_AI: MockProvider = {
  routes: [{ pattern: /^\/fal-ai\/[^/]+\/[^/]+$/, serve: falAi, model: (path) => path.slice("/fal-ai/".length) }],
  gets: [falAiQueue],
};
