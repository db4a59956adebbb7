/** Together (`https://router.huggingface.co/together/...`): text-to-image, as 4.13's `TogetherTextToImageTask`. */
import { asOutput } from "../tasks/imageOutput";
import { checkParameters, needString } from "../tasks/taskInputs";
import type { OutputType } from "../types";
import type { ProviderTask } from "./helper";
import { restOf } from "./helper";

/** `POST /v1/images/generations`: `{prompt, response_format, model, ...parameters}` (`num_inference_steps` sent as `steps`). */
export const togetherTextToImage: ProviderTask = {
  path: () => "v1/images/generations",
  body(args, options) {
    const prompt = needString(args.inputs, "inputs");
    const { num_inference_steps: steps, ...parameters } = checkParameters(args.parameters) ?? {};
    const body = { ...restOf(args), ...parameters, ...(steps === undefined ? {} : { steps }), prompt, response_format: options.outputType === "url" ? "url" : "base64" };
    return (model) => ({ ...body, model });
  },
  answer(value, options, secret) {
    const outputType = options.outputType as OutputType | undefined;
    const url = (value as { data?: { url?: unknown }[] } | null)?.data?.[0]?.url;
    if (outputType !== "json" && typeof url === "string") return url;
    return asOutput("Together text-to-image", value, outputType, secret);
  },
};
