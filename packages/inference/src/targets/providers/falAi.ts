/**
 * fal (`https://router.huggingface.co/fal-ai/{providerId}`), as 4.13's `FalAI*Task`s: automatic-speech-recognition
 * and text-to-speech answered at once; every other task through fal's queue (submitted with `?_subdomain=queue`,
 * its status polled, its result read), the media its result names fetched. A LoRA adapter the Hub maps to a fal
 * base model goes as `loras` (its weights on the Hub), as 4.13 sends it.
 */
import { InferenceError, InputError } from "../../core/errors";
import { InferenceClientProviderOutputError } from "../../core/hfErrors";
import { modelPath } from "../routes";
import { malformed } from "../../checks/answers";
import { serverText } from "../../core/redact";
import { base64, binaryField, checkParameters, needBinary, needString } from "../../checks/inputs";
import { isRecord, type JsonObject } from "../../core/json";
import type { BodyMaker, ProviderArgs, ProviderIo, ProviderOptions, ProviderTask } from "./helper";
import { get, imageAt, restOf } from "./helper";
import { HF_HUB_URL, type ProviderMapping } from "./mapping";

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

const NO_TYPE =
  "Unable to determine the input's content-type. Make sure your are passing a Blob when using provider fal-ai.";

/** The audio (`inputs`, or the older `data`) as fal takes it: a `data:` URL labelled as fal maps it; an InputError (4.13's words) otherwise. */
function audioInput(args: ProviderArgs, notBlob = NO_TYPE): () => Promise<string> {
  const field = binaryField(args);
  const blob = needBinary(args[field], field);
  if (!(blob instanceof Blob)) throw new InputError(notBlob, field);
  if (!blob.type) throw new InputError(NO_TYPE, field);
  const type = AUDIO_TYPES[(blob.type.split(";")[0] ?? "").trim().toLowerCase()];
  if (!type)
    throw new InputError(
      `Provider fal-ai does not support blob type ${blob.type} - supported content types are: ${Object.keys(AUDIO_TYPES).join(", ")}`,
      field,
    );
  return async () => `data:${type};base64,${base64(new Uint8Array(await blob.arrayBuffer()))}`;
}

/** An image as fal takes it inside JSON: a `data:` URL (an ArrayBuffer, or a Blob without a type, labelled image/png). */
function imageInput(value: unknown, field = "inputs"): () => Promise<string> {
  const image = needBinary(value, field);
  const type = (image instanceof Blob && image.type) || "image/png";
  return async () =>
    `data:${type};base64,${base64(new Uint8Array(image instanceof ArrayBuffer ? image : await image.arrayBuffer()))}`;
}

/** The http(s) URL `pick` finds in an answer, else the task's malformed-answer error. */
function urlIn(
  task: string,
  expected: string,
  value: unknown,
  secret: string | undefined,
  pick: (value: unknown) => unknown,
): string {
  const url = pick(value);
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) throw malformed(`Fal.ai ${task}`, expected, value, secret);
  return url;
}

/** The body of a LoRA adapter mapped to a fal base model: its weights on the Hub as `loras` (and, on `fal-ai/lora`, the SDXL base for text-to-image), as 4.13. */
function withLora(body: JsonObject, model: unknown, mapping: ProviderMapping, sdxl = false): JsonObject {
  if (mapping.adapter !== "lora" || !mapping.adapterWeightsPath || typeof model !== "string") return body;
  const path = `${HF_HUB_URL}/${modelPath(model)}/resolve/main/${mapping.adapterWeightsPath.split("/").map(encodeURIComponent).join("/")}`;
  const base =
    sdxl && mapping.providerId === "fal-ai/lora" ? { model_name: "stabilityai/stable-diffusion-xl-base-1.0" } : {};
  return { ...body, loras: [{ path, scale: 1 }], ...base };
}

/** The call's other fields and its parameters, as fal's bodies start. */
const fields = (args: ProviderArgs): JsonObject => ({ ...restOf(args), ...checkParameters(args.parameters) });

/** `{...parameters, prompt: inputs}`, with a LoRA adapter's weights. */
const prompted =
  (sdxl: boolean) =>
  (args: ProviderArgs): BodyMaker => {
    const body = { ...fields(args), prompt: needString(args.inputs, "inputs") };
    return (_id, mapping) => withLora(body, args.model, mapping, sdxl);
  };

/** `{...parameters, ...image}` with the image of `inputs` (`image` makes its fields from its data URL), with a LoRA adapter's weights. */
const imaged =
  (image: (url: string) => JsonObject) =>
  (args: ProviderArgs): BodyMaker => {
    const body = fields(args);
    const url = imageInput(args.inputs);
    return async (_id, mapping) => withLora({ ...body, ...image(await url()) }, args.model, mapping);
  };

