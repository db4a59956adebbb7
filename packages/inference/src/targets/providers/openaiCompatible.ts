/**
 * The OpenAI-compatible formats several providers share, as 4.13's helpers send them: text completions
 * (`{prompt}` → `{choices: [{text}]}`), text generation on a chat route, embeddings (`{input}` →
 * `{data: [{embedding}]}`), speech, images, and the multipart upload of a transcription.
 */
import { InputError } from "../../core/errors";
import { isGreedy } from "../../checks/params";
import { validateGenerateInput } from "../../checks/generation";
import { asOutput } from "../../checks/images";
import { blobAnswer, isNumber, isRecord, malformed } from "../../checks/answers";
import { binaryField, checkParameters, needBinary, needString, needStrings } from "../../checks/inputs";
import type { JsonObject } from "../../core/json";
import type { TextGenerationInput, TextGenerationInputGenerateParameters } from "../../types";
import type { ProviderArgs, ProviderTask } from "./helper";
import { audioFileName, formBody, get, restOf } from "./helper";

/** The first choice of a completion, if the answer has one. */
const firstChoice = (value: unknown): JsonObject | undefined => {
  const choices = isRecord(value) ? value.choices : undefined;
  return Array.isArray(choices) && isRecord(choices[0]) ? choices[0] : undefined;
};

/**
 * The generation arguments checked (InputError before any request), and the rest of them to send; `stream` is the
 * call's own (ignored here, as documented).
 */
function generation(args: ProviderArgs): {
  rest: JsonObject;
  parameters: TextGenerationInputGenerateParameters | undefined;
} {
  // The check proves the type: `inputs` a string, `parameters` absent or an object whose fields it types.
  const checked = args as TextGenerationInput;
  validateGenerateInput(checked);
  const rest = restOf(args);
  delete rest.stream;
  return { rest, parameters: checked.parameters };
}

/** `parameters` as 4.13 maps them for completions: `max_new_tokens` sent as `max_tokens`, the rest as they are. */
function maxTokens(parameters: TextGenerationInputGenerateParameters | undefined): JsonObject {
  if (!parameters) return {};
  const { max_new_tokens, ...rest } = parameters;
  return max_new_tokens === undefined ? rest : { ...rest, max_tokens: max_new_tokens };
}

/**
 * Text generation on a completions route: `parameters` spread in, `max_new_tokens` sent as `max_tokens`
 * (4.13 nests them as `parameters` for Together and Scaleway, whose APIs do not read them there: a real
 * recorded Together exchange has them at the top). The answer's first choice is `generated_text`;
 * `details` adds its `finish_reason` and `seed` (4.13's Together).
 */
export function completionsTask(label: string, path: string, style: { details?: boolean } = {}): ProviderTask {
  return {
    path: () => path,
    body(args) {
      const { rest, parameters } = generation(args);
      const body = { ...rest, ...maxTokens(parameters) };
      return (model) => ({ ...body, prompt: args.inputs, model });
    },
    answer(value, _options, secret) {
      const choice = firstChoice(value);
      if (typeof choice?.text !== "string") throw malformed(label, "{choices: [{text: string}]}", value, secret);
      return style.details
        ? { generated_text: choice.text, details: { finish_reason: choice.finish_reason, seed: choice.seed } }
        : { generated_text: choice.text };
    },
  };
}

/** TGI's generation parameters in OpenAI's chat words; what has no counterpart is not sent. */
function chatParameters(p: TextGenerationInputGenerateParameters = {}): JsonObject {
  const out: JsonObject = {};
  if (p.max_new_tokens !== undefined) out.max_tokens = p.max_new_tokens;
  if (p.do_sample === false || isGreedy(p)) out.temperature = 0;
  else for (const k of ["temperature", "top_p"] as const) if (p[k] !== undefined) out[k] = p[k];
  for (const k of ["stop", "seed", "frequency_penalty"] as const) if (p[k] !== undefined) out[k] = p[k];
  return out;
}

/**
 * Text generation on a provider that serves only chat (4.13's Groq and Novita post to their chat route):
 * the prompt sent as one user message, the reply's content is `generated_text`.
 */
export function chatTextTask(label: string, path: string): ProviderTask {
  return {
    path: () => path,
    body(args) {
      const { rest, parameters } = generation(args);
      const body = { ...rest, ...chatParameters(parameters), messages: [{ role: "user", content: args.inputs }] };
      return (model) => ({ ...body, model });
    },
    answer(value, _options, secret) {
      const content = get(firstChoice(value), "message", "content");
      if (typeof content !== "string")
        throw malformed(label, "{choices: [{message: {content: string}}]}", value, secret);
      return { generated_text: content };
    },
  };
}

