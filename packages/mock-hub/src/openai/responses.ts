import { OVERLOADED, streamWithFaults, type Exchange } from "../exchange.js";
import { asNumber, isRecord, jsonResponse, parseJson } from "../http.js";
import { countPromptTokens } from "../tgi/chat.js";
import { CREATED } from "../tgi/chat-output.js";
import { stableHex } from "../ids.js";
import { chooseTools, type ToolCallPlan } from "../tgi/tools.js";
import { jsonTokens, runGeneration, splitTokens } from "../tokens.js";
import type { StreamFault } from "../types.js";
import { openAiErrorBody } from "./dialects.js";

/**
 * The OpenAI Responses API (`POST /v1/responses`) as the HF router (beta) and vLLM serve it: a
 * `response` object, or its event stream (`event: <type>` and `data: {json}`, no `[DONE]`): created,
 * in_progress, a reasoning item for a reasoning model, then the message (or a function call when tools
 * are given and the prompt asks for one), completed (`incomplete` when cut by `max_output_tokens`).
 */

type Json = Record<string, unknown>;

/** A stable id per model and kind, so answers are repeatable. */
function idOf(prefix: string, model: string, size = 48): string {
  return `${prefix}_${stableHex(`${prefix}:${model}`, size)}`;
}

/** The input as chat messages, for counting its tokens and reading the user's last words. */
function inputMessages(body: Json): Json[] {
  const items =
    typeof body.input === "string"
      ? [{ role: "user", content: body.input }]
      : Array.isArray(body.input)
        ? body.input
        : [];
  const messages = items.filter(isRecord).map((item) => {
    if (typeof item.content === "string" || Array.isArray(item.content))
      return { role: item.role, content: item.content };
    return { role: "tool", content: typeof item.output === "string" ? item.output : String(item.arguments ?? "") };
  });
  return typeof body.instructions === "string"
    ? [{ role: "system", content: body.instructions }, ...messages]
    : messages;
}

function lastUserText(messages: Json[]): string {
  const last = [...messages].reverse().find((m) => m.role === "user");
  const content = last?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : "")).join(" ")
    : "";
}

/** The function the model calls: `tool_choice` "required" or a named function, or a prompt that names a tool or says "tool". */
function toolCall(body: Json, messages: Json[], configured: Json | undefined): ToolCallPlan | undefined {
  const tools = Array.isArray(body.tools)
    ? body.tools.filter((t): t is Json => isRecord(t) && t.type === "function" && typeof t.name === "string")
    : [];
  const choice = body.tool_choice;
  if (tools.length === 0 || choice === "none") return undefined;
  const named = isRecord(choice) && typeof choice.name === "string" ? choice.name : undefined;
  const text = lastUserText(messages).toLowerCase();
  const asked =
    choice === "required" ||
    named !== undefined ||
    /\btools?\b/.test(text) ||
    tools.some((t) => text.includes(String(t.name).toLowerCase()));
  if (!asked) return undefined;
  const chatShape = {
    tools: tools.map((t) => ({ type: "function", function: { name: t.name, parameters: t.parameters } })),
    tool_choice: named ? { function: { name: named } } : "auto",
  };
  const chosen = chooseTools(chatShape, configured, false);
  return "calls" in chosen ? chosen.calls[0] : undefined;
}

