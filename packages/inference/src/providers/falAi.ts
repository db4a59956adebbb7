/** fal (`https://router.huggingface.co/fal-ai/{providerId}`): automatic-speech-recognition, as 4.13's `FalAIAutomaticSpeechRecognitionTask`. */
import { InputError } from "../errors";
import { malformed } from "../tasks/taskAnswers";
import { base64, needBinary } from "../tasks/taskInputs";
import type { ProviderTask } from "./helper";
import { restOf } from "./helper";

/** fal's data-URL decoder accepts these labels only (4.13's map): the same bytes under a label it can map. */
const AUDIO_TYPES: Readonly<Record<string, string>> = {
  "audio/mpeg": "audio/mpeg",
  "audio/mp3": "audio/mpeg",
  "audio/wav": "audio/x-wav",
  "audio/wave": "audio/x-wav",
  "audio/x-wav": "audio/x-wav",
  "audio/webm": "video/webm",
  "video/webm": "video/webm",
};

/** The audio as fal takes it: a `data:` URL labelled as fal maps it; an InputError (4.13's words) for another type. */
function audioType(args: { inputs?: unknown; data?: unknown }): { blob: Blob; type: string } {
  const field = args.data !== undefined && args.inputs === undefined ? "data" : "inputs";
  const blob = needBinary(args[field], field);
  if (!(blob instanceof Blob) || !blob.type) {
    throw new InputError("Unable to determine the input's content-type. Make sure your are passing a Blob when using provider fal-ai.", field);
  }
  const type = AUDIO_TYPES[(blob.type.split(";")[0] ?? "").trim().toLowerCase()];
  if (!type) throw new InputError(`Provider fal-ai does not support blob type ${blob.type} - supported content types are: ${Object.keys(AUDIO_TYPES).join(", ")}`, field);
  return { blob, type };
}

type Chunk = { text: string; timestamp: number[] };

/** `POST /{providerId}`: `{audio_url: data URL, ...}`; the answer `{text}` (or `{output}`), its `chunks` or `segments` as timed pieces. */
export const falAiAutomaticSpeechRecognition: ProviderTask = {
  path: (id) => id,
  body(args) {
    const { blob, type } = audioType(args as { inputs?: unknown; data?: unknown });
    const rest = restOf(args);
    if (args.parameters !== undefined) rest.parameters = args.parameters;
    delete rest.data;
    return async () => ({ ...rest, audio_url: `data:${type};base64,${base64(new Uint8Array(await blob.arrayBuffer()))}` });
  },
  answer(value, _options, secret) {
    const res = (value ?? {}) as { text?: unknown; output?: unknown; chunks?: unknown; segments?: unknown };
    const text = typeof res.text === "string" ? res.text : res.output;
    if (typeof text !== "string") throw malformed("Fal.ai Automatic Speech Recognition", "{ text: string } or { output: string }", value, secret);
    const pieces = (list: unknown): Record<string, unknown>[] => (Array.isArray(list) ? list.filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null && typeof (c as Chunk).text === "string") : []);
    const chunks: Chunk[] = Array.isArray(res.chunks)
      ? pieces(res.chunks).filter((c) => Array.isArray(c.timestamp)).map((c) => ({ text: c.text as string, timestamp: c.timestamp as number[] }))
      : pieces(res.segments).map((s) => ({ text: s.text as string, timestamp: [(s.start as number) ?? 0, (s.end as number) ?? 0] }));
    return chunks.length > 0 ? { text, chunks } : { text };
  },
};
