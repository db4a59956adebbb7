/**
 * Replicate (`https://router.huggingface.co/replicate/...`): its predictions API, synchronous (`Prefer: wait`), for
 * text-to-image, text-to-speech, text-to-video, image-to-image and automatic-speech-recognition, as 4.13's
 * `Replicate*Task` helpers send them: one shape, `{input: {...args, ...parameters, <the task's fields>}, version?}`.
 */
import { InferenceError } from "../../core/errors";
import { InferenceClientProviderOutputError } from "../../core/hfErrors";
import { serverText } from "../../core/redact";
import { malformed } from "../../checks/answers";
import { base64, binaryField, checkParameters, needBinary, needString } from "../../checks/inputs";
import type { JsonObject } from "../../core/json";
import type { ProviderArgs, ProviderIo, ProviderTask } from "./helper";
import { get, imageAt, restOf } from "./helper";

/** A binary input as a `data:` URL (`fallback` its type when it has none), read when the request is made. */
export function dataUrlOf(value: Blob | ArrayBuffer, fallback: string): () => Promise<string> {
  return async () => {
    const bytes = new Uint8Array(value instanceof ArrayBuffer ? value : await value.arrayBuffer());
    return `data:${(value instanceof Blob && value.type) || fallback};base64,${base64(bytes)}`;
  };
}

/** The LoRA fields of a Hub mapping entry (when one is given to the body maker). */
export function loraOf(entry: unknown, model: unknown): { adapter: boolean; weights: boolean; hfModelId: string } {
  const lora = get(entry, "adapter") === "lora";
  const hfModelId = get(entry, "hfModelId");
  return {
    adapter: lora,
    weights: lora && !!get(entry, "adapterWeightsPath"),
    hfModelId: typeof hfModelId === "string" ? hfModelId : String(model),
  };
}

/**
 * A Replicate pair: `fields` checks the call's own input (an InputError before any request) and gives what ends
 * the `input` (from the arguments and parameters spread before it); `lora`: a LoRA mapping adds `lora_weights`.
 */
function predictions(
  fields: (args: ProviderArgs) => (input: JsonObject) => JsonObject | Promise<JsonObject>,
  answer: ProviderTask["answer"],
  lora = false,
): ProviderTask {
  return {
    path: (id) => (id.includes(":") ? "v1/predictions" : `v1/models/${id}/predictions`),
    headers: { Prefer: "wait" },
    submits: true,
    body(args) {
      const parameters = checkParameters(args.parameters);
      const finish = fields(args);
      const rest = restOf(args);
      delete rest.data;
      return async (id: string, entry?: unknown) => {
        const input = await finish({ ...rest, ...parameters });
        const adapter = loraOf(entry, args.model);
        if (lora && adapter.weights) input.lora_weights = `https://huggingface.co/${adapter.hfModelId}`;
        return id.includes(":") ? { input, version: id.split(":")[1] } : { input };
      };
    },
    answer: async (value, options, secret, io) => answer(await settled(value, secret, io), options, secret, io),
  };
}

/** A prediction still running after `Prefer: wait` (Replicate waits up to 60 s) is polled every second, at most this many times (10 minutes). */
const MAX_POLLS = 600;

/**
 * The prediction once it has ended: as answered when it has (or is not a prediction: a file), else polled at
 * its `urls.get` (through the router, or Replicate's own API for its own key) until it succeeds; a failed or
 * canceled one is an InferenceClientProviderOutputError with its error. 4.13 reads the first answer only.
 */