/** `inputs` to embed: a non-empty string or an array of strings. */
function embeddingInput(inputs: unknown): string | string[] {
  if (typeof inputs !== "string") return needStrings(inputs, "inputs");
  if (inputs === "") throw new InputError("`inputs` must be a non-empty string or an array of strings", "inputs");
  return inputs;
}

/** Embeddings: `{...args, ...parameters, input, model}` (only `{input, model}` with `bare`, as 4.13's Scaleway); the answer's vectors, one per input. */
export function embeddingsTask(label: string, path: string, bare = false): ProviderTask {
  return {
    path: () => path,
    body(args) {
      const input = embeddingInput(args.inputs);
      const parameters = checkParameters(args.parameters);
      const body = bare ? { input } : { ...restOf(args), ...parameters, input };
      return (model) => ({ ...body, model });
    },
    answer(value, _options, secret) {
      const data = isRecord(value) ? value.data : undefined;
      if (!Array.isArray(data) || !data.every(isEmbedding))
        throw malformed(label, "{data: [{embedding: number[]}]}", value, secret);
      return data.map((d) => d.embedding);
    },
  };
}

/** One input's embedding, as the answer lists it. */
const isEmbedding = (d: unknown): d is { embedding: number[] } =>
  isRecord(d) && Array.isArray(d.embedding) && d.embedding.every(isNumber);

/** Speech: `{...args, ...parameters, input, model}`; the answer is the audio. */
export function speechTask(label: string, path: string): ProviderTask {
  const answer = blobAnswer(label);
  return {
    path: () => path,
    body(args) {
      const body = { ...restOf(args), ...checkParameters(args.parameters), input: needString(args.inputs, "inputs") };
      return (model) => ({ ...body, model });
    },
    answer: (value, _options, secret) => answer(value, secret),
  };
}

/** Images: `{...args, ...parameters, response_format, prompt, model}`; the first image as `outputType` asks (a URL answered is returned as it is). */
export function imagesTask(label: string, path: string, base64Format: string): ProviderTask {
  return {
    path: () => path,
    body(args, options) {
      const body = {
        ...restOf(args),
        ...checkParameters(args.parameters),
        response_format: options.outputType === "url" ? "url" : base64Format,
        prompt: needString(args.inputs, "inputs"),
      };
      return (model) => ({ ...body, model });
    },
    answer(value, options, secret) {
      const first = isRecord(value) && Array.isArray(value.data) ? get(value.data, 0) : undefined;
      if (!isRecord(value) || !isRecord(first)) throw malformed(label, "{data: [{b64_json} | {url}]}", value, secret);
      if (options.outputType === "json") return { ...value };
      if (typeof first.url === "string") return first.url;
      return asOutput(label, value, options.outputType, secret);
    },
  };
}

/** A transcription: the audio uploaded as `file` (`audio.{ext}` by its type) with `{...args, ...parameters, model}` as form fields; `segments` answered as timed chunks. */
export function transcriptionTask(label: string, path: string): ProviderTask {
  return {
    path: () => path,
    body(args) {
      const field = binaryField(args);
      const audio = needBinary(args[field], field);
      const file = audio instanceof Blob ? audio : new Blob([audio]);
      const fields = { ...restOf(args), ...checkParameters(args.parameters) };
      delete fields.data;
      const name = audioFileName(file);
      return (model) => uploadBody(file, name, { ...fields, model });
    },
    answer(value, _options, secret) {
      if (!isRecord(value) || typeof value.text !== "string") throw malformed(label, "{text: string}", value, secret);
      if (!Array.isArray(value.segments)) return { text: value.text };
      const timed = value.segments.filter(
        (s): s is JsonObject => isRecord(s) && typeof s.text === "string" && isNumber(s.start) && isNumber(s.end),
      );
      return { text: value.text, chunks: timed.map((s) => ({ text: s.text, timestamp: [s.start, s.end] })) };
    },
  };
}

/** A multipart body: `file` first, then each field (a string as is, a number or boolean as text, anything else as JSON; null and undefined left out). */
function uploadBody(file: Blob, name: string, fields: JsonObject): Promise<JsonObject> {
  const form = new FormData();
  form.append("file", file, name);
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(
      key,
      typeof value === "string"
        ? value
        : typeof value === "number" || typeof value === "boolean"
          ? String(value)
          : JSON.stringify(value),
    );
  }
  return formBody(form, { ...fields, file: `[${file.type || "binary"} file: ${file.size} bytes]` });
}
