import type { Exchange } from "../exchange.js";
import { jsonResponse, tgiError } from "../http.js";
import type { ResolvedModel } from "../models.js";
import { countTokens, EOS_TOKEN, runGeneration, type Generation } from "../tokens.js";
import { supports, systemFingerprint } from "../version.js";
import { chatParameters } from "./chat.js";
import { CREATED, finishReason } from "./chat-output.js";
import { readJsonBody } from "./json-body.js";
import { validationError } from "./validation.js";
import { tgiEventStream, validationErrorEvents } from "./wire.js";

type Json = Record<string, unknown>;

/**
 * TGI's `/v1/completions` (OpenAI's legacy completions API, which `@huggingface/inference` posts for
 * `textGeneration` on hf-inference): `prompt` (a string or a list) in, `{choices: [{text}]}` out; with
 * `stream: true`, one `data: {"choices":[{"text"}]}` chunk per token, then `[DONE]` where the version sends it.
 */
export function tgiCompletions(exchange: Exchange): Response {
  const { model } = exchange;
  const parsed = readJsonBody(exchange.request, exchange.text, { required: ["prompt"], types: {} });
  if ("rejection" in parsed) return parsed.rejection;
  const { body } = parsed;
  const prompts = promptsOf(body.prompt);
  if (!prompts)
    return tgiError(
      422,
      "Failed to deserialize the JSON body into the target type: prompt: expected a string or a sequence of strings",
      "validation",
    );

  const parameters = chatParameters(body, model.version);
  const promptTokens = prompts.reduce((total, prompt) => total + countTokens(prompt), 0);
  const error = prompts
    .map((prompt) =>
      validationError(parameters, { inputTokens: countTokens(prompt), maxTotalTokens: model.maxTotalTokens }),
    )
    .find(Boolean);
  if (error && body.stream === true)
    return tgiEventStream(exchange, "chat", validationErrorEvents(model.version, "chat", error));
  if (error) return tgiError(422, error, "validation");

  const limits = { maxNewTokens: parameters.max_new_tokens ?? undefined, stop: parameters.stop ?? undefined };
  const generations = prompts.map(() => runGeneration(model.text, limits));
  if (body.stream === true) return tgiEventStream(exchange, "chat", streamEvents(model, generations));
  const completionTokens = generations.reduce((total, generation) => total + generation.generatedTokens, 0);
  return jsonResponse(200, {
    ...envelope(model),
    choices: generations.map((generation, index) =>
      completionChoice(index, generation.text, finishReason(model.version, generation.reason)),
    ),
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  });
}

function promptsOf(prompt: unknown): string[] | undefined {
  if (typeof prompt === "string") return [prompt];
  const valid = Array.isArray(prompt) && prompt.length > 0 && prompt.every((item) => typeof item === "string");
  return valid ? prompt : undefined;
}

function envelope(model: ResolvedModel): Json {
  return {
    id: "",
    object: "text_completion",
    created: CREATED,
    model: model.id,
    system_fingerprint: systemFingerprint(model.version),
  };
}

function completionChoice(index: number, text: string, finish: string | null): Json {
  return { index, text, logprobs: null, finish_reason: finish };
}

/** One chunk per token of each prompt's answer (the EOS token's text shown before TGI 2.1), then `[DONE]` (>= 2.2). */
function streamEvents(model: ResolvedModel, generations: readonly Generation[]): string[] {
  const events = generations.flatMap((generation, index) => {
    const finish = finishReason(model.version, generation.reason);
    const texts = generation.eos
      ? [...generation.tokens, supports(model.version, "hiddenSpecialTokens") ? "" : EOS_TOKEN.text]
      : generation.tokens;
    return texts.map((text, i) =>
      JSON.stringify({
        ...envelope(model),
        choices: [completionChoice(index, text, i === texts.length - 1 ? finish : null)],
      }),
    );
  });
  return supports(model.version, "done") ? [...events, "[DONE]"] : events;
}
