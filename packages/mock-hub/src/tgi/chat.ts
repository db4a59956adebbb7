import type { Exchange } from "../exchange.js";
import { chatReply, messageText } from "../reply.js";
import type { Grammar } from "../structured.js";
import { asNumber, isRecord, jsonResponse, tgiError } from "../http.js";
import { countTokens, runGeneration } from "../tokens.js";
import { supports } from "../version.js";
import { chatCompletion, chatStreamEvents, type ChatAnswer } from "./chat-output.js";
import { readJsonBody, type BodyShape } from "./json-body.js";
import { grammarAndTools, readGrammar } from "./grammar.js";
import { chooseTools, nextToolCallId, type ToolChoice } from "./tools.js";
import { validationError, type GenerateParameters } from "./validation.js";
import { tgiEventStream, validationErrorEvents } from "./wire.js";

const CHAT_TYPES = { messages: "sequence", stop: "sequence" } as const;

type Calls = Extract<ToolChoice, { calls: unknown }>;

/** TGI's `/v1/chat/completions`: template, tools, grammar, parameter mapping, validation, then the answer. */
export function tgiChat(exchange: Exchange): Response {
  const { model } = exchange;
  const shape: BodyShape = {
    required: supports(model.version, "optionalModel") ? ["messages"] : ["model", "messages"],
    types: CHAT_TYPES,
  };
  const parsed = readJsonBody(exchange.request, exchange.text, shape);
  if ("rejection" in parsed) return parsed.rejection;
  const { body } = parsed;
  const request = readChatRequest(exchange, body);
  if (request instanceof Response) return request;

  const parameters = chatParameters(body, model.version);
  const promptTokens = countPromptTokens(body.messages);
  const error = validationError(parameters, { inputTokens: promptTokens, maxTotalTokens: model.maxTotalTokens });
  if (error && body.stream === true)
    return tgiEventStream(exchange, "chat", validationErrorEvents(model.version, "chat", error));
  if (error) return tgiError(422, error, "validation");

  const reply = chatReply(body, request.tools, {
    tokens: model.chatTokens,
    grammar: request.grammar,
    takeFault: () => exchange.takeStructuredFault(),
  });
  const limits = { maxNewTokens: parameters.max_new_tokens ?? undefined, stop: parameters.stop ?? undefined };
  const answer: ChatAnswer = {
    model,
    generation: runGeneration(reply.tokens, limits),
    promptTokens,
    tool: reply.calls[0],
    streamedCallId: nextToolCallId(body.messages),
    includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
  };
  if (body.stream === true) return tgiEventStream(exchange, "chat", chatStreamEvents(answer));
  return jsonResponse(200, chatCompletion(answer));
}

/** The grammar and the tools asked for, or the plain 422 TGI answers before any stream opens. */
function readChatRequest(
  exchange: Exchange,
  body: Record<string, unknown>,
): Response | { grammar: Grammar | undefined; tools: Calls } {
  const { model } = exchange;
  // Before 2.1 the chat route has no `response_format` and ignores it.
  const format = supports(model.version, "responseFormat")
    ? readGrammar(exchange.text, body, ["response_format"], model.version)
    : { grammar: undefined };
  if ("rejection" in format) return format.rejection;
  if (format.grammar && body.tools !== undefined && body.tools !== null) return grammarAndTools(model.version);
  if (!model.chatTemplate) return tgiError(422, "Template error: template not found", "template_error");
  const tools = chooseTools(body, model.toolArguments, false);
  if ("missing" in tools) return tgiError(422, `Tool error: Tool with name ${tools.missing} not found`, "tool_error");
  return { grammar: format.grammar, tools };
}

/** The router's OpenAI → generate mapping (`try_into_generate`). */
export function chatParameters(body: Record<string, unknown>, version: string): GenerateParameters {
  const temperature = asNumber(body.temperature);
  const greedy = temperature === 0 && supports(version, "greedyTemperatureZero");
  const presence = asNumber(body.presence_penalty);
  const defaultMaxTokens = supports(version, "unboundedMaxTokens") ? undefined : 100;
  return {
    temperature: greedy ? undefined : temperature,
    do_sample: !greedy,
    top_p: asNumber(body.top_p),
    frequency_penalty: asNumber(body.frequency_penalty),
    repetition_penalty: presence === undefined ? undefined : presence + 2,
    max_new_tokens: asNumber(body.max_tokens) ?? defaultMaxTokens,
    stop: Array.isArray(body.stop) ? body.stop.filter((stop): stop is string => typeof stop === "string") : undefined,
    seed: asNumber(body.seed),
    top_n_tokens: asNumber(body.top_logprobs),
  };
}

/** The templated prompt's size: each message's words plus a few template tokens. */
export function countPromptTokens(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  return messages.reduce<number>((total, message) => total + 3 + countTokens(messageText(message)), 0);
}
