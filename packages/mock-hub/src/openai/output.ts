import { stableHex } from "../ids.js";
import type { ResolvedModel } from "../models.js";
import { CREATED, type Usage } from "../tgi/chat-output.js";
import type { ToolCallPlan } from "../tgi/tools.js";
import type { Generation } from "../tokens.js";
import type { Dialect } from "./dialects.js";
import { callIds, callTokens, toolCallDeltas, toolCallsField } from "./tool-calls.js";

/** The answers of an OpenAI-protocol server (`chat.completion`, `chat.completion.chunk`), built from its dialect's rules. */

type Json = Record<string, unknown>;

export interface ServerAnswer {
  model: ResolvedModel;
  dialect: Dialect;
  /** The reasoning's tokens, streamed before the answer's. */
  reasoning: readonly string[];
  generation: Generation;
  /** The tools it calls instead of answering (then `generation` is empty). */
  calls: readonly ToolCallPlan[];
  promptTokens: number;
  includeUsage: boolean;
  /** `usage` on every chunk (`continuous_usage_stats`, by the dialect's rule). */
  continuousUsage: boolean;
  /** llama.cpp's `return_progress`. */
  returnProgress: boolean;
}

/** llama.cpp's deterministic speeds: 2 ms a prompt token, 20 ms a generated one. */
const PROMPT_MS = 2;
const PREDICTED_MS = 20;

/** A stable 32-hex-digit id per model and version, so answers are repeatable. */
function completionId({ model, dialect }: ServerAnswer): string {
  return dialect.idPrefix + stableHex(`${model.id}@${model.version}`, 32);
}

function head(answer: ServerAnswer, object: string): Json {
  const fingerprint = answer.dialect.systemFingerprint(answer.model.version);
  return {
    id: completionId(answer),
    object,
    created: CREATED,
    model: answer.model.id,
    ...(fingerprint === undefined ? {} : { system_fingerprint: fingerprint }),
  };
}

function usageOf(answer: ServerAnswer, completionTokens: number): Usage {
  const { promptTokens } = answer;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** The reasoning's tokens, then the answer's (with its EOS token) or the calls' arguments and an EOS token. */
function completionTokens(answer: ServerAnswer): number {
  const { calls, generation } = answer;
  return answer.reasoning.length + (calls.length > 0 ? callTokens(calls) + 1 : generation.generatedTokens);
}

function ids(answer: ServerAnswer): string[] {
  return callIds(answer.calls, `${answer.model.id}@${answer.model.version}`, (hex) => answer.dialect.toolCallId(hex));
}

/** `completed`: the completion tokens so far, for continuous usage; undefined on chunks outside the answer. */
function chunk(answer: ServerAnswer, choices: Json[], completed?: number, extra: Json = {}): Json {
  const usage =
    answer.continuousUsage && completed !== undefined
      ? { usage: usageOf(answer, completed) }
      : answer.dialect.usageNull
        ? { usage: null }
        : {};
  return { ...head(answer, "chat.completion.chunk"), choices, ...usage, ...extra };
}

/** The dialect's always-present keys (null), then `fields`. */
function withNulls(dialect: Dialect, fields: Json): Json {
  return { ...Object.fromEntries(dialect.nullKeys.map((key) => [key, null])), ...fields };
}

function reasoningFields(answer: ServerAnswer, text: string): Json {
  return Object.fromEntries(answer.dialect.reasoningKeys(answer.model.version).map((key) => [key, text]));
}

function choice(answer: ServerAnswer, delta: Json, finish: string | null): Json {
  return {
    index: 0,
    delta: withNulls(answer.dialect, delta),
    logprobs: null,
    finish_reason: finish,
    ...answer.dialect.choiceExtras,
  };
}

function finishReason({ calls, generation }: ServerAnswer): string {
  if (calls.length > 0) return "tool_calls";
  return generation.reason === "length" ? "length" : "stop";
}

function timings(answer: ServerAnswer): Json {
  const predicted = completionTokens(answer);
  return {
    cache_n: 0,
    prompt_n: answer.promptTokens,
    prompt_ms: answer.promptTokens * PROMPT_MS,
    prompt_per_token_ms: PROMPT_MS,
    prompt_per_second: 1000 / PROMPT_MS,
    predicted_n: predicted,
    predicted_ms: predicted * PREDICTED_MS,
    predicted_per_token_ms: PREDICTED_MS,
    predicted_per_second: 1000 / PREDICTED_MS,
  };
}

/** llama.cpp's `return_progress`: the prompt processed in two steps (one for a one-token prompt). */
function progressChunks(answer: ServerAnswer): Json[] {
  const total = answer.promptTokens;
  const steps = total >= 2 ? [Math.floor(total / 2), total] : [total];
  return steps.map((processed) =>
    chunk(answer, [], undefined, { prompt_progress: { total, cache: 0, processed, time_ms: processed * PROMPT_MS } }),
  );
}

/** Leading chunks, the role chunk, reasoning then content one token a chunk, the finish chunk, the usage chunk, `[DONE]`. */
export function streamEvents(answer: ServerAnswer): string[] {
  const { dialect, generation, model } = answer;
  const chunks: Json[] = model.leadingEmptyChoices ? [chunk(answer, [])] : [];
  if (dialect.llamaExtras && answer.returnProgress) chunks.push(...progressChunks(answer));
  const deltas = [
    dialect.roleDelta,
    ...answer.reasoning.map((token) => reasoningFields(answer, token)),
    ...(answer.calls.length > 0
      ? toolCallDeltas(answer.calls, ids(answer))
      : generation.tokens.map((token) => ({ content: token }))),
  ];
  deltas.forEach((delta, i) => chunks.push(chunk(answer, [choice(answer, delta, null)], i)));
  const extras = dialect.llamaExtras ? { timings: timings(answer) } : {};
  const total = completionTokens(answer);
  chunks.push(chunk(answer, [choice(answer, dialect.finishDelta, finishReason(answer))], total, extras));
  if (answer.includeUsage)
    chunks.push({ ...head(answer, "chat.completion.chunk"), choices: [], usage: usageOf(answer, total) });
  return [...chunks.map((payload) => JSON.stringify(payload)), "[DONE]"];
}

/** The non-streamed answer: reasoning under the dialect's keys beside `content` (null beside tool calls). */
export function completion(answer: ServerAnswer): Json {
  const { dialect, generation, calls } = answer;
  const reasoning = answer.reasoning.length > 0 ? reasoningFields(answer, answer.reasoning.join("")) : {};
  const said =
    calls.length > 0 ? { content: null, tool_calls: toolCallsField(calls, ids(answer)) } : { content: generation.text };
  const message = withNulls(dialect, { role: "assistant", ...said, ...reasoning });
  return {
    ...head(answer, "chat.completion"),
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer), ...dialect.choiceExtras }],
    usage: usageOf(answer, completionTokens(answer)),
    ...(dialect.llamaExtras ? { timings: timings(answer) } : {}),
  };
}
