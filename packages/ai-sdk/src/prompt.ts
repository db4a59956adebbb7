/** The AI SDK's prompt as the chat messages of `@hfkit/inference` (OpenAI's and TGI's Messages API). */
import { UnsupportedFunctionalityError } from "./spec/errors";
import type { FileData, FilePart, Prompt, TextPart, ToolResultOutput } from "./spec/types";
import type {
  ChatCompletionInputMessage,
  ChatCompletionInputMessageChunk,
  ChatCompletionInputToolCall,
} from "@hfkit/inference";

/**
 * System, user, assistant and tool messages as chat messages: text and image parts, tool calls with
 * their arguments as a JSON string, one `"tool"` message per tool result. Reasoning parts of earlier
 * assistant turns are not sent back (chat templates drop them, and some servers refuse them).
 */
export function toChatMessages(prompt: Prompt): ChatCompletionInputMessage[] {
  const messages: ChatCompletionInputMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        messages.push({ role: "system", content: message.content });
        break;
      case "user":
        messages.push({ role: "user", content: userContent(message.content) });
        break;
      case "assistant": {
        let text = "";
        const toolCalls: ChatCompletionInputToolCall[] = [];
        for (const part of message.content) {
          if (part.type === "text") text += part.text;
          else if (part.type === "tool-call" && part.providerExecuted !== true) {
            toolCalls.push({
              id: part.toolCallId,
              type: "function",
              function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) },
            });
          }
          // Reasoning, provider-executed calls and their results, files and custom parts stay out.
        }
        messages.push(
          toolCalls.length > 0
            ? { role: "assistant", content: text || null, tool_calls: toolCalls }
            : { role: "assistant", content: text },
        );
        break;
      }
      case "tool":
        for (const part of message.content) {
          if (part.type === "tool-result")
            messages.push({ role: "tool", tool_call_id: part.toolCallId, content: toolOutputText(part.output) });
          // Tool approval responses concern provider-executed tools, which these servers have none of.
        }
        break;
    }
  }
  return messages;
}

/** Text alone is sent as a string (every server and TGI version takes it); with images, as parts. */
function userContent(parts: ReadonlyArray<TextPart | FilePart>): string | ChatCompletionInputMessageChunk[] {
  const chunks = parts.map(userChunk);
  if (chunks.every((chunk) => chunk.type === "text")) return chunks.map((chunk) => chunk.text).join("\n");
  return chunks;
}

function userChunk(part: TextPart | FilePart): ChatCompletionInputMessageChunk {
  if (part.type === "text") return { type: "text", text: part.text };
  const data = tagged(part.data, part.originalUrl);
  if (data.type === "text" && (part.mediaType === "text" || part.mediaType.startsWith("text/")))
    return { type: "text", text: data.text };
  if (part.mediaType !== "image" && !part.mediaType.startsWith("image/")) {
    throw new UnsupportedFunctionalityError({
      functionality: `file parts of media type ${part.mediaType} (images only)`,
    });
  }
  if (data.type === "url") return { type: "image_url", image_url: { url: data.originalUrl ?? data.url.toString() } };
  if (data.type === "data") {
    const base64 = typeof data.data === "string" ? data.data : toBase64(data.data);
    return { type: "image_url", image_url: { url: `data:${imageMediaType(part.mediaType, base64)};base64,${base64}` } };
  }
  throw new UnsupportedFunctionalityError({
    functionality: `image parts given as ${data.type} (give a URL or the image's data)`,
  });
}

/** A file's data as v4 tags it; v2 and v3 give the bytes, their base64 or a URL as they are. */
function tagged(data: FileData, originalUrl: string | undefined): Exclude<FileData, string | Uint8Array | URL> {
  if (data instanceof URL) return { type: "url", url: data, originalUrl };
  if (typeof data === "string" || data instanceof Uint8Array) return { type: "data", data };
  return data;
}

/** `image` alone (no subtype) is resolved from the data's first bytes: PNG, JPEG, GIF or WebP. */
function imageMediaType(mediaType: string, base64: string): string {
  if (mediaType.includes("/") && !mediaType.endsWith("/*")) return mediaType;
  if (base64.startsWith("iVBOR")) return "image/png";
  if (base64.startsWith("R0lGOD")) return "image/gif";
  if (base64.startsWith("UklGR")) return "image/webp";
  return "image/jpeg";
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A tool's result as the text of a `"tool"` message: text as is, JSON serialised. */
export function toolOutputText(output: ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "The tool's execution was denied.";
    case "content":
      return output.value.map((part) => (part.type === "text" ? part.text : JSON.stringify(part))).join("\n");
  }
}
