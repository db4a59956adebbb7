/**
 * WaveSpeedAI under the router (`/wavespeed/...`): a task submitted (`POST /api/v3/{model}`), its result polled
 * (`GET /api/v3/predictions/{id}/result`), each answer `{code, message, data}` as WaveSpeedAI's API v3 answers.
 */
import { isRecord, jsonResponse } from "../http.js";
import type { ProviderMappingEntry } from "../types.js";
import type { MockProvider } from "./route.js";

/** A mock model: whether it needs a prompt, an image, and what it makes; `processing`: that many polls answered before it completes; `fails` with that error. */
interface WavespeedModel {
  readonly prompt: boolean;
  readonly image: boolean;
  readonly ext: "png" | "mp4";
  readonly processing?: number;
  readonly fails?: string;
}

const MODELS: Readonly<Record<string, WavespeedModel>> = {
  "hfkit-wavespeed/flux": { prompt: true, image: false, ext: "png" },
  "hfkit-wavespeed/flux-queued": { prompt: true, image: false, ext: "png", processing: 1 },
  "hfkit-wavespeed/flux-fails": { prompt: true, image: false, ext: "png", fails: "mock: the generation failed" },
  "hfkit-wavespeed/wan-t2v": { prompt: true, image: false, ext: "mp4" },
  "hfkit-wavespeed/kontext": { prompt: true, image: true, ext: "png" },
  "hfkit-wavespeed/wan-i2v": { prompt: false, image: true, ext: "mp4" },
};

/** An image as WaveSpeedAI takes it: base64 (or a `data:` URL), or an http(s) URL. */
const isImage = (v: unknown): boolean =>
  typeof v === "string" && (/^https?:\/\//.test(v) || /^(data:[^;,]+;base64,)?[A-Za-z0-9+/]+={0,2}$/.test(v));

const fail = (code: number, message: string): Response => jsonResponse(code, { code, message, data: null });
/** A task id names its model (`/` as `--`), so a poll knows what it makes. */
const idOf = (model: string): string => `mock-ws-${model.replace(/\//g, "--")}`;
const modelOf = (id: string): string => id.slice("mock-ws-".length).replace(/--/g, "/");

/** How many times each task (by hub and id) has been polled since it was submitted (bounded: the oldest forgotten). */
const polled = new Map<string, number>();
const MAX_TASKS = 1000;

function task(model: string, status: string, outputs: string[], error = ""): Record<string, unknown> {
  const id = idOf(model);
  return {
    id,
    model,
    outputs,
    urls: { get: `https://api.wavespeed.ai/api/v3/predictions/${id}/result` },
    has_nsfw_contents: outputs.map(() => false),
    status,
    created_at: "2025-01-01T00:00:00.000Z",
    error,
    executionTime: status === "completed" ? 1200 : 0,
    timings: { inference: status === "completed" ? 1200 : 0 },
  };
}

/** `POST /wavespeed/api/v3/{model}`: the task created; 400 without the model's prompt or image, 404 for a model the mock does not know. */
function submit(body: Record<string, unknown>, origin: string, _request: Request, path: string): Response {
  const model = path.slice("/wavespeed/api/v3/".length);
  const spec = MODELS[model];
  if (!spec) return fail(404, `model not found: ${model}`);
  if (spec.prompt && (typeof body.prompt !== "string" || body.prompt === "")) return fail(400, "prompt is required");
  if (spec.image && !isImage(body.image)) return fail(400, "image is required: a URL or base64");
  if (body.images !== undefined && !(Array.isArray(body.images) && body.images.every(isImage)))
    return fail(400, "images must be a list of URLs or base64 images");
  if (
    body.loras !== undefined &&
    !(Array.isArray(body.loras) && body.loras.every((l) => isRecord(l) && typeof l.path === "string"))
  )
    return fail(400, "loras must be a list of {path, scale}");
  const key = `${origin}|${idOf(model)}`;
  polled.delete(key);
  polled.set(key, 0);
  if (polled.size > MAX_TASKS) polled.delete(polled.keys().next().value as string);
  return jsonResponse(200, { code: 200, message: "success", data: task(model, "created", []) });
}

/** `GET /wavespeed/api/v3/predictions/{id}/result`: "processing" for the model's first polls, then "completed" (one output) or "failed". */
function result(request: Request, path: string): Response | undefined {
  const id =
    request.method === "GET" ? /^\/wavespeed\/api\/v3\/predictions\/([^/]+)\/result$/.exec(path)?.[1] : undefined;
  if (id === undefined) return undefined;
  const model = modelOf(id);
  const spec = id.startsWith("mock-ws-") ? MODELS[model] : undefined;
  if (!spec) return fail(404, `prediction not found: ${id}`);
  const origin = new URL(request.url).origin;
  const key = `${origin}|${id}`;
  // A task the hub did not see submitted (another hub's, or forgotten) is done.
  const seen = polled.get(key);
  const count = seen === undefined ? Infinity : seen + 1;
  if (seen !== undefined) polled.set(key, count);
  const data =
    count <= (spec.processing ?? 0)
      ? task(model, "processing", [])
      : spec.fails
        ? task(model, "failed", [], spec.fails)
        : task(model, "completed", [`${origin}/files/${id}.${spec.ext}`]);
  return jsonResponse(200, { code: 200, message: "success", data });
}

const live = (providerId: string, task: string): Record<string, ProviderMappingEntry> => ({
  wavespeed: { providerId, task, status: "live" },
});

export const WAVESPEED: MockProvider = {
  routes: [
    {
      pattern: /^\/wavespeed\/api\/v3\/(?!predictions\/)[^?#]+$/,
      serve: submit,
      model: (path) => path.slice("/wavespeed/api/v3/".length),
    },
  ],
  gets: [result],
  mappings: {
    "hfkit/text-to-image-wavespeed": live("hfkit-wavespeed/flux", "text-to-image"),
    "hfkit/text-to-image-wavespeed-queued": live("hfkit-wavespeed/flux-queued", "text-to-image"),
    "hfkit/text-to-image-wavespeed-fails": live("hfkit-wavespeed/flux-fails", "text-to-image"),
    "hfkit/text-to-image-wavespeed-missing": live("hfkit-wavespeed/nothing", "text-to-image"),
    "hfkit/text-to-video-wavespeed": live("hfkit-wavespeed/wan-t2v", "text-to-video"),
    "hfkit/image-to-image-wavespeed": live("hfkit-wavespeed/kontext", "image-to-image"),
    "hfkit/image-to-video-wavespeed": live("hfkit-wavespeed/wan-i2v", "image-to-video"),
    "hfkit/image-text-to-image-wavespeed": live("hfkit-wavespeed/kontext", "image-text-to-image"),
    "hfkit/image-text-to-video-wavespeed": live("hfkit-wavespeed/wan-i2v", "image-text-to-video"),
  },
};
