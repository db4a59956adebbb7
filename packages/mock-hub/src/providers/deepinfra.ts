/** DeepInfra under the router (`/deepinfra/v1/openai/...`): its OpenAI-compatible completions, embeddings, transcriptions (multipart), images and speech. */
import { jsonResponse } from "../http.js";
import { PNG_BASE64, WAV } from "../pipelines.js";
import { completions, embeddings, openAiRefusal } from "./openaiCompatible.js";
import type { MockProvider } from "./route.js";

type Body = Record<string, unknown>;

/** An MP3 file's first bytes (an ID3 header): what the speech route answers unless `response_format` asks for wav. */
const MP3 = Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);

/** `POST …/audio/transcriptions` (multipart): `file` and `model` → `{text, segments}` naming the upload's size, name and type. */
async function transcription(body: Body): Promise<Response> {
  const file = body.file;
  if (!(file instanceof File)) return openAiRefusal("file is required (a multipart upload)", "file");
  if (typeof body.model !== "string" || body.model === "")
    return openAiRefusal("you must provide a model parameter", "model");
  const size = (await file.arrayBuffer()).byteLength;
  const said = [`${size} bytes`, `of ${file.name} (${file.type || "no type"})`];
  return jsonResponse(200, {
    text: said.join(" "),
    language: body.language ?? "en",
    duration: 2,
    segments: [
      { id: 0, start: 0, end: 1.5, text: said[0] },
      { id: 1, start: 1.5, end: 2, text: said[1] },
    ],
  });
}

/** `POST …/images/generations`: `{prompt, model, response_format: "b64_json" | "url"}`. */
function images(body: Body, origin: string): Response {
  if (typeof body.prompt !== "string" || body.prompt === "") return openAiRefusal("prompt is required", "prompt");
  const model = typeof body.model === "string" ? body.model : "";
  const image =
    body.response_format === "url"
      ? { url: `${origin}/files/${encodeURIComponent(model)}.png` }
      : { b64_json: PNG_BASE64 };
  return jsonResponse(200, { created: 1_700_000_000, data: [image] });
}

/** `POST …/audio/speech`: `{input, model}` → the audio (mp3, or wav when asked). */
function speech(body: Body): Response {
  if (typeof body.input !== "string" || body.input === "") return openAiRefusal("input is required", "input");
  const wav = body.response_format === "wav";
  return new Response((wav ? WAV : MP3).slice(), {
    status: 200,
    headers: { "content-type": wav ? "audio/wav" : "audio/mpeg" },
  });
}

const at = (route: string): RegExp => new RegExp(`^/deepinfra/v1/openai/${route}/?$`);

export const DEEPINFRA: MockProvider = {
  routes: [
    { pattern: at("completions"), serve: (body) => completions(body, "mock-deepinfra") },
    { pattern: at("embeddings"), serve: embeddings },
    { pattern: at("audio/transcriptions"), serve: transcription },
    { pattern: at("images/generations"), serve: images },
    { pattern: at("audio/speech"), serve: speech },
  ],
  mappings: {
    "hfkit/text-generation": {
      deepinfra: { providerId: "hfkit-deepinfra/llama", task: "text-generation", status: "live" },
    },
    "hfkit/embeddings": {
      deepinfra: { providerId: "hfkit-deepinfra/bge", task: "feature-extraction", status: "live" },
    },
    "hfkit/whisper": {
      deepinfra: { providerId: "hfkit-deepinfra/whisper", task: "automatic-speech-recognition", status: "live" },
    },
    "hfkit/text-to-image": { deepinfra: { providerId: "hfkit-deepinfra/flux", task: "text-to-image", status: "live" } },
    "hfkit/text-to-speech": {
      deepinfra: { providerId: "hfkit-deepinfra/kokoro", task: "text-to-speech", status: "live" },
    },
  },
};
