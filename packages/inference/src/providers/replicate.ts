/** Replicate (`https://router.huggingface.co/replicate/...`): text-to-image, as 4.13's `ReplicateTextToImageTask` (synchronous: `Prefer: wait`). */
import { malformed } from "../tasks/taskAnswers";
import { checkParameters, needString } from "../tasks/taskInputs";
import type { ProviderTask } from "./helper";
import { imageAt, restOf } from "./helper";

/** `{owner}/{name}:{version}` posts to `v1/predictions` with the version; else to the model's own predictions. */
export const replicateTextToImage: ProviderTask = {
  path: (id) => (id.includes(":") ? "v1/predictions" : `v1/models/${id}/predictions`),
  headers: { Prefer: "wait" },
  body(args) {
    const input = { ...restOf(args), ...checkParameters(args.parameters), prompt: needString(args.inputs, "inputs") };
    return (id) => (id.includes(":") ? { input, version: id.split(":")[1] } : { input });
  },
  /** `output`: a URL or a list of them (the first taken); fetched unless `outputType` is `"url"` or `"json"`. */
  async answer(value, options, secret, io) {
    const output = (value as { output?: unknown } | null)?.output;
    const url: unknown = Array.isArray(output) ? (output as unknown[])[0] : output;
    if (typeof url !== "string" || !/^https?:\/\//.test(url)) throw malformed("Replicate text-to-image", "{output: url | url[]}", value, secret);
    return imageAt(url, value as object, options, io);
  },
};
