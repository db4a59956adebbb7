/**
 * Responses arguments as chat arguments, for servers without the Responses API (TGI, the transformers
 * pipeline): instructions → a system message, input items → messages (consecutive function calls one
 * assistant message with `tool_calls`, their outputs `tool` messages), `max_output_tokens` →
 * `max_tokens`, function tools → chat tools, `text.format` → `response_format`.
 */
import { InputError } from "../../core/errors";
import type {
  OneChatArgs,
  ChatCompletionInputMessage,
  ChatCompletionInputMessageChunk,
  ChatCompletionInputTool,
  OneResponsesArgs,
  ResponsesFunctionTool,
  ResponsesInputContentPart,
  ResponsesInputItem,
} from "../../types";
import type { JsonObject } from "../../core/json";

function chatPart(part: ResponsesInputContentPart): ChatCompletionInputMessageChunk {
  if (part.type === "input_image")
    return {
      type: "image_url",
      image_url: { url: String(part.image_url ?? ""), ...(part.detail ? { detail: part.detail } : {}) },
    };
  return { type: "text", text: part.text ?? "" };
}

/** A message's content: a string as is, a list of parts as chat parts (one text part as a string, which every server takes). */
function chatContent(content: string | ResponsesInputContentPart[]): ChatCompletionInputMessage["content"] {
  if (typeof content === "string") return content;
  const parts = content.map(chatPart);
  return parts.every((p) => p.type === "text") ? parts.map((p) => p.text).join("") : parts;
}

/** The input items as chat messages, after the instructions' system message. */
export function chatMessages(args: OneResponsesArgs): ChatCompletionInputMessage[] {
  const messages: ChatCompletionInputMessage[] = [];
  if (args.instructions) messages.push({ role: "system", content: args.instructions });
  const items: ResponsesInputItem[] =
    typeof args.input === "string" ? [{ role: "user", content: args.input }] : args.input;
  for (const item of items) {
    if (item.type === "function_call") {
      const call = { id: item.call_id, type: "function", function: { name: item.name, arguments: item.arguments } };
      const last = messages[messages.length - 1];
      if (last?.role === "assistant" && last.tool_calls && !last.content) last.tool_calls.push(call);
      else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (item.type === "function_call_output")
      messages.push({ role: "tool", tool_call_id: item.call_id, content: item.output });
    else if (item.type === undefined || item.type === "message")
      messages.push({ role: item.role, content: chatContent(item.content) });
    // Other items (an earlier answer's reasoning) have no chat form: the model does not read them back.
  }
  return messages;
}

function chatTools(tools: ResponsesFunctionTool[] | undefined): ChatCompletionInputTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool, i) => {
    if (tool.type !== "function") {
      throw new InputError(
        `\`tools[${i}]\`: a \`${tool.type}\` tool needs a server with the Responses API; this model is served over chat completions, which takes functions only`,
        `tools[${i}].type`,
      );
    }
    const fn: JsonObject = { name: tool.name };
    if (tool.description !== undefined) fn.description = tool.description;
    if (tool.parameters !== undefined) fn.parameters = tool.parameters;
    return { type: "function", function: fn as ChatCompletionInputTool["function"] };
  });
}

function chatToolChoice(choice: OneResponsesArgs["tool_choice"]): unknown {
  if (typeof choice === "object" && choice !== null) return { type: "function", function: { name: choice.name } };
  return choice;
}

function responseFormat(args: OneResponsesArgs): OneChatArgs["response_format"] {
  const format = args.text?.format;
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object") return { type: "json_object" };
  const schema: JsonObject = { name: format.name, schema: format.schema };
  if (format.strict !== undefined) schema.strict = format.strict;
  if (format.description !== undefined) schema.description = format.description;
  return { type: "json_schema", json_schema: schema };
}

/** The chat arguments of a Responses call (the route's fields kept: `model`, `provider`, `endpointUrl`, `accessToken`). */
export function toChatArgs(args: OneResponsesArgs, stream: boolean): OneChatArgs {
  const chat: OneChatArgs = { messages: chatMessages(args) };
  const copy = <K extends keyof OneChatArgs>(to: K, value: OneChatArgs[K] | null | undefined): void => {
    if (value != null) chat[to] = value;
  };
  copy("model", args.model);
  copy("accessToken", args.accessToken);
  copy("endpointUrl", args.endpointUrl);
  copy("provider", args.provider);
  copy("temperature", args.temperature);
  copy("top_p", args.top_p);
  copy("max_tokens", args.max_output_tokens);
  copy("user", args.user);
  // Other tool types are refused by `checkChatServable` only if the call is served over chat.
  const tools = chatTools(args.tools?.filter((tool) => tool.type === "function"));
  if (tools) chat.tools = tools;
  if (tools && args.tool_choice != null) chat.tool_choice = chatToolChoice(args.tool_choice);
  const format = responseFormat(args);
  if (format) chat.response_format = format;
  // The usage of the stream's last chunk becomes the response's.
  if (stream) chat.stream_options = { include_usage: true };
  return chat;
}

/** What a chat-served model cannot do that the Responses API can: refused before the chat request. */
export function checkChatServable(args: OneResponsesArgs): void {
  if (args.previous_response_id != null) {
    throw new InputError(
      "`previous_response_id` needs a server with the Responses API (it keeps the earlier response); send the conversation as `input`",
      "previous_response_id",
    );
  }
  chatTools(args.tools);
}