async function settled(value: unknown, secret: string | undefined, io: ProviderIo): Promise<unknown> {
  let prediction = value;
  const poll = get(value, "urls", "get");
  for (let polls = 0; ; polls++) {
    const status = get(prediction, "status");
    if (status === "failed" || status === "canceled") {
      const error = get(prediction, "error");
      const why = typeof error === "string" && error ? `: ${serverText(error, secret, 500)}` : "";
      throw new InferenceClientProviderOutputError(
        `Replicate prediction ${serverText(get(prediction, "id"), secret)} ${status}${why}`,
      );
    }
    if ((status !== "starting" && status !== "processing") || typeof poll !== "string" || !/^https?:\/\//i.test(poll))
      return prediction;
    if (polls >= MAX_POLLS)
      throw new InferenceError(
        `Replicate's prediction ${serverText(get(prediction, "id"), secret)} did not end in ${MAX_POLLS} s (last status ${status})`,
      );
    await io.sleep(1000);
    prediction = await io.json(io.route(new URL(poll).pathname));
  }
}

/** The file a prediction's `output` names: a URL, or a list of them (the first taken). */
function outputUrl(task: string, value: unknown, secret: string | undefined): string {
  const output = get(value, "output");
  const url = Array.isArray(output) ? get(output, 0) : output;
  if (typeof url !== "string" || !/^https?:\/\//i.test(url))
    throw malformed(`Replicate ${task}`, "{output: url | url[]}", value, secret);
  return url;
}

/** A media answer: the file the output names, fetched (without the token) as a Blob. */
const fileAnswer =
  (task: string): ProviderTask["answer"] =>
  (value, _options, secret, io) =>
    io.file(outputUrl(task, value, secret));

/** `{input: {..., prompt}}`; the output's image fetched unless `outputType` is `"url"` or `"json"`. */
export const replicateTextToImage: ProviderTask = /* @__PURE__ */ predictions(
  (args) => {
    const prompt = needString(args.inputs, "inputs");
    return (input) => ({ ...input, prompt });
  },
  (value, options, secret, io) => imageAt(outputUrl("text-to-image", value, secret), value, options, io),
  true,
);

/** `{input: {..., text}}` (no `prompt`); the audio the output names, or the answer itself when it is binary. */
export const replicateTextToSpeech: ProviderTask = /* @__PURE__ */ predictions(
  (args) => {
    const text = needString(args.inputs, "inputs");
    return ({ prompt: _prompt, ...input }) => ({ ...input, text });
  },
  (value, options, secret, io) =>
    value instanceof Blob ? value : fileAnswer("text-to-speech")(value, options, secret, io),
);

/** `{input: {..., prompt}}`; the video the output names. */
export const replicateTextToVideo: ProviderTask = /* @__PURE__ */ predictions((args) => {
  const prompt = needString(args.inputs, "inputs");
  return (input) => ({ ...input, prompt });
}, /* @__PURE__ */ fileAnswer("text-to-video"));

/** The image as a `data:` URL under each key Replicate's models read it from; the image the output names. */
export const replicateImageToImage: ProviderTask = /* @__PURE__ */ predictions(
  (args) => {
    const image = dataUrlOf(needBinary(args.inputs, "inputs"), "image/jpeg");
    return async (input) => {
      const url = await image();
      return { ...input, image: url, images: [url], input_image: url, input_images: [url] };
    };
  },
  /* @__PURE__ */ fileAnswer("image-to-image"),
  true,
);

/** The audio (`inputs`, or the older `data`) as a `data:` URL in `audio`; the text: the output, its first element, or its `transcription`, `translation` or `txt_file`. */
export const replicateAutomaticSpeechRecognition: ProviderTask = /* @__PURE__ */ predictions(
  (args) => {
    const field = binaryField(args);
    const audio = dataUrlOf(needBinary(args[field], field), "audio/wav");
    return async (input) => ({ ...input, audio: await audio() });
  },
  (value, _options, secret, io) => transcription(value, secret, io),
);

async function transcription(value: unknown, secret: string | undefined, io: ProviderIo): Promise<{ text: string }> {
  const output = get(value, "output");
  const first = Array.isArray(output) ? get(output, 0) : output;
  if (typeof first === "string") return { text: first };
  const transcribed = get(output, "transcription");
  if (typeof transcribed === "string") return { text: transcribed };
  const translated = get(output, "translation");
  if (typeof translated === "string") return { text: translated };
  const file = get(output, "txt_file");
  if (typeof file === "string" && /^https?:\/\//i.test(file)) return { text: await (await io.file(file)).text() };
  throw malformed(
    "Replicate automatic-speech-recognition",
    "{output: string | string[] | {transcription | translation | txt_file}}",
    value,
    secret,
  );
}
