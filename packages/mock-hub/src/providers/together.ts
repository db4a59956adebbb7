/** Together under the router (`/together/...`): images, video jobs, speech and transcriptions. */
import { isRecord, jsonResponse } from "../http.js";
import { PNG_BASE64 as IMAGE, WAV } from "../pipelines.js";
import type { MockProvider } from "./route.js";

const invalid = (message: string, status = 400): Response =>
  jsonResponse(status, { error: { message, type: "invalid_request_error" } });

/** A `data:` URL's media type and base64 payload, or undefined. */
const dataUrl = (value: unknown): { type: string; b64: string } | undefined => {
  const m = typeof value === "string" ? /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(value) : null;
  return m ? { type: m[1] ?? "", b64: m[2] ?? "" } : undefined;
};
const isImage = (value: unknown): boolean =>
  dataUrl(value) !== undefined || (typeof value === "string" && /^https?:\/\//.test(value));

/**
 * `POST /together/v1/images/generations`: Together's images API (`response_format` "base64" or "url"). With an
 * image (`image_url`, or `reference_images`: data URLs or http(s) URLs) the prompt may be empty, and a base64
 * answer is the input image's own bytes (the first one given as a data URL), so what was sent can be checked.
 */
function images(body: Record<string, unknown>, origin: string): Response {
  const model = typeof body.model === "string" ? body.model : "";
  const refs = body.reference_images;
  if (refs !== undefined && !(Array.isArray(refs) && refs.length > 0 && refs.every(isImage)))
    return invalid("reference_images must be a non-empty list of image URLs");
  if (body.image_url !== undefined && !isImage(body.image_url)) return invalid("image_url must be an image URL");
  const input: unknown = body.image_url ?? (Array.isArray(refs) ? (refs as unknown[])[0] : undefined);
  if (typeof body.prompt !== "string" || (body.prompt === "" && input === undefined))
    return invalid("prompt is required");
  const image =
    body.response_format === "url"
      ? { url: `${origin}/files/${encodeURIComponent(model)}.png` }
      : { b64_json: dataUrl(input)?.b64 || IMAGE };
  return jsonResponse(200, {
    id: `mock-together-${body.prompt.length}`,
    model,
    object: "list",
    data: [{ index: 0, ...image, type: "image" }],
  });
}

/**
 * `POST /together/v2/videos`: a video job, `queued`; a prompt (text-to-video) or `frame_images` (image-to-video)
 * is required. Its id names the model: a model whose id has `failing` in it fails when polled.
 */
function videos(body: Record<string, unknown>): Response {
  if (typeof body.model !== "string" || body.model === "") return invalid("model is required");
  const frames = body.frame_images;
  if (
    frames !== undefined &&
    !(
      Array.isArray(frames) &&
      frames.every((f) => isRecord(f) && isImage(f.input_image) && (f.frame === "first" || f.frame === "last"))
    )
  ) {
    return invalid("frame_images must be a list of {input_image, frame: first | last}");
  }
  if (frames === undefined && (typeof body.prompt !== "string" || body.prompt === ""))
    return invalid("prompt is required");
  return jsonResponse(200, {
    id: `mock-video-${body.model.replace(/[^a-z0-9]/gi, "-")}`,
    object: "video",
    model: body.model,
    status: "queued",
    created_at: 1700000000,
  });
}

/** `GET /together/v2/videos/{id}`: the job completed (its video served under `/files/`), or failed for a `failing` model. */
function videoJob(request: Request, path: string): Response | undefined {
  const id = request.method === "GET" ? /^\/together\/v2\/videos\/([^/]+)$/.exec(path)?.[1] : undefined;
  if (!id) return undefined;
  if (id.includes("failing"))
    return jsonResponse(200, {
      id,
      object: "video",
      status: "failed",
      error: { code: "generation_failed", message: "the mock failed this job" },
    });
  const origin = new URL(request.url).origin;
  return jsonResponse(200, {
    id,
    object: "video",
    status: "completed",
    outputs: { video_url: `${origin}/files/${id}.mp4`, cost: 0.1 },
    completed_at: 1700000060,
  });
}

/** `POST /together/v1/audio/speech`: `input` and `voice` required; the audio (`response_format` "mp3" or the default "wav"). */
function speech(body: Record<string, unknown>): Response {
  if (typeof body.input !== "string" || body.input === "") return invalid("input is required");
  if (typeof body.voice !== "string" || body.voice === "") return invalid("voice is required");
  const mp3 = body.response_format === "mp3";
  const bytes = mp3 ? Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, body.input.length & 0xff]) : WAV.slice();
  return new Response(bytes, { status: 200, headers: { "content-type": mp3 ? "audio/mpeg" : "audio/wav" } });
}

/**
 * `POST /together/v1/audio/transcriptions`, a multipart form: `file` (the audio, or a URL) and `model` required; the
 * text says what was received; `response_format` "verbose_json" adds timed `segments`.
 */
function transcriptions(body: Record<string, unknown>): Response {
  const file = body.file;
  if (typeof body.model !== "string" || body.model === "") return invalid("model is required");
  if (!(file instanceof Blob) && !(typeof file === "string" && /^https?:\/\//.test(file)))
    return invalid("file is required: an audio file or a URL");
  const what =
    file instanceof Blob
      ? `${file.size} bytes of ${file.type || "untyped audio"} named ${(file as File).name}`
      : `the audio at ${file}`;
  const text = `${what}${typeof body.language === "string" ? ` in ${body.language}` : ""}`;
  if (body.response_format !== "verbose_json") return jsonResponse(200, { text });
  return jsonResponse(200, {
    task: "transcribe",
    language: body.language ?? "english",
    duration: 2,
    text,
    segments: [
      { id: 0, start: 0, end: 1.5, text: what },
      { id: 1, start: 1.5, end: 2, text: "." },
    ],
  });
}

export const TOGETHER: MockProvider = {
  routes: [
    { pattern: /^\/together\/v1\/images\/generations\/?$/, serve: images },
    { pattern: /^\/together\/v2\/videos\/?$/, serve: videos },
    { pattern: /^\/together\/v1\/audio\/speech\/?$/, serve: speech },
    { pattern: /^\/together\/v1\/audio\/transcriptions\/?$/, serve: transcriptions },
  ],
  gets: [videoJob],
  mappings: {
    "hfkit/image-to-image": {
      together: { providerId: "hfkit-together/flux-2-dev", task: "image-to-image", status: "live" },
    },
    "hfkit/image-to-image-kontext": {
      together: { providerId: "hfkit-together/FLUX.1-Kontext-dev", task: "image-to-image", status: "live" },
    },
    "hfkit/text-to-video": {
      together: { providerId: "hfkit-together/wan-t2v", task: "text-to-video", status: "live" },
    },
    "hfkit/text-to-video-failing": {
      together: { providerId: "hfkit-together/failing-t2v", task: "text-to-video", status: "live" },
    },
    "hfkit/image-to-video": {
      together: { providerId: "hfkit-together/wan-i2v", task: "image-to-video", status: "live" },
    },
    "hfkit/text-to-speech": {
      together: { providerId: "hfkit-together/Kokoro-82M", task: "text-to-speech", status: "live" },
    },
    "hfkit/text-to-speech-orpheus": {
      together: { providerId: "hfkit-together/orpheus-3b", task: "text-to-speech", status: "live" },
    },
    "hfkit/automatic-speech-recognition": {
      together: { providerId: "hfkit-together/whisper-large-v3", task: "automatic-speech-recognition", status: "live" },
    },
  },
};
