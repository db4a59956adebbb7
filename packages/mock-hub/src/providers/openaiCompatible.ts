/** What the OpenAI-compatible providers answer alike (completions, chat, embeddings, their 400), deterministically from the request. */
import { isRecord, jsonResponse } from "../http.js";
import { callIds, toolCallsField } from "../openai/tool-calls.js";
import { chatReply } from "../reply.js";
import { openAiGrammar } from "../structured.js";
import { chooseTools } from "../tgi/tools.js";
import { splitTokens } from "../tokens.js";

type Body = Record<string, unknown>;

const CREATED = 1_700_000_000;

/** OpenAI's error body for a request it refuses. */
export const openAiRefusal = (message: string, param: string, status = 400): Response =>
  jsonResponse(status, { error: { message, type: "invalid_request_error", param, code: null } });

/** The model a request names, or a refusal. */
function modelOf(body: Body): string | Response {
  return typeof body.model === "string" && body.model !== ""
    ? body.model
    : openAiRefusal("you must provide a model parameter", "model");
}

/** A continuation that depends only on the prompt: its word count and length. */
export const continuation = (prompt: string): string =>
  ` and so on (${prompt.split(/\s+/).filter(Boolean).length} words, ${prompt.length} characters).`;

/** `POST …/completions`: `{model, prompt}` → one choice (`extra` merged into it, e.g. Together's `seed`). */
export function completions(body: Body, id: string, extra: Body = {}): Response {
  const model = modelOf(body);
  if (model instanceof Response) return model;
  if (typeof body.prompt !== "string") return openAiRefusal("prompt is required", "prompt");
  const text = continuation(body.prompt);
  return jsonResponse(200, {
    id: `${id}-${body.prompt.length}`,
    object: "text_completion",
    created: CREATED,
    model,
    choices: [{ index: 0, text, finish_reason: "length", logprobs: null, ...extra }],
    usage: { prompt_tokens: body.prompt.length, completion_tokens: 8, total_tokens: body.prompt.length + 8 },
  });
}

/**
 * `POST …/chat/completions`: `{model, messages}` → one reply continuing the last message (`messages` missing: the
 * provider's 400); with `tools`, a call to each (arguments built from its schema), then what the tools said; with a
 * `json_schema` response format, JSON for the schema.
 */
export function chatCompletions(body: Body, id: string, missing: string): Response {
  const model = modelOf(body);
  if (model instanceof Response) return model;
  const last = Array.isArray(body.messages) ? (body.messages.at(-1) as unknown) : undefined;
  if (!isRecord(last) || typeof last.content !== "string") return openAiRefusal(missing, "messages");
  const format = openAiGrammar(body.response_format);
  if ("error" in format) return openAiRefusal(format.error, "response_format");
  const tools = chooseTools(body, undefined, true);
  if ("missing" in tools) return openAiRefusal(`Tool '${tools.missing}' is not among the tools given`, "tool_choice");
  const reply = chatReply(body, tools, {
    tokens: splitTokens(continuation(last.content).trimStart()),
    grammar: format.grammar,
    takeFault: () => undefined,
  });
  const calls =
    reply.calls.length > 0
      ? toolCallsField(
          reply.calls,
          callIds(reply.calls, id, (hex) => `call_${hex.slice(0, 24)}`),
        )
      : undefined;
  const message = calls
    ? { role: "assistant", content: null, tool_calls: calls }
    : { role: "assistant", content: reply.tokens.join("") };
  return jsonResponse(200, {
    id: `${id}-${last.content.length}`,
    object: "chat.completion",
    created: CREATED,
    model,
    choices: [{ index: 0, message, finish_reason: calls ? "tool_calls" : "stop", logprobs: null }],
    usage: { prompt_tokens: last.content.length, completion_tokens: 8, total_tokens: last.content.length + 8 },
  });
}

/** A vector that depends only on the text: its length, its word count, its first character code. */
export const vectorOf = (text: string): number[] => [
  text.length / 100,
  text.split(/\s+/).filter(Boolean).length / 10,
  (text.charCodeAt(0) || 0) / 1000,
];

/** `POST …/embeddings`: `{model, input: string | string[]}` → one embedding per input. */
export function embeddings(body: Body): Response {
  const model = modelOf(body);
  if (model instanceof Response) return model;
  const input = typeof body.input === "string" ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || !input.every((s) => typeof s === "string"))
    return openAiRefusal("input must be a string or an array of strings", "input");
  return jsonResponse(200, {
    object: "list",
    model,
    data: input.map((text: string, index) => ({ object: "embedding", index, embedding: vectorOf(text) })),
    usage: { prompt_tokens: input.join(" ").length, total_tokens: input.join(" ").length },
  });
}
