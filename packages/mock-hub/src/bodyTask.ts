import { isRecord, parseJson } from "./http.js";

/**
 * The task a request to `POST /models/{id}` asks of a model the hub does not know, told by its body as the
 * real pipelines would read it: audio bytes are speech to transcribe, other bytes an image to classify,
 * `{question, context}` a question to answer, … Undefined for `{inputs: text}` or messages: text generation.
 */
export function taskOfBody(text: string): string | undefined {
  if (text.length === 0) return undefined;
  const body = parseJson(text);
  if (body === undefined) return isAudio(text) ? "automatic-speech-recognition" : "image-classification";
  if (!isRecord(body)) return undefined;
  const inputs = body.inputs;
  const parameters = isRecord(body.parameters) ? body.parameters : {};
  if (isRecord(inputs)) return INPUT_KEYS.find(([key]) => key in inputs)?.[1];
  if (Array.isArray(parameters.candidate_labels)) return "zero-shot-classification";
  if (typeof inputs === "string" && /\[MASK\]|<mask>/.test(inputs)) return "fill-mask";
  return undefined;
}

/** A field of an `inputs` object, and the task whose input has it. */
const INPUT_KEYS: readonly (readonly [string, string])[] = [
  ["source_sentence", "sentence-similarity"],
  ["table", "table-question-answering"],
  ["data", "tabular-classification"],
  ["image", "visual-question-answering"],
  ["context", "question-answering"],
];

/** WAV, FLAC, Ogg or an MP3 with its ID3 header: the audio pipelines' input. */
function isAudio(text: string): boolean {
  return /^(RIFF....WAVE|fLaC|OggS|ID3)/s.test(text);
}
