import type { Exchange } from "./exchange.js";
import { isRecord, jsonResponse, parseJson } from "./http.js";

/**
 * The transformers pipelines of the other tasks, as hf-inference serves them at `POST /models/{id}`
 * (and `/pipeline/{task}`): deterministic answers of each task's shape, JSON or binary.
 */

/** A 1×1 PNG: what the image tasks answer. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
/** A WAV header with no samples: what the audio tasks answer. */
export const WAV = Uint8Array.from(atob("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="), (c) =>
  c.charCodeAt(0),
);
/** The same PNG in base64: what a provider answers as `b64_json`. */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

type Body = Record<string, unknown>;

const binary = (bytes: Uint8Array, type: string): Response =>
  new Response(bytes.slice(), { status: 200, headers: { "content-type": type } });
const words = (text: unknown): string[] => (typeof text === "string" ? text.split(/\s+/).filter(Boolean) : []);
const labels = (body: Body): string[] => {
  const p = isRecord(body.parameters) ? body.parameters.candidate_labels : undefined;
  return Array.isArray(p) ? p.map(String) : [];
};
/** Scores that fall by halves and sum to 1 (0.5, 0.25, ..., the last takes the rest). */
const scores = (n: number): number[] => Array.from({ length: n }, (_, i) => (i === n - 1 ? 2 ** -i : 2 ** -(i + 1)));
const classes = (names: string[]): { label: string; score: number }[] => {
  const s = scores(names.length);
  return names.map((label, i) => ({ label, score: s[i] as number }));
};
/** A deterministic 4-dimensional embedding of a text. */
const embed = (text: string): number[] => [
  text.length / 100,
  words(text).length / 10,
  (text.charCodeAt(0) || 0) / 1000,
  0.5,
];
const inputsObject = (body: Body): Body => (isRecord(body.inputs) ? body.inputs : {});

/** The answer of each pipeline, by task name; `text` is the model's configured text. */
const JSON_ANSWERS: Record<string, (body: Body, modelText: string) => unknown> = {
  "text-classification": () => [classes(["POSITIVE", "NEGATIVE"])],
  "token-classification": (b) => {
    const word = words(b.inputs)[0] ?? "";
    return [{ entity_group: "LOC", score: 0.9991, word, start: 0, end: word.length }];
  },
  "fill-mask": (b) =>
    ["paris", "lyon"].map((token_str, i) => ({
      score: scores(2)[i],
      token: 3000 + i,
      token_str,
      sequence: String(b.inputs).replace(/\[MASK\]|<mask>/, token_str),
    })),
  "question-answering": (b) => {
    const context = String(inputsObject(b).context ?? "");
    const answer = words(context).at(-1) ?? "";
    const start = context.lastIndexOf(answer);
    return { answer, score: 0.9876, start, end: start + answer.length };
  },
  summarization: (_b, text) => [{ summary_text: text }],
  translation: (_b, text) => [{ translation_text: text }],
  "zero-shot-classification": (b) => ({ sequence: b.inputs, labels: labels(b), scores: scores(labels(b).length) }),
  "feature-extraction": (b) =>
    Array.isArray(b.inputs) ? b.inputs.map((t) => embed(String(t))) : embed(String(b.inputs)),
  "sentence-similarity": (b) => {
    const { source_sentence: source, sentences } = inputsObject(b);
    return (Array.isArray(sentences) ? sentences : []).map((s) =>
      s === source ? 1 : 1 / (1 + Math.abs(String(s).length - String(source).length)),
    );
  },
  "table-question-answering": (b) => {
    const table = isRecord(inputsObject(b).table) ? (inputsObject(b).table as Record<string, unknown[]>) : {};
    const cell = String(Object.values(table)[0]?.[0] ?? "");
    return { answer: cell, coordinates: [[0, 0]], cells: [cell], aggregator: "NONE" };
  },
  "tabular-classification": (b) => rows(b).map((_, i) => i % 2),
  "tabular-regression": (b) => rows(b).map((_, i) => 1.5 * (i + 1)),
  "zero-shot-image-classification": (b) => classes(labels(b)),
  "image-segmentation": () => [{ label: "cat", score: 0.9, mask: PNG_BASE64 }],
  "document-question-answering": () => [{ answer: "us-001", score: 0.9, start: 16, end: 16 }],
  "visual-question-answering": () => [{ answer: "cat", score: 0.9 }],
};

const rows = (b: Body): unknown[] => {
  const data = inputsObject(b).data;
  return isRecord(data) && Array.isArray(Object.values(data)[0]) ? (Object.values(data)[0] as unknown[]) : [];
};

/** The pipelines that take the bytes of a file as the body (a JSON `{inputs: base64}` works too). */
const BINARY_INPUT_ANSWERS: Record<string, (modelText: string) => unknown> = {
  "audio-classification": () => classes(["neutral", "happy"]),
  "automatic-speech-recognition": (text) => ({ text }),
  "audio-to-audio": () => [{ label: "speech", "content-type": "audio/wav", blob: btoa(String.fromCharCode(...WAV)) }],
  "image-classification": () => classes(["tabby cat", "tiger cat"]),
  "object-detection": () => [{ label: "cat", score: 0.9, box: { xmin: 1, ymin: 2, xmax: 30, ymax: 40 } }],
  "image-to-text": (text) => ({ generated_text: text }),
};

/** The pipelines that answer a file. */
const BINARY_ANSWERS: Record<string, { bytes: Uint8Array; type: string }> = {
  "text-to-image": { bytes: PNG, type: "image/png" },
  "image-to-image": { bytes: PNG, type: "image/png" },
  "text-to-speech": { bytes: WAV, type: "audio/wav" },
  "text-to-audio": { bytes: WAV, type: "audio/wav" },
};

/** Every pipeline the hub serves, by task name. */
export const PIPELINE_TASKS: readonly string[] = [
  ...Object.keys(JSON_ANSWERS),
  ...Object.keys(BINARY_INPUT_ANSWERS),
  ...Object.keys(BINARY_ANSWERS),
];

const noInputs = (): Response => jsonResponse(400, { error: "Body needs to provide a inputs key" });

/** `POST /models/{id}` (or `/pipeline/{task}`) for a model of `task`: the pipeline's answer, or its 400. */
export function taskPipeline(exchange: Exchange, task: string): Response {
  const text = exchange.model.text;
  const binaryInput = BINARY_INPUT_ANSWERS[task];
  const body = parseJson(exchange.text);
  if (binaryInput) {
    const sentJson = isRecord(body) && typeof body.inputs === "string";
    if (exchange.text.length === 0 || (isRecord(body) && !sentJson))
      return jsonResponse(400, { error: "Invalid audio or image file: the body must be the file's bytes" });
    return jsonResponse(200, binaryInput(text));
  }
  const file = BINARY_ANSWERS[task];
  // image-to-image takes the image's bytes alone, or JSON with parameters.
  if (task === "image-to-image" && exchange.text.length > 0 && !isRecord(body)) return binary(PNG, "image/png");
  if (!isRecord(body) || body.inputs === undefined) return noInputs();
  if (task.startsWith("zero-shot") && labels(body).length === 0)
    return jsonResponse(400, { error: "`candidate_labels` is required: a list of labels" });
  if (file) return binary(file.bytes, file.type);
  const answer = JSON_ANSWERS[task];
  return answer ? jsonResponse(200, answer(body, text)) : jsonResponse(400, { error: `Unknown task ${task}` });
}
