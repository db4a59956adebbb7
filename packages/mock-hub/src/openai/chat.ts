import { OVERLOADED, streamWithFaults, type Exchange } from "../exchange.js";
import { asNumber, isRecord, jsonResponse, parseJson } from "../http.js";
import { chatReply, type ChatReply } from "../reply.js";
import { openAiGrammar } from "../structured.js";
import { countPromptTokens } from "../tgi/chat.js";
import { chooseTools } from "../tgi/tools.js";
import { runGeneration, splitTokens } from "../tokens.js";
import { DIALECTS, isOpenAiServer, openAiErrorBody, type Dialect } from "./dialects.js";
import { completion, streamEvents, type ServerAnswer } from "./output.js";

/** vLLM's words for a `tool_choice` naming a function the request does not give. */
const UNKNOWN_TOOL = "The tool specified in `tool_choice` does not match any of the specified `tools`";

/**
 * `/v1/chat/completions` on vLLM, SGLang or llama.cpp's server: any numeric sampling parameter is
 * taken as it is (none of TGI's validation); a body without `messages`, an unknown `response_format`
 * type or a `tool_choice` naming no given tool is refused.
 */
export function openAiChat(exchange: Exchange): Response {
  const { model } = exchange;
  if (!isOpenAiServer(model.backend)) throw new Error(`${model.backend} is not an OpenAI-protocol server`);
  const dialect = DIALECTS[model.backend];
  const body = parseJson(exchange.text);
  if (!isRecord(body)) return requestError(dialect, "JSON decode error: the body must be a JSON object");
  if (!Array.isArray(body.messages)) return requestError(dialect, "Field required: messages");
  const format = openAiGrammar(body.response_format, dialect.jsonObjectSchema);
  if ("error" in format) return requestError(dialect, format.error);
  const tools = chooseTools(body, model.toolArguments, true);
  if ("missing" in tools) return requestError(dialect, UNKNOWN_TOOL);

  const reply = chatReply(body, tools, {
    tokens: model.chatTokens,
    grammar: format.grammar,
    takeFault: () => exchange.takeStructuredFault(),
  });
  const answer = serverAnswer(exchange, dialect, body, reply);
  if (body.stream !== true) return jsonResponse(200, completion(answer));
  const { type, code } = dialect.streamError;
  const errorEvents = () => [JSON.stringify(openAiErrorBody(OVERLOADED, type, code)), "[DONE]"];
  return streamWithFaults(exchange, streamEvents(answer), "data: ", errorEvents);
}

function serverAnswer(
  { model }: Exchange,
  dialect: Dialect,
  body: Record<string, unknown>,
  reply: ChatReply,
): ServerAnswer {
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  const includeUsage = options.include_usage === true;
  const continuous = options.continuous_usage_stats === true;
  return {
    model,
    dialect,
    reasoning: splitTokens(model.reasoning ?? ""),
    generation: runGeneration(reply.tokens, {
      maxNewTokens: asNumber(body.max_tokens) ?? asNumber(body.max_completion_tokens),
      stop: stopSequences(body.stop),
    }),
    calls: reply.calls,
    promptTokens: countPromptTokens(body.messages),
    includeUsage,
    continuousUsage:
      continuous &&
      (dialect.continuousUsage === "alone" || (dialect.continuousUsage === "withIncludeUsage" && includeUsage)),
    returnProgress: body.return_progress === true,
  };
}

function requestError(dialect: Dialect, message: string): Response {
  return jsonResponse(400, openAiErrorBody(message, dialect.requestErrorType, 400));
}

/** OpenAI's `stop`: one string or a list. */
function stopSequences(stop: unknown): string[] | undefined {
  if (typeof stop === "string") return [stop];
  return Array.isArray(stop) ? stop.filter((item): item is string => typeof item === "string") : undefined;
}
