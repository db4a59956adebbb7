/**
 * fal (`https://router.huggingface.co/fal-ai/{providerId}`): automatic-speech-recognition and text-to-image
 * (its queue: submitted, polled, its result read), as 4.13's `FalAIAutomaticSpeechRecognitionTask` and `FalAITextToImageTask`.
 */
import { InferenceError, InputError } from "../errors";
import { InferenceClientProviderOutputError } from "../hfErrors";
import { malformed } from "../tasks/taskAnswers";
import { base64, checkParameters, needBinary, needString } from "../tasks/taskInputs";
import type { ProviderIo, ProviderTask } from "./helper";
import { imageAt, restOf } from "./helper";

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

const QUEUE = "?_subdomain=queue";
/** fal's queue is asked for its status every 500 ms (as 4.13), at most this many times (10 minutes). */
const MAX_POLLS = 1200;

/** Waits for a queued request (`{request_id, status, response_url}`) and reads its result, through the router. */
async function queued(value: unknown, io: ProviderIo, secret: string | undefined): Promise<unknown> {
  const submitted = (value ?? {}) as { request_id?: unknown; status?: unknown; response_url?: unknown };
  if (!submitted.request_id || typeof submitted.response_url !== "string") {
    throw new InferenceClientProviderOutputError("Received malformed response from Fal.ai text-to-image API: no request ID found in the response");
  }
  let path: string;
  try {
    path = new URL(submitted.response_url).pathname;
  } catch {
    throw malformed("Fal.ai text-to-image", "a response_url", value, secret);
  }
  for (let status = submitted.status, polls = 0; status !== "COMPLETED"; polls++) {
    if (polls >= MAX_POLLS) throw new InferenceError(`fal-ai's queue did not complete request ${String(submitted.request_id)} in ${MAX_POLLS / 2} s (last status ${String(status)})`);
    await io.sleep(500);
    status = ((await io.json(io.route(`${path}/status${QUEUE}`))) as { status?: unknown } | null)?.status;
  }
  return io.json(io.route(`${path}${QUEUE}`));
}

/** `POST /{providerId}?_subdomain=queue`: `{prompt, ...parameters}`; the result's first image (`{images: [{url}]}`) fetched unless `outputType` is `"url"` or `"json"`. */
export const falAiTextToImage: ProviderTask = {
  path: (id) => `${id}${QUEUE}`,
  body(args) {
    const body = { ...restOf(args), ...checkParameters(args.parameters), prompt: needString(args.inputs, "inputs") };
    return () => body;
  },
  async answer(value, options, secret, io) {
    const result = await queued(value, io, secret);
    const url = (result as { images?: { url?: unknown }[] } | null)?.images?.[0]?.url;
    if (typeof url !== "string" || !/^https?:\/\//.test(url)) throw malformed("Fal.ai text-to-image", "{ images: Array<{ url: string }> }", result, secret);
    return imageAt(url, result as object, options, io);
  },
};
