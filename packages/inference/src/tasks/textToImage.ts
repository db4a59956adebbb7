import { InputError } from "../core/errors";
import type { Options, TextToImageArgs, TextToImageOptions } from "../types";
import { asOutput, type Image } from "../checks/images";
import { runTask } from "./run";
import { checkText, textBody } from "../checks/inputs";

const TASK = "text-to-image";
const OUTPUT_TYPES: readonly unknown[] = [undefined, "blob", "dataUrl", "json", "url"];

/** On every target: the prompt, the parameters, and an `outputType` of the four. */
function check(args: TextToImageArgs, options: Options & TextToImageOptions): void {
  checkText(args);
  if (!OUTPUT_TYPES.includes(options.outputType))
    throw new InputError(
      `\`outputType\` must be "blob", "dataUrl", "json" or "url" (got ${JSON.stringify(options.outputType)})`,
      "outputType",
    );
}

/** Makes an image from a prompt, as a `Blob` (unless `outputType` asks for a `data:` URL or JSON). */
export function textToImage(
  args: TextToImageArgs,
  options?: Options & TextToImageOptions & { outputType?: undefined | "blob" },
): Promise<Blob>;
/** Makes an image from a prompt, as a `data:` URL (`"url"` is refused on hf-inference). */
export function textToImage(
  args: TextToImageArgs,
  options: Options & TextToImageOptions & { outputType: "dataUrl" | "url" },
): Promise<string>;
/** Makes an image from a prompt, as JSON (`{output: dataUrl}` for an image answered as bytes). */
export function textToImage(
  args: TextToImageArgs,
  options: Options & TextToImageOptions & { outputType: "json" },
): Promise<Record<string, unknown>>;
export function textToImage(args: TextToImageArgs, options: Options & TextToImageOptions = {}): Promise<Image> {
  const { outputType } = options ?? {};
  const body = (a: TextToImageArgs) => {
    if (outputType === "url")
      throw new InputError(
        "hf-inference provider does not support URL output. Use outputType 'blob', 'dataUrl' or 'json' instead.",
        "outputType",
      );
    return textBody(a);
  };
  return runTask(
    { task: TASK, check, body, answer: (value, secret) => asOutput(TASK, value, outputType, secret) },
    args,
    options,
  );
}