/** The response's items and the events that write them, in order. */
function plan(exchange: Exchange, body: Json): { response: Json; events: Array<[string, Json]> } {
  const { model } = exchange;
  const messages = inputMessages(body);
  const reasoning = splitTokens(model.reasoning ?? "");
  const tool = toolCall(body, messages, model.toolArguments);
  const generation = runGeneration(model.chatTokens, { maxNewTokens: asNumber(body.max_output_tokens) });
  const events: Array<[string, Json]> = [];
  const output: Json[] = [];
  const item = (added: Json, deltas: Array<[string, Json]>, done: Json): void => {
    const output_index = output.length;
    events.push(
      ["response.output_item.added", { output_index, item: added }],
      ...deltas.map(([t, e]): [string, Json] => [t, { ...e, output_index }]),
    );
    events.push(["response.output_item.done", { output_index, item: done }]);
    output.push(done);
  };
  const textItem = (kind: "reasoning" | "message", tokens: readonly string[]): void => {
    const id = idOf(kind === "message" ? "msg" : "rs", model.id);
    const text = tokens.join("");
    const empty =
      kind === "message"
        ? { type: "output_text", text: "", annotations: [], logprobs: [] }
        : { type: "reasoning_text", text: "" };
    const part = { ...empty, text };
    const at = { item_id: id, content_index: 0 };
    const deltaType = kind === "message" ? "response.output_text.delta" : "response.reasoning_text.delta";
    const deltas: Array<[string, Json]> = [
      ["response.content_part.added", { ...at, part: empty }],
      ...tokens.map((delta): [string, Json] => [
        deltaType,
        { ...at, delta, ...(kind === "message" ? { logprobs: [] } : {}) },
      ]),
      [kind === "message" ? "response.output_text.done" : "response.reasoning_text.done", { ...at, text }],
      ["response.content_part.done", { ...at, part }],
    ];
    const head =
      kind === "message" ? { id, type: "message", role: "assistant" } : { id, type: "reasoning", summary: [] };
    item({ ...head, status: "in_progress", content: [] }, deltas, { ...head, status: "completed", content: [part] });
  };
  if (reasoning.length > 0) textItem("reasoning", reasoning);
  if (tool) {
    const args = JSON.stringify(tool.arguments);
    const head = {
      id: idOf("fc", model.id),
      type: "function_call",
      call_id: idOf("call", model.id, 24),
      name: tool.name,
    };
    const pieces = jsonTokens(args).map((delta): [string, Json] => [
      "response.function_call_arguments.delta",
      { item_id: head.id, delta },
    ]);
    pieces.push(["response.function_call_arguments.done", { item_id: head.id, name: tool.name, arguments: args }]);
    item({ ...head, arguments: "", status: "in_progress" }, pieces, { ...head, arguments: args, status: "completed" });
  } else textItem("message", generation.tokens);
  const outputTokens =
    reasoning.length + (tool ? jsonTokens(JSON.stringify(tool.arguments)).length : generation.generatedTokens);
  const inputTokens = countPromptTokens(messages);
  const cut = !tool && generation.reason === "length";
  const response: Json = {
    id: idOf("resp", model.id), object: "response", created_at: CREATED, status: cut ? "incomplete" : "completed", model: model.id,
    output, error: null, incomplete_details: cut ? { reason: "max_output_tokens" } : null,
    instructions: body.instructions ?? null, max_output_tokens: body.max_output_tokens ?? null, metadata: body.metadata ?? {},
    temperature: asNumber(body.temperature) ?? 1, top_p: asNumber(body.top_p) ?? 1, tools: body.tools ?? [], tool_choice: body.tool_choice ?? "auto",
    parallel_tool_calls: true, text: body.text ?? { format: { type: "text" } }, reasoning: body.reasoning ?? null,
    usage: {
      input_tokens: inputTokens, input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: reasoning.length }, total_tokens: inputTokens + outputTokens,
    },
  }; // prettier-ignore
  return { response, events };
}

/** One event as the wire carries it: its type as `event:`, then its data with the type and `sequence_number`. */
function frame(type: string, data: Json, sequence: number): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: sequence })}`;
}

/** `POST /v1/responses`: `input` is required; everything else is taken as it is. */
export function openAiResponses(exchange: Exchange): Response {
  const body = parseJson(exchange.text);
  if (!isRecord(body))
    return jsonResponse(400, openAiErrorBody("The body must be a JSON object", "invalid_request_error", 400));
  if (typeof body.input !== "string" && !Array.isArray(body.input)) {
    return jsonResponse(400, {
      error: {
        message: "Missing required parameter: 'input'.",
        type: "invalid_request_error",
        param: "input",
        code: "missing_required_parameter",
      },
    });
  }
  const { response, events } = plan(exchange, body);
  if (body.stream !== true) return jsonResponse(200, response);
  const started = { ...response, status: "in_progress", output: [], usage: null, incomplete_details: null };
  const all: Array<[string, Json]> = [
    ["response.created", { response: started }],
    ["response.in_progress", { response: started }],
    ...events,
  ];
  all.push([response.status === "incomplete" ? "response.incomplete" : "response.completed", { response }]);
  const wire = all.map(([type, data], i) => frame(type, data, i));
  const overloaded = (sent: number) => [
    frame("error", { code: "server_is_overloaded", message: OVERLOADED, param: null }, sent),
  ];
  const failed = (fault: Extract<StreamFault, { type: "responseFailed" }>, sent: number) => {
    const error = {
      code: fault.code ?? "server_error",
      message: fault.message ?? "The model failed to generate a response.",
    };
    return [frame("response.failed", { response: { ...started, status: "failed", error } }, sent)];
  };
  return streamWithFaults(exchange, wire, "", overloaded, failed);
}
