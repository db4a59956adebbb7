import type { ResolvedModel } from "../models.js";
import { EOS_TOKEN, jsonTokens, type Generation, type StopReason } from "../tokens.js";
import { supports, systemFingerprint } from "../version.js";
import type { ToolCallPlan } from "./tools.js";

/** The chat route's answers (`ChatCompletion`, `ChatCompletionChunk`) in each version's shape. */

/** `created` in every answer: fixed, so answers are byte-for-byte repeatable. */
export const CREATED = 1735689600;

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatAnswer {
  model: ResolvedModel;
  generation: Generation;
  promptTokens: number;
  /** TGI calls one tool at most (its grammar picks one). */
  tool: ToolCallPlan | undefined;
  /** The id of a streamed call from 3.2 (earlier streams send `""`, whole answers `"0"`). */
  streamedCallId: string;
  includeUsage: boolean;
}

type Json = Record<string, unknown>;

export function finishReason(version: string, reason: StopReason): string {
  if (reason === "length" || !supports(version, "openAiFinishReasons")) return reason;
  return "stop";
}

function usageOf(answer: ChatAnswer, completionTokens: number): Usage {
  const { promptTokens } = answer;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** The fields every answer starts with; `object` moved first when TGI 2.1 tagged it. */
function envelope(model: ResolvedModel, kind: "chunk" | "completion"): Json {
  const object = kind === "chunk" ? "chat.completion.chunk" : "chat.completion";
  const head = supports(model.version, "chatObjects") ? { object, id: "" } : { id: "", object: "text_completion" };
  return { ...head, created: CREATED, model: model.id, system_fingerprint: systemFingerprint(model.version) };
}

function chunk(model: ResolvedModel, choices: Json[], usage: Usage | null = null): Json {
  return { ...envelope(model, "chunk"), choices, ...(supports(model.version, "usage") ? { usage } : {}) };
}

function choice(delta: Json, finish: string | null): Json {
  return { index: 0, delta, logprobs: null, finish_reason: finish };
}

export function chatCompletion(answer: ChatAnswer): Json {
  const { model, generation, tool } = answer;
  const message = tool
    ? { role: "assistant", tool_calls: [toolCallMessage(model.version, tool)] }
    : { role: "assistant", content: generation.text };
  const reason = finishReason(model.version, tool ? "eos_token" : generation.reason);
  const completionTokens = tool ? toolPieces(tool).length + 1 : generation.generatedTokens;
  return {
    ...envelope(model, "completion"),
    choices: [{ index: 0, message, logprobs: null, finish_reason: reason }],
    usage: usageOf(answer, completionTokens),
  };
}

function toolCallMessage(version: string, tool: ToolCallPlan): Json {
  const args = supports(version, "toolArgumentsString") ? JSON.stringify(tool.arguments) : tool.arguments;
  return { id: "0", type: "function", function: { description: null, name: tool.name, arguments: args } };
}

/** Chunk payloads, the usage chunk when asked (>= 2.3), then `[DONE]` (>= 2.2). */
export function chatStreamEvents(answer: ChatAnswer): string[] {
  const { model } = answer;
  const chunks = answer.tool
    ? toolChunks(model, answer.tool, answer.streamedCallId)
    : textChunks(model, answer.generation);
  if (answer.includeUsage && supports(model.version, "usage")) {
    const completionTokens = answer.tool ? chunks.length : answer.generation.generatedTokens;
    chunks.push(chunk(model, [], usageOf(answer, completionTokens)));
  }
  const events = chunks.map((payload) => JSON.stringify(payload));
  return supports(model.version, "done") ? [...events, "[DONE]"] : events;
}

/** One chunk per token; a natural stop adds the EOS token's chunk (its text shown before 2.1). */
function textChunks(model: ResolvedModel, generation: Generation): Json[] {
  const finish = finishReason(model.version, generation.reason);
  const last = generation.tokens.length - 1;
  const chunks = generation.tokens.map((token, i) =>
    chunk(model, [choice(textDelta(token), !generation.eos && i === last ? finish : null)]),
  );
  if (generation.eos) {
    const eosText = supports(model.version, "hiddenSpecialTokens") ? "" : EOS_TOKEN.text;
    chunks.push(chunk(model, [choice(textDelta(eosText), finish)]));
  }
  return chunks;
}

function textDelta(content: string): Json {
  return { role: "assistant", content };
}

function toolPieces(tool: ToolCallPlan): string[] {
  return jsonTokens(JSON.stringify(tool.arguments));
}

/** The arguments streamed piece by piece, the name in the first; up to 3.1 `tool_calls` is one object with `id: ""`, from 3.2 an array. */
function toolChunks(model: ResolvedModel, tool: ToolCallPlan, streamedCallId: string): Json[] {
  const pieces = toolPieces(tool);
  const finish = finishReason(model.version, "eos_token");
  const array = supports(model.version, "toolCallsArray");
  return pieces.map((piece, i) => {
    const call = {
      index: 0,
      id: array ? streamedCallId : "",
      type: "function",
      function: { name: i === 0 ? tool.name : null, arguments: piece },
    };
    const toolCalls = array ? [call] : call;
    return chunk(model, [
      choice({ role: "assistant", tool_calls: toolCalls }, i === pieces.length - 1 ? finish : null),
    ]);
  });
}
