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
const IMAGE: ReplicateModel = { field: "prompt", check: text, output: (_i, origin, id) => [`${origin}/files/${id}.png`] };

/** The mock's models, by Replicate id (any other model, or a version, is an image model). */
const MODELS: Readonly<Record<string, ReplicateModel>> = {
  "hfkit-replicate/speech": { field: "text", check: text, output: (_i, origin, id) => `${origin}/files/${id}.wav` },
  "hfkit-replicate/video": { field: "prompt", check: text, output: (_i, origin, id) => `${origin}/files/${id}.mp4` },
  "hfkit-replicate/edit": { field: "image", check: file, output: (_i, origin, id) => [`${origin}/files/${id}.png`] },
  // openai/whisper's output: the transcription, its segments, a text file of it.
  "hfkit-replicate/whisper": {
    field: "audio",
    check: file,
    output: (input, origin) => ({ transcription: heard(input), translation: null, txt_file: delivery(origin, heard(input)), segments: [{ id: 0, start: 0, end: 1, text: heard(input) }], detected_language: "english" }),
  },
  "hfkit-replicate/whisper-file": { field: "audio", check: file, output: (input, origin) => ({ txt_file: delivery(origin, heard(input)) }) },
  "hfkit-replicate/whisper-text": { field: "audio", check: file, output: (input) => heard(input) },
};

/** The versions the mock knows, by version id (any other is an image model's). */
const VERSIONS: Readonly<Record<string, string>> = { "9f747673": "hfkit-replicate/video" };

/** Where a text file of `text` is served. */
const delivery = (origin: string, body: string): string => `${origin}/replicate/delivery/${encodeURIComponent(body)}.txt`;

/**
 * `POST /replicate/v1/models/{owner}/{name}/predictions` (or `/v1/predictions` with a `version`): with
 * `Prefer: wait` the prediction has succeeded; without, it has just started. 422 without the model's input field.
 */
function replicate(body: Record<string, unknown>, origin: string, request: Request, path: string): Response {
  const model = /^\/replicate\/v1\/models\/([^/]+\/[^/]+)\/predictions/.exec(path)?.[1] ?? "";
  if (!model && (typeof body.version !== "string" || body.version === "")) {
    return jsonResponse(422, { detail: "- version: version is required\n", status: 422, title: "Input validation failed", invalid_fields: [{ type: "required", field: "version", description: "version is required" }] });
  }
  const spec = MODELS[model || (VERSIONS[String(body.version)] ?? "")] ?? IMAGE;
  const input = isRecord(body.input) ? body.input : undefined;
  if (!input || !spec.check(input[spec.field])) {
    const description = `${spec.field} is required`;
    return jsonResponse(422, { detail: `- input: ${description}\n`, status: 422, title: "Input validation failed", invalid_fields: [{ type: "required", field: `input.${spec.field}`, description }] });
  }
  const id = `mock-${(model || String(body.version)).replace(/[^a-z0-9]/gi, "-")}`;
  const done = /\bwait\b/.test(request.headers.get("prefer") ?? "");
  return jsonResponse(done ? 200 : 201, {
    id,
    model,
    version: body.version ?? "hfkit-version",
    input,
    status: done ? "succeeded" : "starting",
    output: done ? spec.output(input, origin, id) : null,
    error: null,
    urls: { get: `${origin}/replicate/v1/predictions/${id}`, cancel: `${origin}/replicate/v1/predictions/${id}/cancel` },
  });
}

/** `GET /replicate/delivery/{text}.txt`: a text file an output names. */
function replicateDelivery(request: Request, path: string): Response | undefined {
  const name = request.method === "GET" ? /^\/replicate\/delivery\/([^/]+)\.txt$/.exec(path)?.[1] : undefined;
  return name === undefined ? undefined : textResponse(200, decodeURIComponent(name));
}

const live = (providerId: string, task: string): Record<string, ProviderMappingEntry> => ({ replicate: { providerId, task, status: "live" } });

export const REPLICATE: MockProvider = {
  routes: [
    {
      pattern: /^\/replicate\/v1\/(models\/[^/]+\/[^/]+\/)?predictions\/?$/,
      serve: replicate,
      model: (path, body) => /models\/([^/]+\/[^/]+)\//.exec(path)?.[1] ?? String(body.version),
    },
  ],
  gets: [replicateDelivery],
  mappings: {
    "hfkit/text-to-speech-replicate": live("hfkit-replicate/speech", "text-to-speech"),
    "hfkit/text-to-video-replicate": live("hfkit-replicate/video", "text-to-video"),
    "hfkit/text-to-video-replicate-versioned": live("hfkit-replicate/video:9f747673", "text-to-video"),
    "hfkit/image-to-image-replicate": live("hfkit-replicate/edit", "image-to-image"),
    "hfkit/automatic-speech-recognition-replicate": live("hfkit-replicate/whisper", "automatic-speech-recognition"),
    "hfkit/automatic-speech-recognition-replicate-file": live("hfkit-replicate/whisper-file", "automatic-speech-recognition"),
    "hfkit/automatic-speech-recognition-replicate-text": live("hfkit-replicate/whisper-text", "automatic-speech-recognition"),
  },
};
