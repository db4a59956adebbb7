/**
 * Together (`https://router.huggingface.co/together/...`): text-to-image, image-to-image, text-to-video and
 * image-to-video (its video jobs, polled), text-to-speech and automatic-speech-recognition (a multipart form),
 * as 4.13's `Together*Task` helpers send them.
 */
import { InputError } from "../../core/errors";
import { InferenceClientProviderOutputError } from "../../core/hfErrors";
import { serverText } from "../../core/redact";
import { asOutput } from "../../checks/images";
import { isRecord, malformed } from "../../checks/answers";
import { base64, binaryField, checkParameters, needBinary, needString } from "../../checks/inputs";
import type { JsonObject } from "../../core/json";
import type { ProviderArgs, ProviderIo, ProviderTask } from "./helper";
import { audioFileName, formBody, get, restOf } from "./helper";

/** `num_inference_steps` as Together names it, `steps`. */
function withSteps(parameters: JsonObject): JsonObject {
  const { num_inference_steps: steps, ...rest } = parameters;
  return steps === undefined ? rest : { ...rest, steps };
}

/** An image input, checked now; later, a `data:` URL of its own type (`fallback` when it has none). */
function imageInput(value: unknown, fallback: string): () => Promise<string> {
  const image = needBinary(value, "inputs");
  const type = (image instanceof Blob && image.type) || fallback;
  return async () =>
    `data:${type};base64,${base64(new Uint8Array(image instanceof Blob ? await image.arrayBuffer() : image))}`;
}

/** `POST /v1/images/generations`: `{prompt, response_format, model, ...parameters}` (`num_inference_steps` sent as `steps`). */
export const togetherTextToImage: ProviderTask = {
  path: () => "v1/images/generations",
  body(args, options) {
    const prompt = needString(args.inputs, "inputs");
    const body = {
      ...restOf(args),
      ...withSteps(checkParameters(args.parameters) ?? {}),
      prompt,
      response_format: options.outputType === "url" ? "url" : "base64",
    };
    return (model) => ({ ...body, model });
  },
  answer(value, options, secret) {
    const outputType = options.outputType;
    const url = get(value, "data", 0, "url");
    if (outputType !== "json" && typeof url === "string") return url;
    return asOutput("Together text-to-image", value, outputType, secret);
  },
};

/**
 * `POST /v1/images/generations` with the image as a `data:` URL: `image_url` for FLUX.1 Kontext models,
 * `reference_images: [url]` for the others; `parameters.prompt` the prompt (`""` without); the image answered as a Blob.
 */
export const togetherImageToImage: ProviderTask = {
  path: () => "v1/images/generations",
  body(args) {
    const { prompt, ...parameters } = withSteps(checkParameters(args.parameters) ?? {});
    const image = imageInput(args.inputs, "image/jpeg");
    return async (model) => {
      const lowered = model.toLowerCase();
      const url = await image();
      const field =
        lowered.includes("kontext") && lowered.includes("flux.1") ? { image_url: url } : { reference_images: [url] };
      return { ...restOf(args), prompt: prompt ?? "", ...field, ...parameters, response_format: "base64", model };
    };
  },
  answer: (value, _options, secret) => asOutput("Together image-to-image", value, "blob", secret),
};

/** Together's video parameters: `num_inference_steps` as `steps`, `target_size` as `width` and `height`. */
function videoParameters(parameters: JsonObject): JsonObject {
  const { target_size: size, ...rest } = withSteps(parameters);
  if (!isRecord(size)) return rest;
  return {
    ...rest,
    ...(size.width === undefined ? {} : { width: size.width }),
    ...(size.height === undefined ? {} : { height: size.height }),
  };
}

/** Together's video jobs are polled every 2 s (as 4.13), at most this many times (5 minutes). */
const VIDEO_POLLS = 150;
const PENDING: readonly unknown[] = [undefined, "queued", "in_progress"];

