/**
 * The Hub's model API (`GET /api/models/{id}?expand[]=inferenceProviderMapping`) and the routes the HF
 * router serves for the inference providers (`/{provider}/...`), each answering in its provider's format.
 */
import { isRecord, jsonResponse, parseJson } from "./http.js";
import { PNG_BASE64 } from "./pipelines.js";
import type { FaultRegistry } from "./faults.js";
import { proxyGate } from "./proxy.js";
import type { ModelConfig, ProviderMappingEntry } from "./types.js";

/** The mapping of the `hfkit/...` ids the tests use, unless a model's config gives its own. */
export const DEFAULT_PROVIDER_MAPPINGS: Readonly<Record<string, Record<string, ProviderMappingEntry>>> = {
  "hfkit/text-to-image": {
    together: { providerId: "hfkit-together/flux", task: "text-to-image", status: "live" },
    replicate: { providerId: "hfkit-replicate/flux", task: "text-to-image", status: "live" },
    "hf-inference": { providerId: "hfkit/text-to-image", task: "text-to-image", status: "live" },
  },
  "hfkit/text-to-image-fal": {
    "fal-ai": { providerId: "hfkit-fal/flux", task: "text-to-image", status: "live" },
  },
  "hfkit/text-to-image-versioned": {
    replicate: { providerId: "hfkit-replicate/flux:5599ed30", task: "text-to-image", status: "live" },
  },
  "hfkit/text-to-image-staging": {
    together: { providerId: "hfkit-together/flux-staging", task: "text-to-image", status: "staging" },
  },
  "hfkit/text-to-image-auto": {
    "fal-ai": { providerId: "hfkit-fal/flux", task: "text-to-image", status: "staging" },
    together: { providerId: "hfkit-together/flux-auto", task: "text-to-image", status: "live" },
  },
  "hfkit/automatic-speech-recognition": {
    "fal-ai": { providerId: "hfkit-fal/whisper", task: "automatic-speech-recognition", status: "live" },
  },
  "hfkit/feature-extraction": {
    "hf-inference": { providerId: "hfkit/feature-extraction", task: "feature-extraction", status: "live" },
  },
};

/** `GET /api/models/{id}`: the model's `inferenceProviderMapping` (its config's, else the default's), 404 for an unknown model, 401 for an `hf_bad…` token. */
export function modelInfo(request: Request, pathname: string, models: ReadonlyMap<string, ModelConfig>): Response | undefined {
  const match = /^\/api\/models\/([^/]+(?:\/[^/]+)?)\/?$/.exec(pathname);
  if (!match) return undefined;
  if (/^Bearer\s+hf_bad/i.test(request.headers.get("authorization") ?? "")) return jsonResponse(401, { error: "Invalid credentials in Authorization header" });
  const id = decodeURIComponent(match[1] ?? "");
  const mapping = models.get(id)?.inferenceProviderMapping ?? DEFAULT_PROVIDER_MAPPINGS[id];
  if (!mapping && !models.has(id)) return jsonResponse(404, { error: "Repository not found" });
  return jsonResponse(200, { _id: `mock-${id}`, id, inferenceProviderMapping: mapping ?? {} });
}

/** The deterministic b64 image every provider answers. */
const IMAGE = PNG_BASE64;

/** `POST /together/v1/images/generations`: Together's images API (`response_format` "base64" or "url"). */
function together(body: Record<string, unknown>, origin: string): Response {
  const model = typeof body.model === "string" ? body.model : "";
  if (typeof body.prompt !== "string" || body.prompt === "") return jsonResponse(400, { error: { message: "prompt is required", type: "invalid_request_error" } });
  const image = body.response_format === "url" ? { url: `${origin}/files/${encodeURIComponent(model)}.png` } : { b64_json: IMAGE };
  return jsonResponse(200, { id: `mock-together-${body.prompt.length}`, model, object: "list", data: [{ index: 0, ...image, type: "image" }] });
}

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
export function falAiQueue(request: Request, path: string): Response | undefined {
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

type Serve = (body: Record<string, unknown>, origin: string, request: Request, path: string) => Response;

const PROVIDER_ROUTES: ReadonlyArray<{ pattern: RegExp; serve: Serve; model?: (path: string, body: Record<string, unknown>) => string }> = [
  { pattern: /^\/together\/v1\/images\/generations\/?$/, serve: together },
  { pattern: /^\/fal-ai\/[^/]+\/[^/]+$/, serve: falAi, model: (path) => path.slice("/fal-ai/".length) },
  { pattern: /^\/replicate\/v1\/(models\/[^/]+\/[^/]+\/)?predictions\/?$/, serve: replicate, model: (path, body) => /models\/([^/]+\/[^/]+)\//.exec(path)?.[1] ?? String(body.version) },
];

/** `GET /files/{name}`: the file a provider's answer names (the 1×1 PNG). */
export function providerFile(request: Request, path: string): Response | undefined {
  return request.method === "GET" && /^\/files\/[^/]+\.png$/.test(path) ? new Response(PNG_BYTES.slice(), { status: 200, headers: { "content-type": "image/png" } }) : undefined;
}

const PNG_BYTES = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));

/** A provider's route under the router (`POST /{provider}/...`), after the proxy's faults for its model (the body's `model`, or the path's); undefined for another path. */
export async function providerRoute(request: Request, path: string, text: string, faults: FaultRegistry): Promise<Response | undefined> {
  const url = new URL(request.url);
  const route = request.method === "POST" ? PROVIDER_ROUTES.find((r) => r.pattern.test(path)) : undefined;
  if (!route) return undefined;
  const body = parseJson(text);
  if (!isRecord(body)) return jsonResponse(400, { error: "The body must be a JSON object" });
  const model = route.model ? route.model(path, body) : typeof body.model === "string" ? body.model : "";
  const refusal = await proxyGate({ request, model, faults });
  return refusal ?? route.serve(body, url.origin, request, path);
}
