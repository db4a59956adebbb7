/** The AI SDK transcription model over `automaticSpeechRecognition` (Whisper on hf-inference, fal, …). */
import { automaticSpeechRecognition } from "@hfkit/inference";
import { modelWarningsFor } from "./spec/adapt";
import type { BaseCallOptions, ModelResponse, ModelWarningOf, SpecVersion } from "./spec/types";
import { HfkitTaskModel } from "./task";

/** What `doGenerate` answers in version V. */
export interface TranscriptionResult<V extends SpecVersion> {
  text: string;
  segments: Array<{ text: string; startSecond: number; endSecond: number }>;
  language: string | undefined;
  durationInSeconds: number | undefined;
  warnings: Array<ModelWarningOf<V>>;
  response: ModelResponse & { body: unknown };
}

/** A speech-to-text model (`transcribe`; `experimental_transcribe` in `ai` 5 and 6). */
export class HfkitTranscriptionModel<V extends SpecVersion = SpecVersion> extends HfkitTaskModel<V> {
  async doGenerate(
    options: BaseCallOptions & { audio: Uint8Array | string; mediaType: string },
  ): Promise<TranscriptionResult<V>> {
    const bytes =
      typeof options.audio === "string" ? Uint8Array.from(atob(options.audio), (c) => c.charCodeAt(0)) : options.audio;
    const inputs = new Blob([bytes.slice()], { type: options.mediaType });
    const sent = { inputs: `(${bytes.length} bytes of ${options.mediaType})` };
    const { value, response } = await this.run(this.config.settings, options, sent, (accessToken, sdk) =>
      automaticSpeechRecognition({ model: this.modelId, accessToken, inputs }, sdk),
    );
    const segments = (value.chunks ?? []).map((chunk) => ({
      text: chunk.text,
      startSecond: chunk.timestamp[0] ?? 0,
      endSecond: chunk.timestamp[1] ?? chunk.timestamp[0] ?? 0,
    }));
    return {
      text: value.text,
      segments,
      language: undefined,
      durationInSeconds: segments.at(-1)?.endSecond,
      warnings: modelWarningsFor(this.specificationVersion, []),
      response: { ...response, body: value },
    };
  }
}
