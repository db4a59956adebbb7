/** Nscale (`https://router.huggingface.co/nscale/...`): text-to-image, as 4.13's `NscaleTextToImageTask`. */
import { InputError } from "../../core/errors";
import { asOutput } from "../../checks/images";
import { malformed } from "../../checks/answers";
import { checkParameters, needString } from "../../checks/inputs";
import type { ProviderTask } from "./helper";
import { get, restOf } from "./helper";

const OUTPUT_TYPES: readonly unknown[] = [undefined, "blob", "dataUrl", "json"];

/** `POST /v1/images/generations`: `{prompt, response_format: "b64_json", model, ...parameters}`; the image answered base64 only (no `"url"` output). */
export const nscaleTextToImage: ProviderTask = {
  path: () => "v1/images/generations",
  body(args, options) {
    if (options.outputType === "url")
      throw new InputError(
        "nscale provider does not support URL output. Use outputType 'blob', 'dataUrl' or 'json' instead.",
        "outputType",
      );
    if (!OUTPUT_TYPES.includes(options.outputType))
      throw new InputError(
        `\`outputType\` must be "blob", "dataUrl" or "json" (got ${JSON.stringify(options.outputType)})`,
        "outputType",
      );
    const body = {
      ...restOf(args),
      ...checkParameters(args.parameters),
      response_format: "b64_json",
      prompt: needString(args.inputs, "inputs"),
    };
    return (model) => ({ ...body, model });
  },
  answer(value, options, secret) {
    const b64 = get(value, "data", 0, "b64_json");
    if (typeof b64 !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64))
      throw malformed("Nscale text-to-image", "{ data: Array<{ b64_json: string }> }", value, secret);
    return asOutput("Nscale text-to-image", value, options.outputType, secret);
  },
};
