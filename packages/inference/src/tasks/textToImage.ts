import { InputError } from "../errors";
import type { Options, OutputType, TextToImageArgs, TextToImageOptions } from "../types";
import { runTask } from "./runTask";
import { malformed } from "./taskAnswers";
import { base64, textBody } from "./taskInputs";

const TASK = "text-to-image";
const OUTPUT_TYPES: readonly unknown[] = [undefined, "blob", "dataUrl", "json"];

type Image = Blob | string | Record<string, unknown>;

/** A `data:` URL of an image answered as bytes. */
async function dataUrl(blob: Blob): Promise<string> {
  return `data:${blob.type || "image/jpeg"};base64,${base64(new Uint8Array(await blob.arrayBuffer()))}`;
}

/** The answer as asked: a Blob (default), a `data:` URL, or JSON. A base64 JSON answer is decoded; a URL in an answer is never fetched. */
async function asOutput(value: unknown, outputType: OutputType | undefined, secret: string | undefined): Promise<Image> {
  if (value instanceof Blob) {
    if (outputType === "dataUrl") return dataUrl(value);
    return outputType === "json" ? { output: await dataUrl(value) } : value;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    if (outputType === "json") return { ...value };
    const b64 = (value as { data?: { b64_json?: unknown }[] }).data?.[0]?.b64_json;
    if (typeof b64 === "string" && /^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
      if (outputType === "dataUrl") return `data:image/jpeg;base64,${b64}`;
      return new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: "image/jpeg" });
    }
  }
  throw malformed(TASK, "an image (a binary body, or {data: [{b64_json}]})", value, secret);
}

/** Makes an image from a prompt, as a `Blob` (unless `outputType` asks for a `data:` URL or JSON). */
export function textToImage(args: TextToImageArgs, options?: Options & TextToImageOptions & { outputType?: undefined | "blob" }): Promise<Blob>;
/** Makes an image from a prompt, as a `data:` URL (`"url"` is refused on hf-inference). */
export function textToImage(args: TextToImageArgs, options: Options & TextToImageOptions & { outputType: "dataUrl" | "url" }): Promise<string>;
/** Makes an image from a prompt, as JSON (`{output: dataUrl}` for an image answered as bytes). */
export function textToImage(args: TextToImageArgs, options: Options & TextToImageOptions & { outputType: "json" }): Promise<Record<string, unknown>>;
export function textToImage(args: TextToImageArgs, options: Options & TextToImageOptions = {}): Promise<Image> {
  const { outputType } = options ?? {};
  const body = (a: TextToImageArgs) => {
    if (outputType === "url") throw new InputError("hf-inference provider does not support URL output. Use outputType 'blob', 'dataUrl' or 'json' instead.", "outputType");
    if (!OUTPUT_TYPES.includes(outputType)) throw new InputError(`\`outputType\` must be "blob", "dataUrl" or "json" (got ${JSON.stringify(outputType)})`, "outputType");
    return textBody(a);
  };
  return runTask({ task: TASK, body, answer: (value, secret) => asOutput(value, outputType, secret) }, args, options);
}