/** With an image, as `withImage`; without one, the parameters alone, which must hold the prompt (the text-only variant). */
const imageOrText =
  (withImage: ProviderTask["body"]) =>
  (args: ProviderArgs, options: ProviderOptions): BodyMaker => {
    if (args.inputs !== undefined && args.inputs !== null) return withImage(args, options);
    const body = fields(args);
    if (typeof body.prompt !== "string" || body.prompt === "")
      throw new InputError(
        "`parameters.prompt` must be a non-empty string when no image (`inputs`) is given",
        "parameters.prompt",
      );
    return (_id, mapping) => withLora(body, args.model, mapping);
  };

const QUEUE = "?_subdomain=queue";
/** fal's queue is asked for its status every 500 ms (as 4.13), at most this many times (10 minutes). */
const MAX_POLLS = 1200;

/** Waits for a queued request (`{request_id, status, response_url}`) and reads its result, through the router. */
async function queued(task: string, value: unknown, io: ProviderIo, secret: string | undefined): Promise<unknown> {
  const id = get(value, "request_id");
  if (!id)
    throw new InferenceClientProviderOutputError(
      `Received malformed response from Fal.ai ${task} API: no request ID found in the response`,
    );
  const at = get(value, "response_url");
  let path: string | undefined;
  try {
    path = typeof at === "string" && /^https?:\/\//i.test(at) ? new URL(at).pathname : undefined;
  } catch {
    path = undefined;
  }
  if (path === undefined) throw malformed(`Fal.ai ${task}`, "an http(s) response_url", value, secret);
  for (let status = get(value, "status"), polls = 0; status !== "COMPLETED"; polls++) {
    if (polls >= MAX_POLLS)
      throw new InferenceError(
        `fal-ai's queue did not complete request ${serverText(id, secret)} in ${MAX_POLLS / 2} s (last status ${serverText(status, secret)})`,
      );
    await io.sleep(500);
    const answer = await io.json(io.route(`${path}/status${QUEUE}`));
    status = get(answer, "status");
    if (typeof status !== "string") throw malformed(`Fal.ai ${task} status`, "{ status: string }", answer, secret);
  }
  return io.json(io.route(`${path}${QUEUE}`));
}

type Reader = (result: unknown, options: ProviderOptions, secret: string | undefined, io: ProviderIo) => unknown;

/** A pair served through fal's queue: posted with `?_subdomain=queue`, its result read by `read`. */
const inQueue = (task: string, body: ProviderTask["body"], read: Reader): ProviderTask => ({
  path: (id) => `${id}${QUEUE}`,
  submits: true,
  body,
  answer: async (value, options, secret, io) => read(await queued(task, value, io, secret), options, secret, io),
});

/** The file the result names at `pick` (described by `expected`), fetched: a Blob. */
const fileAt =
  (task: string, expected: string, pick: (value: unknown) => unknown): Reader =>
  (result, _options, secret, io) =>
    io.file(urlIn(task, expected, result, secret, pick));

const IMAGES = "{ images: Array<{ url: string }> }";
const firstImage = (value: unknown): unknown => get(value, "images", 0, "url");
const VIDEO = "{ video: { url: string } }";
const video = (value: unknown): unknown => get(value, "video", "url");

/** A timed piece of a transcription: an object with its text. */
type Piece = JsonObject & { text: string };
const isPiece = (c: unknown): c is Piece => isRecord(c) && typeof c.text === "string";

/** `POST /{providerId}`: `{audio_url: data URL, ...}`; the answer `{text}` (or `{output}`), its `chunks` or `segments` as timed pieces. */
export const falAiAutomaticSpeechRecognition: ProviderTask = {
  path: (id) => id,
  body(args) {
    const audio = audioInput(args);
    const rest = restOf(args);
    if (args.parameters !== undefined) rest.parameters = args.parameters;
    delete rest.data;
    return async () => ({ ...rest, audio_url: await audio() });
  },
  answer(value, _options, secret) {
    const said = get(value, "text");
    const text = typeof said === "string" ? said : get(value, "output");
    if (typeof text !== "string")
      throw malformed("Fal.ai Automatic Speech Recognition", "{ text: string } or { output: string }", value, secret);
    const pieces = (list: unknown): Piece[] => (Array.isArray(list) ? list.filter(isPiece) : []);
    const timed = get(value, "chunks");
    const chunks = Array.isArray(timed)
      ? pieces(timed).flatMap((c) => (Array.isArray(c.timestamp) ? [{ text: c.text, timestamp: c.timestamp }] : []))
      : pieces(get(value, "segments")).map((s) => ({ text: s.text, timestamp: [s.start ?? 0, s.end ?? 0] }));
    return chunks.length > 0 ? { text, chunks } : { text };
  },
};

/** `POST /{providerId}` (not queued): `{text: inputs, ...parameters}`; the answer `{audio: {url}}`, fetched. */
export const falAiTextToSpeech: ProviderTask = {
  path: (id) => id,
  body(args) {
    const body = { ...fields(args), text: needString(args.inputs, "inputs") };
    return () => body;
  },
  answer: (value, _options, secret, io) =>
    io.file(urlIn("Text-to-Speech", "{ audio: { url: string } }", value, secret, (v) => get(v, "audio", "url"))),
};

