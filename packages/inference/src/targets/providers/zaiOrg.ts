/**
 * Z.ai (`https://router.huggingface.co/zai-org/api/paas/v4/...`): text-to-image (an async task, polled) and
 * image-to-text (layout parsing), as 4.13's `ZaiTextToImageTask` and `ZaiImageToTextTask`.
 */
import { InputError } from "../../core/errors";
import { InferenceClientProviderOutputError } from "../../core/hfErrors";
import { isRecord, malformed } from "../../checks/answers";
import { base64, binaryField, checkParameters, needBinary, needString } from "../../checks/inputs";
import type { ProviderTask } from "./helper";
import { get, imageAt, restOf } from "./helper";

/** Every Z.ai request names its channel and language, as 4.13 sends them. */
const HEADERS = { "x-source-channel": "hugging_face", "accept-language": "en-US,en" } as const;

/** The async result is asked for every 5 s (as 4.13), at most this many times (5 minutes). */
const MAX_POLLS = 60;
const OUTPUT_TYPES: readonly unknown[] = [undefined, "blob", "dataUrl", "json", "url"];

/** `POST /api/paas/v4/async/images/generations`: `{model, prompt, ...parameters}`; the task polled at `GET /api/paas/v4/async-result/{id}` until `SUCCESS`, its first image as `outputType` asks. */
export const zaiOrgTextToImage: ProviderTask = {
  path: () => "api/paas/v4/async/images/generations",
  submits: true,
  headers: HEADERS,
  body(args, options) {
    if (!OUTPUT_TYPES.includes(options.outputType))
      throw new InputError(
        `\`outputType\` must be "blob", "dataUrl", "json" or "url" (got ${JSON.stringify(options.outputType)})`,
        "outputType",
      );
    const body = { ...restOf(args), ...checkParameters(args.parameters), prompt: needString(args.inputs, "inputs") };
    return (model) => ({ ...body, model });
  },
  async answer(value, options, secret, io) {
    if (!isRecord(value) || !("task_status" in value) || typeof value.id !== "string" || value.id === "") {
      throw malformed("ZAI text-to-image", "{ id: string, task_status: string }", value, secret);
    }
    if (value.task_status === "FAIL")
      throw new InferenceClientProviderOutputError("ZAI API returned task status: FAIL");
    for (let polls = 0; polls < MAX_POLLS; polls++) {
      await io.sleep(5000);
      const result = await io.json(io.route(`api/paas/v4/async-result/${encodeURIComponent(value.id)}`));
      if (!isRecord(result))
        throw malformed("ZAI text-to-image", "a task result ({ task_status, image_result? })", result, secret);
      if (result.task_status === "FAIL")
        throw new InferenceClientProviderOutputError("ZAI text-to-image API task failed");
      if (result.task_status !== "SUCCESS") continue;
      const url = get(result.image_result, 0, "url");
      if (!Array.isArray(result.image_result) || typeof url !== "string" || !/^https?:\/\//i.test(url)) {
        throw malformed("ZAI text-to-image", "{ image_result: Array<{ url: string }> }", result, secret);
      }
      return imageAt(url, result, options, io);
    }
    throw new InferenceClientProviderOutputError(
      `Timed out while waiting for the result from ZAI API - aborting after ${MAX_POLLS} attempts`,
    );
  },
};

/** `POST /api/paas/v4/layout_parsing`: `{model, file: data URL}` (nothing else is sent); the answer's `md_results` as the caption. */
export const zaiOrgImageToText: ProviderTask = {
  path: () => "api/paas/v4/layout_parsing",
  headers: HEADERS,
  body(args) {
    const field = binaryField(args);
    if (typeof args[field] === "string")
      throw new InputError(
        `ZAI image-to-text: \`${field}\` must be a Blob or an ArrayBuffer (hfkit does not fetch an image URL: fetch it and pass the Blob)`,
        field,
      );
    const image = needBinary(args[field], field);
    const type = (image instanceof Blob && image.type) || "image/png";
    return async (model) => ({
      model,
      file: `data:${type};base64,${base64(new Uint8Array(image instanceof Blob ? await image.arrayBuffer() : image))}`,
    });
  },
  answer(value, _options, secret) {
    const text = isRecord(value) ? value.md_results : undefined;
    if (typeof text !== "string") throw malformed("ZAI layout_parsing", "{ md_results: string }", value, secret);
    return { generated_text: text, generatedText: text };
  },
};
