/**
 * fal under the router (`/fal-ai/{owner}/{app}[/{variant}]`): each app answered at once (fal.run), or through
 * its queue with `?_subdomain=queue` (queue.fal.run: queued, its status `COMPLETED`, its result read). The
 * apps the mock serves are named below; each checks the fields its real counterpart needs (fal's 422 else).
 */
import { isRecord, jsonResponse } from "../http.js";
import type { ProviderMappingEntry } from "../types.js";
import type { MockProvider } from "./route.js";

type Body = Record<string, unknown>;
/** What an app answers: media named at `${origin}/files/{request id}.{ext}`, or (whisper) a transcript of the body. */
type Kind = "image" | "video" | "music" | "speech" | "separation" | "mask" | "transcript";

const DATA_URL = /^data:([^;,]*);base64,([A-Za-z0-9+/]+={0,2})$/;
const isUrl = (v: unknown): boolean => typeof v === "string" && (DATA_URL.test(v) || /^https?:\/\//.test(v));
/** The labels fal's data-URL decoder maps to a file type (others: "Unsupported data URL"). */
const DECODABLE_AUDIO = ["audio/mpeg", "audio/x-wav", "video/webm"];

/** A field's check: the message of fal's 422 for it, or undefined when it is fine. */
type Need = (body: Body) => string | undefined;
const text =
  (field: string): Need =>
  (b) =>
    typeof b[field] === "string" && b[field] !== "" ? undefined : "field required";
const url =
  (field: string, optional = false): Need =>
  (b) =>
    b[field] === undefined && optional ? undefined : isUrl(b[field]) ? undefined : "Unsupported data URL";
const urls =
  (field: string): Need =>
  (b) =>
    b[field] === undefined || (Array.isArray(b[field]) && b[field].every(isUrl)) ? undefined : "must be a list of URLs";
const audio =
  (field: string): Need =>
  (b) => {
    const value = b[field];
    const type = typeof value === "string" ? DATA_URL.exec(value)?.[1] : undefined;
    return type !== undefined && DECODABLE_AUDIO.includes(type) ? undefined : "Unsupported data URL";
  };
/** `loras`, when sent: `[{path: an http(s) URL, scale: number}]`; `required` for a LoRA app. */
const loras =
  (required = false): Need =>
  (b) => {
    if (b.loras === undefined && !required) return undefined;
    const ok =
      Array.isArray(b.loras) &&
      b.loras.length > 0 &&
      b.loras.every(
        (l) => isRecord(l) && typeof l.path === "string" && /^https?:\/\//.test(l.path) && typeof l.scale === "number",
      );
    return ok ? undefined : "must be a list of {path, scale}";
  };

/** The apps by name (the segment after the owner), each with what it answers and the fields it needs. */
const APPS: Readonly<Record<string, { kind: Kind; needs: Record<string, Need> }>> = {
  flux: { kind: "image", needs: { prompt: text("prompt"), loras: loras() } },
  "flux-lora": { kind: "image", needs: { prompt: text("prompt"), loras: loras(true) } },
  lora: { kind: "image", needs: { prompt: text("prompt"), model_name: text("model_name"), loras: loras(true) } },
  edit: { kind: "image", needs: { image_url: url("image_url"), image_urls: urls("image_urls"), loras: loras() } },
  "flux-2": { kind: "image", needs: { prompt: text("prompt"), image_urls: urls("image_urls") } },
  video: { kind: "video", needs: { prompt: text("prompt"), loras: loras() } },
  ltx: { kind: "video", needs: { prompt: text("prompt"), image_url: url("image_url", true) } },
  animate: { kind: "video", needs: { image_url: url("image_url") } },
  music: { kind: "music", needs: { prompt: text("prompt") } },
  tts: { kind: "speech", needs: { text: text("text") } },
  separate: { kind: "separation", needs: { audio_url: audio("audio_url") } },
  birefnet: { kind: "mask", needs: { image_url: url("image_url") } },
  whisper: { kind: "transcript", needs: { audio_url: audio("audio_url") } },
};

const file = (origin: string, id: string, ext: string, type: string) => ({
  url: `${origin}/files/${id}.${ext}`,
  content_type: type,
  file_name: `${id}.${ext}`,
});

/** What an app of `kind` answers for request `id`. */
function result(kind: Kind, id: string, origin: string, body: Body): Record<string, unknown> {
  switch (kind) {
    case "image":
      return {
        images: [{ ...file(origin, id, "png", "image/png"), width: 1, height: 1 }],
        seed: 42,
        has_nsfw_concepts: [false],
      };
    case "video":
      return { video: file(origin, id, "mp4", "video/mp4"), seed: 42 };
    case "music":
      return { audio_file: file(origin, id, "wav", "audio/wav") };
    case "speech":
      return { audio: file(origin, id, "mp3", "audio/mpeg") };
    case "separation":
      return { audio: file(origin, id, "wav", "audio/wav") };
    case "mask":
      return { image: { ...file(origin, id, "png", "image/png"), width: 1, height: 1 } };
    case "transcript": {
      const [, type, data] = DATA_URL.exec(String(body.audio_url)) ?? [];
      const bytes = atob(data ?? "").length;
      return {
        text: `${bytes} bytes of ${type}`,
        chunks: [
          { timestamp: [0, 1.5], text: `${bytes} bytes` },
          { timestamp: [1.5, 2], text: `of ${type}` },
        ],
      };
    }
  }
}

const notFound = (app: string) => jsonResponse(404, { detail: `Application '${app}' not found` });

/** `POST /fal-ai/{owner}/{app}[/...]`: the app's fields checked; with `?_subdomain=queue` the request queued, else its result at once. */
function falAi(body: Body, origin: string, request: Request, path: string): Response {
  const [owner, app = ""] = path.slice("/fal-ai/".length).split("/");
  const served = APPS[app];
  if (!served) return notFound(app);
  const wrong = Object.entries(served.needs)
    .map(([field, need]) => [field, need(body)] as const)
    .filter(([, msg]) => msg !== undefined);
  if (wrong.length > 0)
    return jsonResponse(422, {
      detail: wrong.map(([field, msg]) => ({ loc: ["body", field], msg, type: "value_error" })),
    });
  const main = body.prompt ?? body.text ?? body.image_url ?? body.audio_url;
  const id = `mock-fal-${String(main).length}`;
  if (new URL(request.url).searchParams.get("_subdomain") !== "queue")
    return jsonResponse(200, result(served.kind, id, origin, body));
  // As fal: the queue's URLs name the app without its variant (`fal-ai/flux-2`, not `fal-ai/flux-2/edit`).
  const at = `https://queue.fal.run/${owner}/${app}/requests/${id}`;
  return jsonResponse(200, {
    request_id: id,
    status: "IN_QUEUE",
    response_url: at,
    status_url: `${at}/status`,
    cancel_url: `${at}/cancel`,
    queue_position: 0,
  });
}

/** `GET /fal-ai/{owner}/{app}/requests/{id}/status` (`COMPLETED`) and `GET /fal-ai/{owner}/{app}/requests/{id}` (the app's result). */
function falAiQueue(request: Request, path: string): Response | undefined {
  const match =
    request.method === "GET" ? /^\/fal-ai\/([^/]+)\/([^/]+)\/requests\/([^/]+)(\/status)?$/.exec(path) : null;
  if (!match) return undefined;
  const [, owner, app = "", id = "", status] = match;
  const served = APPS[app];
  if (!served) return notFound(app);
  if (status)
    return jsonResponse(200, {
      status: "COMPLETED",
      request_id: id,
      response_url: `https://queue.fal.run/${owner}/${app}/requests/${id}`,
    });
  return jsonResponse(200, result(served.kind, id, new URL(request.url).origin, {}));
}

const live = (
  providerId: string,
  task: string,
  more: Partial<ProviderMappingEntry> = {},
): Record<string, ProviderMappingEntry> => ({ "fal-ai": { providerId, task, status: "live", ...more } });

export const FAL_AI: MockProvider = {
  routes: [
    { pattern: /^\/fal-ai\/[^/]+\/[^/]+(\/[^/]+)*$/, serve: falAi, model: (path) => path.slice("/fal-ai/".length) },
  ],
  gets: [falAiQueue],
  mappings: {
    "hfkit/audio-to-audio-fal": live("hfkit-fal/separate", "audio-to-audio"),
    "hfkit/image-segmentation-fal": live("hfkit-fal/birefnet", "image-segmentation"),
    "hfkit/image-text-to-image-fal": live("hfkit-fal/flux-2/edit", "image-text-to-image"),
    "hfkit/image-text-to-video-fal": live("hfkit-fal/ltx/image-to-video", "image-text-to-video"),
    "hfkit/image-to-image-fal": live("hfkit-fal/edit", "image-to-image"),
    "hfkit/image-to-video-fal": live("hfkit-fal/animate", "image-to-video"),
    "hfkit/text-to-audio-fal": live("hfkit-fal/music", "text-to-audio"),
    "hfkit/text-to-speech-fal": live("hfkit-fal/tts", "text-to-speech"),
    "hfkit/text-to-video-fal": live("hfkit-fal/video", "text-to-video"),
    "hfkit/lora-flux": live("hfkit-fal/flux-lora", "text-to-image", {
      adapter: "lora",
      adapterWeightsPath: "weights/lora.safetensors",
    }),
    "hfkit/lora-sdxl": live("fal-ai/lora", "text-to-image", {
      adapter: "lora",
      adapterWeightsPath: "pytorch_lora_weights.safetensors",
    }),
    "hfkit/lora-image-to-image": live("hfkit-fal/edit", "image-to-image", {
      adapter: "lora",
      adapterWeightsPath: "lora.safetensors",
    }),
    "hfkit/lora-text-to-video": live("hfkit-fal/video", "text-to-video", {
      adapter: "lora",
      adapterWeightsPath: "lora.safetensors",
    }),
  },
};