/** `{prompt: inputs, ...parameters}`; the result's first image (`{images: [{url}]}`) fetched unless `outputType` is `"url"` or `"json"`. */
export const falAiTextToImage = /* @__PURE__ */ inQueue(
  "text-to-image",
  /* @__PURE__ */ prompted(true),
  (result, options, secret, io) =>
    imageAt(urlIn("text-to-image", IMAGES, result, secret, firstImage), result, options, io),
);

/** `{...parameters, image_url, image_urls: [image_url]}` (the image as a data URL; some fal apps read the list); the first image fetched. */
const imageToImageBody = /* @__PURE__ */ imaged((url) => ({ image_url: url, image_urls: [url] }));
export const falAiImageToImage = /* @__PURE__ */ inQueue(
  "image-to-image",
  imageToImageBody,
  /* @__PURE__ */ fileAt("image-to-image", IMAGES, firstImage),
);

/** As image-to-image with an image; without one, `{...parameters}` (the prompt in them) to the same app. */
export const falAiImageTextToImage = /* @__PURE__ */ inQueue(
  "image-text-to-image",
  /* @__PURE__ */ imageOrText(imageToImageBody),
  /* @__PURE__ */ fileAt("image-text-to-image", IMAGES, firstImage),
);

/** `{prompt: inputs, ...parameters}`; the result's `{video: {url}}` fetched. */
export const falAiTextToVideo = /* @__PURE__ */ inQueue(
  "text-to-video",
  /* @__PURE__ */ prompted(false),
  /* @__PURE__ */ fileAt("text-to-video", VIDEO, video),
);

/** `{...parameters, image_url}` (the image as a data URL); the result's video fetched. */
const imageToVideoBody = /* @__PURE__ */ imaged((url) => ({ image_url: url }));
export const falAiImageToVideo = /* @__PURE__ */ inQueue(
  "image-to-video",
  imageToVideoBody,
  /* @__PURE__ */ fileAt("image-to-video", VIDEO, video),
);

/** As image-to-video with an image; without one, `{...parameters}` (the prompt in them). */
export const falAiImageTextToVideo = /* @__PURE__ */ inQueue(
  "image-text-to-video",
  /* @__PURE__ */ imageOrText(imageToVideoBody),
  /* @__PURE__ */ fileAt("image-text-to-video", VIDEO, video),
);

/** `{prompt: inputs, ...parameters}`; the result's `{audio_file: {url}}` (or `{audio: {url}}`) fetched. */
export const falAiTextToAudio = /* @__PURE__ */ inQueue(
  "text-to-audio",
  (args) => {
    const body = { ...fields(args), prompt: needString(args.inputs, "inputs") };
    return () => body;
  },
  /* @__PURE__ */ fileAt("text-to-audio", "{ audio_file: { url: string } } or { audio: { url: string } }", (v) =>
    get(get(v, "audio_file") ?? get(v, "audio"), "url"),
  ),
);

/** `{...parameters, audio_url: data URL}`; the result's `{audio: {url, content_type}, text}` as one base64 audio labelled by its text. */
export const falAiAudioToAudio = /* @__PURE__ */ inQueue(
  "audio-to-audio",
  (args) => {
    const audio = audioInput(
      args,
      `Expected a Blob input for audio-to-audio with provider fal-ai, got ${typeof (args.data ?? args.inputs)}.`,
    );
    const body = fields(args);
    delete body.data;
    return async () => ({ ...body, audio_url: await audio() });
  },
  async (result, _options, secret, io) => {
    const blob = await io.file(
      urlIn("audio-to-audio", "{ audio: { url: string } }", result, secret, (v) => get(v, "audio", "url")),
    );
    const type = get(result, "audio", "content_type");
    const text = get(result, "text");
    const label = typeof text === "string" && text.length > 0 ? text : "speech";
    return [
      {
        blob: base64(new Uint8Array(await blob.arrayBuffer())),
        "content-type": typeof type === "string" ? type : blob.type || "audio/wav",
        label,
      },
    ];
  },
);

/** `{...parameters, image_url: data URL, sync_mode: true}`; the result's `{image: {url}}` (the mask) as one segment, labelled `mask`, score 1 (fal gives neither). */
export const falAiImageSegmentation = /* @__PURE__ */ inQueue(
  "image-segmentation",
  (args) => {
    const body = fields(args);
    const url = imageInput(args.inputs);
    return async () => ({ ...body, image_url: await url(), sync_mode: true });
  },
  async (result, _options, secret, io) => {
    const mask = await io.file(
      urlIn("image-segmentation", "{ image: { url: string } }", result, secret, (v) => get(v, "image", "url")),
    );
    return [{ label: "mask", score: 1, mask: base64(new Uint8Array(await mask.arrayBuffer())) }];
  },
);
