import { OVERLOADED, streamWithFaults, type Exchange } from "../exchange.js";
import { asNumber, isRecord, jsonResponse, parseJson } from "../http.js";
import { countTokens, runGeneration } from "../tokens.js";
import { DIALECTS, isOpenAiServer, openAiErrorBody } from "./dialects.js";

type Json = Record<string, unknown>;

/**
 * `/v1/completions` on vLLM, SGLang or llama.cpp's server (OpenAI's completions API): `prompt` in,
 * `{choices: [{text, finish_reason}]}` out; streamed as one chunk per token, the last one with its
 * finish reason, a usage chunk with `stream_options.include_usage`, then `[DONE]`.
 */
export function openAiCompletions(exchange: Exchange): Response {
  const { model } = exchange;
  if (!isOpenAiServer(model.backend)) throw new Error(`${model.backend} is not an OpenAI-protocol server`);
  const dialect = DIALECTS[model.backend];
  const body = parseJson(exchange.text);
  if (!isRecord(body) || typeof body.prompt !== "string") {
    return jsonResponse(400, openAiErrorBody("Field required: prompt (a string)", dialect.requestErrorType, 400));
  }
  const stop =
    typeof body.stop === "string"
      ? [body.stop]
      : Array.isArray(body.stop)
        ? body.stop.filter((s): s is string => typeof s === "string")
        : undefined;
  const generation = runGeneration(model.text, { maxNewTokens: asNumber(body.max_tokens), stop });
  const finish = generation.reason === "length" ? "length" : "stop";
  const promptTokens = countTokens(body.prompt);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: generation.generatedTokens,
    total_tokens: promptTokens + generation.generatedTokens,
  };
  const head: Json = {
    id: `cmpl-${model.id.replace(/\W/g, "")}`,
    object: "text_completion",
    created: 1735689600,
    model: model.id,
  };
  const choice = (text: string, finish_reason: string | null): Json => ({
    index: 0,
    text,
    logprobs: null,
    finish_reason,
  });
  if (body.stream !== true) return jsonResponse(200, { ...head, choices: [choice(generation.text, finish)], usage });

  const tokens = generation.tokens;
  const events = tokens.map((token, i) =>
    JSON.stringify({ ...head, choices: [choice(token, i === tokens.length - 1 ? finish : null)] }),
  );
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  if (options.include_usage === true) events.push(JSON.stringify({ ...head, choices: [], usage }));
  const { type, code } = dialect.streamError;
  return streamWithFaults(exchange, [...events, "[DONE]"], "data: ", () => [
    JSON.stringify(openAiErrorBody(OVERLOADED, type, code)),
    "[DONE]",
  ]);
}
