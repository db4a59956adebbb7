import { InputError } from "../errors";
import type { Options, TextToImageArgs, TextToImageOptions } from "../types";
import { asOutput, type Image } from "./imageOutput";
import { runTask } from "./runTask";
import { textBody } from "./taskInputs";

const TASK = "text-to-image";
const OUTPUT_TYPES: readonly unknown[] = [undefined, "blob", "dataUrl", "json"];

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
  return runTask({ task: TASK, body, answer: (value, secret) => asOutput(TASK, value, outputType, secret) }, args, options);
}
