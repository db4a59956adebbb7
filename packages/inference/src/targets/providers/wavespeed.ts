/**
 * WaveSpeedAI (`https://router.huggingface.co/wavespeed/api/v3/{providerId}`): text-to-image, text-to-video,
 * image-to-image, image-to-video, image-text-to-image and image-text-to-video, as 4.13's `WavespeedAI*Task`
 * helpers call it: a task submitted, its result polled (`data.urls.get`, through the router), its first output fetched.
 */
import { InferenceError } from "../../core/errors";
import { InferenceClientProviderOutputError } from "../../core/hfErrors";
import { serverText } from "../../core/redact";
import { malformed } from "../../checks/answers";
import { base64, checkParameters, needBinary, needString } from "../../checks/inputs";
import { isRecord, type JsonObject } from "../../core/json";
import type { ProviderIo, ProviderOptions, ProviderTask } from "./helper";
import { get, imageAt, restOf } from "./helper";
import { loraOf } from "./replicate";

/** A 1×1 transparent PNG: the image sent (as 4.13) when an image-text task is given none. */
const TRANSPARENT_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** The result is polled every 500 ms (as 4.13) after a first immediate look, at most this many times (10 minutes). */
const MAX_POLLS = 1200;

/** Which image a task takes: none (the prompt is `inputs`), one (`inputs`), or one that defaults to a transparent pixel. */
type ImageInput = "none" | "required" | "optional";

/**
 * The body: the call's fields and `parameters` (but `images`), `prompt` last (`inputs`, or `parameters.prompt` for
 * the image tasks, which send the image base64-encoded as `image` and in `images` unless a list of strings is given).
 */
function submit(image: ImageInput, outputType: boolean): ProviderTask {
  return {
    path: (id) => `api/v3/${id}`,
    submits: true,
    body(args) {
      const { images: givenImages, ...parameters } = checkParameters(args.parameters) ?? {};
      const rest = restOf(args);
      let prompt: unknown;
      let picture: (() => Promise<JsonObject>) | undefined;
      if (image === "none") prompt = needString(args.inputs, "inputs");
      else {
        prompt = parameters.prompt;
        if (prompt !== undefined) needString(prompt, "parameters.prompt");
        const blob = image === "optional" && args.inputs === undefined ? undefined : needBinary(args.inputs, "inputs");
        const listed = rest.images ?? givenImages;
        const images = Array.isArray(listed) && listed.every((v) => typeof v === "string") ? listed : undefined;
        picture = async () => {
          const base =
            blob === undefined
              ? TRANSPARENT_PNG
              : base64(new Uint8Array(blob instanceof ArrayBuffer ? blob : await blob.arrayBuffer()));
          return { image: base, images: images ?? [base] };
        };
      }
      return async (_id: string, entry?: unknown) => {
        const body: JsonObject = { ...rest, ...(picture ? await picture() : {}), ...parameters, prompt };
        const adapter = loraOf(entry, args.model);
        if (adapter.adapter) body.loras = [{ path: adapter.hfModelId, scale: 1 }];
        return body;
      };
    },
    answer: (value, options, secret, io) => result(value, outputType ? options : {}, secret, io),
  };
}

/** Polls the submitted task (`{data: {urls: {get}}}`) until it completes (its first output as asked) or fails. */
async function result(
  value: unknown,
  options: ProviderOptions,
  secret: string | undefined,
  io: ProviderIo,
): Promise<unknown> {
  const at = get(value, "data", "urls", "get");
  let path: string | undefined;
  try {
    if (typeof at === "string") path = new URL(at).pathname;
  } catch {
    // Not a URL: malformed below.
  }
  if (path === undefined) throw malformed("WaveSpeed AI", "{data: {urls: {get: url}}}", value, secret);
  for (let polls = 0, status: unknown = undefined; ; polls++) {
    if (polls >= MAX_POLLS)
      throw new InferenceError(
        `WaveSpeed AI's task did not complete in ${MAX_POLLS / 2} s (last status ${serverText(status, secret)})`,
      );
    if (polls > 0) await io.sleep(500);
    const polled = await io.json(io.route(path));
    const task = get(polled, "data");
    if (!isRecord(task) || typeof task.status !== "string")
      throw malformed("WaveSpeed AI", "{data: {status, outputs}}", polled, secret);
    status = task.status;
    if (status === "failed")
      throw new InferenceClientProviderOutputError(
        typeof task.error === "string" && task.error ? serverText(task.error, secret, 500) : "Task failed",
      );
    if (status !== "completed") continue;
    const url = Array.isArray(task.outputs) ? get(task.outputs, 0) : undefined;
    if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
      throw new InferenceClientProviderOutputError(
        "Received malformed response from WaveSpeed AI API: No output URL in completed response",
      );
    }
    return imageAt(url, polled, options, io);
  }
}

/** `inputs`: the prompt; the image as `outputType` asks (a Blob by default, its URL, a `data:` URL, or the polled JSON). */
export const wavespeedTextToImage = /* @__PURE__ */ submit("none", true);
/** `inputs`: the prompt; the video as a Blob. */
export const wavespeedTextToVideo = /* @__PURE__ */ submit("none", false);
/** `inputs`: the image, `parameters.prompt` the prompt; the image as a Blob. */
export const wavespeedImageToImage = /* @__PURE__ */ submit("required", false);
/** `inputs`: the image, `parameters.prompt` the prompt; the video as a Blob. */
export const wavespeedImageToVideo = /* @__PURE__ */ submit("required", false);
/** As image-to-image, the image optional (a transparent pixel without one). */
export const wavespeedImageTextToImage = /* @__PURE__ */ submit("optional", false);
/** As image-to-video, the image optional (a transparent pixel without one). */
export const wavespeedImageTextToVideo = /* @__PURE__ */ submit("optional", false);
