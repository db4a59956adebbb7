import type { Exchange } from "../exchange.js";
import { isRecord, jsonResponse, tgiError } from "../http.js";
import { grammarText } from "../structured.js";
import { EOS_TOKEN, countTokens, jsonTokens, runGeneration, type Generation } from "../tokens.js";
import { supports } from "../version.js";
import { readGrammar } from "./grammar.js";
import { readJsonBody } from "./json-body.js";
import { streamOnlyError, validationError, type GenerateParameters } from "./validation.js";
import { tgiEventStream, validationErrorEvents } from "./wire.js";

/** `/` wraps the answer in an array and streams on `stream: true`; `/generate(_stream)` are fixed. */
export type GenerateMode = "compat" | "generate" | "stream";

const LOGPROB = -0.25;

export function tgiGenerate(exchange: Exchange, mode: GenerateMode): Response {
  const { model } = exchange;
  const parsed = readJsonBody(exchange.request, exchange.text, { required: ["inputs"], types: { inputs: "string" } });
  if ("rejection" in parsed) return parsed.rejection;
  const { body } = parsed;
  const format = readGrammar(exchange.text, body, ["parameters", "grammar"], model.version);
  if ("rejection" in format) return format.rejection;
  const inputs = String(body.inputs);
  const parameters = (isRecord(body.parameters) ? body.parameters : {}) as GenerateParameters;
  const stream = mode === "stream" || (mode === "compat" && body.stream === true);
  const size = { inputTokens: countTokens(inputs), maxTotalTokens: model.maxTotalTokens };
  const error = (stream ? streamOnlyError(parameters) : undefined) ?? validationError(parameters, size);
  if (error && stream)
    return tgiEventStream(exchange, "generate", validationErrorEvents(model.version, "generate", error));
  if (error) return tgiError(422, error, "validation");

  // Under a grammar the model writes JSON for its schema (or text its regex matches), cut into tokens.
  const written = format.grammar
    ? jsonTokens(grammarText(format.grammar, () => exchange.takeStructuredFault()))
    : model.text;
  const generation = runGeneration(written, {
    maxNewTokens: parameters.max_new_tokens ?? undefined,
    stop: parameters.stop ?? undefined,
  });
  // The compat route follows the pipeline's habit of returning the prompt too.
  const fullText = parameters.return_full_text ?? mode === "compat";
  const answer = { inputs, parameters, generation, fullText, version: model.version };
  if (stream) return tgiEventStream(exchange, "generate", streamEvents(answer));
  const output = {
    generated_text: generatedText(answer),
    ...(wantsDetails(parameters) ? { details: details(answer) } : {}),
  };
  return jsonResponse(200, mode === "compat" ? [output] : output);
}

interface GenerateAnswer {
  inputs: string;
  parameters: GenerateParameters;
  generation: Generation;
  fullText: boolean;
  version: string;
}

function generatedText({ inputs, generation, fullText }: GenerateAnswer): string {
  return fullText ? inputs + generation.text : generation.text;
}

function wantsDetails(parameters: GenerateParameters): boolean {
  return Boolean(parameters.details || parameters.decoder_input_details);
}

/** Token ids from the token text, so the same word always gets the same id. */
function token(text: string, special = false): Record<string, unknown> {
  let id = 7;
  for (const char of text) id = (id * 31 + char.charCodeAt(0)) % 32_000;
  return special
    ? { id: EOS_TOKEN.id, text, logprob: LOGPROB, special }
    : { id: id + 100, text, logprob: LOGPROB, special };
}

function seedOf(parameters: GenerateParameters): number | null {
  return parameters.do_sample ? (parameters.seed ?? 42) : null;
}

function details(answer: GenerateAnswer): Record<string, unknown> {
  const { generation, parameters } = answer;
  const tokens = generation.tokens.map((text) => token(text));
  if (generation.eos) tokens.push(token(EOS_TOKEN.text, true));
  const prefill = parameters.decoder_input_details ? [{ id: 0, text: "<s>", logprob: null }] : [];
  return {
    finish_reason: generation.reason,
    generated_tokens: generation.generatedTokens,
    seed: seedOf(parameters),
    prefill,
    tokens,
  };
}

/** One event per token; the last carries `generated_text` (and `details` when asked). Never `[DONE]`. */
function streamEvents(answer: GenerateAnswer): string[] {
  const { generation, parameters } = answer;
  const texts = generation.eos ? [...generation.tokens, EOS_TOKEN.text] : generation.tokens;
  const last = texts.length - 1;
  return texts.map((text, i) => {
    const isLast = i === last;
    const event = {
      index: i + 1,
      token: token(text, generation.eos && isLast),
      generated_text: isLast ? generatedText(answer) : null,
      details: isLast && parameters.details ? streamDetails(answer) : null,
    };
    return JSON.stringify(event);
  });
}

function streamDetails({ generation, parameters, inputs, version }: GenerateAnswer): Record<string, unknown> {
  const base = {
    finish_reason: generation.reason,
    generated_tokens: generation.generatedTokens,
    seed: seedOf(parameters),
  };
  return supports(version, "usage") ? { ...base, input_length: countTokens(inputs) } : base;
}
