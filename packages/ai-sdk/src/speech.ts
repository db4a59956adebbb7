/** The AI SDK speech model over `textToSpeech` (hf-inference's pipelines, fal, Replicate, …). */
import { textToSpeech } from "@hfkit/inference";
import { extraBodyOf } from "./call";
import { modelWarningsFor } from "./spec/adapt";
import { InvalidArgumentError } from "./spec/errors";
import type { BaseCallOptions, ModelResponse, ModelWarningOf, SpecVersion, Warning } from "./spec/types";
import { bytesOf, HfkitTaskModel } from "./task";

/** What `doGenerate` takes. */
export interface SpeechCallOptions extends BaseCallOptions {
  text: string;
  voice?: string;
  outputFormat?: string;
  instructions?: string;
  speed?: number;
  language?: string;
}

/** What `doGenerate` answers in version V. */
export interface SpeechResult<V extends SpecVersion> {
  audio: Uint8Array;
  warnings: Array<ModelWarningOf<V>>;
  response: ModelResponse;
}

/** The options the task has no field for: warned about, not sent (a provider's own go in `providerOptions.hfkit.extraBody`). */
const UNSENT = ["voice", "outputFormat", "instructions", "speed", "language"] as const;

/** A text-to-speech model (`generateSpeech`; `experimental_generateSpeech` in `ai` 5 and 6). */
export class HfkitSpeechModel<V extends SpecVersion = SpecVersion> extends HfkitTaskModel<V> {
  async doGenerate(options: SpeechCallOptions): Promise<SpeechResult<V>> {
    if (typeof options.text !== "string" || options.text === "")
      throw new InvalidArgumentError({ argument: "text", message: "text must be a non-empty text" });
    const warnings: Warning[] = UNSENT.filter((key) => options[key] !== undefined).map((feature) => ({
      type: "unsupported",
      feature,
      details: "Pass the model's own parameter in providerOptions.hfkit.extraBody.",
    }));
    const parameters = extraBodyOf(options);
    const body = { inputs: options.text, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
    const { value, response } = await this.run(this.config.settings, options, body, async (accessToken, sdk) =>
      bytesOf(await textToSpeech({ model: this.modelId, accessToken, ...body }, sdk)),
    );
    return { audio: value, warnings: modelWarningsFor(this.specificationVersion, warnings), response };
  }
}