/** Waits for a video job (`{id, status}`) through the router, then fetches its `outputs.video_url`. */
async function videoOf(value: unknown, secret: string | undefined, io: ProviderIo): Promise<Blob> {
  const id = isRecord(value) ? value.id : undefined;
  if (!isRecord(value) || typeof id !== "string" || id === "")
    throw new InferenceClientProviderOutputError(
      "Received malformed response from Together video API: no job ID found in the response",
    );
  let job = value;
  for (let polls = 0; PENDING.includes(job.status); polls++) {
    if (polls >= VIDEO_POLLS)
      throw new InferenceClientProviderOutputError(
        `Timed out while waiting for Together video generation — aborting after ${VIDEO_POLLS} status polls`,
      );
    await io.sleep(2000);
    const next = await io.json(io.route(`v2/videos/${encodeURIComponent(id)}`));
    if (!isRecord(next)) throw malformed("Together video", "a job ({id, status})", next, secret);
    job = next;
  }
  if (job.status === "failed") {
    const message =
      isRecord(job.error) && typeof job.error.message === "string"
        ? serverText(job.error.message, secret, 500)
        : "Unknown error";
    throw new InferenceClientProviderOutputError(`Together video generation failed: ${message}`);
  }
  if (job.status !== "completed")
    throw new InferenceClientProviderOutputError(
      `Unexpected Together video job status: ${serverText(JSON.stringify(job.status) ?? "undefined", secret, 100)}`,
    );
  const url = isRecord(job.outputs) ? job.outputs.video_url : undefined;
  if (typeof url !== "string" || !/^https?:\/\//i.test(url))
    throw malformed("Together video", "a completed job's outputs.video_url (an http(s) URL)", job, secret);
  return io.file(url);
}

/** `POST /v2/videos`: a job, polled at `GET /v2/videos/{id}` until completed; the video fetched, a Blob. */
const togetherVideo = (
  make: (args: ProviderArgs) => (model: string) => Promise<JsonObject> | JsonObject,
): ProviderTask => ({
  path: () => "v2/videos",
  submits: true,
  body: (args) => make(args),
  answer: (value, _options, secret, io) => videoOf(value, secret, io),
});

/** `{prompt, model, ...parameters}`. */
export const togetherTextToVideo = /* @__PURE__ */ togetherVideo((args) => {
  const body = {
    ...restOf(args),
    ...videoParameters(checkParameters(args.parameters) ?? {}),
    prompt: needString(args.inputs, "inputs"),
  };
  return (model) => ({ ...body, model });
});

/** `{frame_images: [{input_image: data URL, frame: "first"}], model, ...parameters}`, `parameters.prompt` as `prompt`. */
export const togetherImageToVideo = /* @__PURE__ */ togetherVideo((args) => {
  const { prompt, ...parameters } = checkParameters(args.parameters) ?? {};
  const image = imageInput(args.inputs, "image/png");
  const body = { ...restOf(args), ...videoParameters(parameters) };
  return async (model) => ({
    ...body,
    frame_images: [{ input_image: await image(), frame: "first" }],
    model,
    ...(typeof prompt === "string" ? { prompt } : {}),
  });
});

/** `POST /v1/audio/speech`: `{input, model, voice, ...parameters}` (Kokoro models default to the voice `af_alloy`); the audio, a Blob. */
export const togetherTextToSpeech: ProviderTask = {
  path: () => "v1/audio/speech",
  body(args) {
    const input = needString(args.inputs, "inputs");
    const parameters = checkParameters(args.parameters) ?? {};
    return (model) => {
      const voice = parameters.voice ?? (model.toLowerCase().includes("kokoro") ? "af_alloy" : undefined);
      return { ...restOf(args), ...parameters, ...(voice === undefined ? {} : { voice }), input, model };
    };
  },
  answer(value, _options, secret) {
    if (value instanceof Blob) return value;
    throw malformed("Together text-to-speech", "a binary body (audio)", value, secret);
  },
};

/** The audio as Together's form takes it: a Blob (named `audio.{ext}` of its type), or an http(s) URL Together fetches. */
function audioOf(args: ProviderArgs): Blob | string {
  const field = binaryField(args);
  const audio = args[field];
  if (typeof audio === "string" && /^https?:\/\//i.test(audio)) return audio;
  if (typeof audio === "string" || audio === undefined || audio === null) {
    throw new InputError(
      "Together automatic-speech-recognition expects a Blob, ArrayBuffer, or HTTP(S) URL string audio input.",
      field,
    );
  }
  const binary = needBinary(audio, field);
  return binary instanceof Blob ? binary : new Blob([binary]);
}

/** A form field's value as 4.13 appends it: a string as is, a number or boolean as text, anything else as JSON. */
const formValue = (v: unknown): string =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);

/**
 * `POST /v1/audio/transcriptions`, a multipart form: `file` (the audio), `model` and the other arguments and
 * parameters as fields; the answer `{text, segments?}`, the segments as timed chunks.
 */
export const togetherAutomaticSpeechRecognition: ProviderTask = {
  path: () => "v1/audio/transcriptions",
  body(args) {
    const audio = audioOf(args);
    const rest = restOf(args);
    delete rest.data;
    const fields = { ...rest, ...checkParameters(args.parameters) };
    return (model) => {
      const form = new FormData();
      if (typeof audio === "string") form.append("file", audio);
      else form.append("file", audio, audioFileName(audio));
      const shown: JsonObject = { file: typeof audio === "string" ? audio : `[audio: ${audio.size} bytes]` };
      for (const [key, value] of Object.entries({ ...fields, model })) {
        if (value === undefined || value === null) continue;
        form.append(key, formValue(value));
        shown[key] = value;
      }
      return formBody(form, shown);
    };
  },
  answer(value, _options, secret) {
    const res = isRecord(value) ? value : {};
    const segments = res.segments;
    const timed = (s: unknown): s is { text: string; start: number; end: number } =>
      isRecord(s) && typeof s.text === "string" && typeof s.start === "number" && typeof s.end === "number";
    if (typeof res.text !== "string" || (segments != null && !(Array.isArray(segments) && segments.every(timed)))) {
      throw malformed(
        "Together automatic-speech-recognition",
        "{ text: string, segments?: Array<{ text, start, end }> }",
        value,
        secret,
      );
    }
    if (!Array.isArray(segments)) return { text: res.text };
    return {
      text: res.text,
      chunks: segments.map((s: { text: string; start: number; end: number }) => ({
        text: s.text,
        timestamp: [s.start, s.end],
      })),
    };
  },
};
