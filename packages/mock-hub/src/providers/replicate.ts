/** Replicate under the router (`/replicate/...`): its predictions API, each mock model with the input it reads and the output it makes. */
import { isRecord, jsonResponse, textResponse } from "../http.js";
import type { ProviderMappingEntry } from "../types.js";
import type { MockProvider } from "./route.js";

type Input = Record<string, unknown>;
type Output = (input: Input, origin: string, id: string) => unknown;

/** A model: the input field it needs (and how it must look), and its output once succeeded. */
interface ReplicateModel {
  readonly field: string;
  readonly check: (value: unknown) => boolean;
  readonly output: Output;
  /** Still running when `Prefer: wait` gives up: "processing", then ended at the second poll of `urls.get` (`"failed"`: failed there). */
  readonly slow?: "succeeded" | "failed";
}

const text = (v: unknown): boolean => typeof v === "string" && v !== "";
const DATA_URL = /^data:([^;,]+);base64,([A-Za-z0-9+/]+={0,2})$/;
/** An image or audio input: a `data:` URL or an http(s) URL. */
const file = (v: unknown): boolean => typeof v === "string" && (DATA_URL.test(v) || /^https?:\/\//.test(v));
/** What a mock transcriber hears in `audio`: its size and type. */
const heard = (input: Input): string => {
  const [, type = "audio/unknown", b64 = ""] = DATA_URL.exec(String(input.audio)) ?? [];
  return `${atob(b64).length} bytes of ${type}`;
};

/** An image model: `prompt` → a list of one image. */
const IMAGE: ReplicateModel = {
  field: "prompt",
  check: text,
  output: (_i, origin, id) => [`${origin}/files/${id}.png`],
};

/** The mock's models, by Replicate id (any other model, or a version, is an image model). */
const MODELS: Readonly<Record<string, ReplicateModel>> = {
  "hfkit-replicate/speech": { field: "text", check: text, output: (_i, origin, id) => `${origin}/files/${id}.wav` },
  "hfkit-replicate/video": { field: "prompt", check: text, output: (_i, origin, id) => `${origin}/files/${id}.mp4` },
  "hfkit-replicate/slow-video": {
    field: "prompt",
    check: text,
    output: (_i, origin, id) => `${origin}/files/${id}.mp4`,
    slow: "succeeded",
  },
  "hfkit-replicate/failing-video": { field: "prompt", check: text, output: () => null, slow: "failed" },
  "hfkit-replicate/edit": { field: "image", check: file, output: (_i, origin, id) => [`${origin}/files/${id}.png`] },
  // openai/whisper's output: the transcription, its segments, a text file of it.
  "hfkit-replicate/whisper": {
    field: "audio",
    check: file,
    output: (input, origin) => ({
      transcription: heard(input),
      translation: null,
      txt_file: delivery(origin, heard(input)),
      segments: [{ id: 0, start: 0, end: 1, text: heard(input) }],
      detected_language: "english",
    }),
  },
  "hfkit-replicate/whisper-file": {
    field: "audio",
    check: file,
    output: (input, origin) => ({ txt_file: delivery(origin, heard(input)) }),
  },
  "hfkit-replicate/whisper-text": { field: "audio", check: file, output: (input) => heard(input) },
};

/** The versions the mock knows, by version id (any other is an image model's). */
const VERSIONS: Readonly<Record<string, string>> = { "9f747673": "hfkit-replicate/video" };

/** Where a text file of `text` is served. */
const delivery = (origin: string, body: string): string =>
  `${origin}/replicate/delivery/${encodeURIComponent(body)}.txt`;

/**
 * `POST /replicate/v1/models/{owner}/{name}/predictions` (or `/v1/predictions` with a `version`): with
 * `Prefer: wait` the prediction has succeeded; without, it has just started. 422 without the model's input field.
 */
function replicate(body: Record<string, unknown>, origin: string, request: Request, path: string): Response {
  const model = /^\/replicate\/v1\/models\/([^/]+\/[^/]+)\/predictions/.exec(path)?.[1] ?? "";
  if (!model && (typeof body.version !== "string" || body.version === "")) {
    return jsonResponse(422, {
      detail: "- version: version is required\n",
      status: 422,
      title: "Input validation failed",
      invalid_fields: [{ type: "required", field: "version", description: "version is required" }],
    });
  }
  const spec = MODELS[model || (VERSIONS[String(body.version)] ?? "")] ?? IMAGE;
  const input = isRecord(body.input) ? body.input : undefined;
  if (!input || !spec.check(input[spec.field])) {
    const description = `${spec.field} is required`;
    return jsonResponse(422, {
      detail: `- input: ${description}\n`,
      status: 422,
      title: "Input validation failed",
      invalid_fields: [{ type: "required", field: `input.${spec.field}`, description }],
    });
  }
  const id = `mock-${(model || String(body.version)).replace(/[^a-z0-9]/gi, "-")}${spec.slow ? `-${++started}` : ""}`;
  const done = /\bwait\b/.test(request.headers.get("prefer") ?? "") && !spec.slow;
  if (spec.slow) running.set(id, { polls: 0, output: spec.output(input, origin, id), end: spec.slow });
  return jsonResponse(done ? 200 : 201, {
    id,
    model,
    version: body.version ?? "hfkit-version",
    input,
    status: done ? "succeeded" : spec.slow ? "processing" : "starting",
    output: done ? spec.output(input, origin, id) : null,
    error: null,
    urls: {
      get: `https://api.replicate.com/v1/predictions/${id}`,
      cancel: `https://api.replicate.com/v1/predictions/${id}/cancel`,
    },
  });
}

/** The slow models' predictions, by id: how often each was polled, and how it ends. */
const running = new Map<string, { polls: number; output: unknown; end: "succeeded" | "failed" }>();
let started = 0;

/** `GET /replicate/v1/predictions/{id}`: a slow prediction, "processing" at its first poll, ended at the second; 404 for another id. */
function replicatePrediction(request: Request, path: string): Response | undefined {
  const id = request.method === "GET" ? /^\/replicate\/v1\/predictions\/([^/]+)$/.exec(path)?.[1] : undefined;
  if (id === undefined) return undefined;
  const p = running.get(id);
  if (!p) return jsonResponse(404, { detail: "Not found.", status: 404, title: "Not found" });
  p.polls++;
  const status = p.polls < 2 ? "processing" : p.end;
  const ended = status !== "processing";
  return jsonResponse(200, {
    id,
    status,
    output: status === "succeeded" ? p.output : null,
    error: status === "failed" ? "CUDA out of memory" : null,
    urls: { get: `https://api.replicate.com/v1/predictions/${id}` },
    ...(ended ? { completed_at: "2026-01-01T00:00:00Z" } : {}),
  });
}

/** `GET /replicate/delivery/{text}.txt`: a text file an output names. */
function replicateDelivery(request: Request, path: string): Response | undefined {
  const name = request.method === "GET" ? /^\/replicate\/delivery\/([^/]+)\.txt$/.exec(path)?.[1] : undefined;
  return name === undefined ? undefined : textResponse(200, decodeURIComponent(name));
}

const live = (providerId: string, task: string): Record<string, ProviderMappingEntry> => ({
  replicate: { providerId, task, status: "live" },
});

export const REPLICATE: MockProvider = {
  routes: [
    {
      pattern: /^\/replicate\/v1\/(models\/[^/]+\/[^/]+\/)?predictions\/?$/,
      serve: replicate,
      model: (path, body) => /models\/([^/]+\/[^/]+)\//.exec(path)?.[1] ?? String(body.version),
    },
  ],
  gets: [replicateDelivery, replicatePrediction],
  mappings: {
    "hfkit/text-to-speech-replicate": live("hfkit-replicate/speech", "text-to-speech"),
    "hfkit/text-to-video-replicate": live("hfkit-replicate/video", "text-to-video"),
    "hfkit/text-to-video-replicate-slow": live("hfkit-replicate/slow-video", "text-to-video"),
    "hfkit/text-to-video-replicate-failing": live("hfkit-replicate/failing-video", "text-to-video"),
    "hfkit/text-to-video-replicate-versioned": live("hfkit-replicate/video:9f747673", "text-to-video"),
    "hfkit/image-to-image-replicate": live("hfkit-replicate/edit", "image-to-image"),
    "hfkit/automatic-speech-recognition-replicate": live("hfkit-replicate/whisper", "automatic-speech-recognition"),
    "hfkit/automatic-speech-recognition-replicate-file": live(
      "hfkit-replicate/whisper-file",
      "automatic-speech-recognition",
    ),
    "hfkit/automatic-speech-recognition-replicate-text": live(
      "hfkit-replicate/whisper-text",
      "automatic-speech-recognition",
    ),
  },
};
