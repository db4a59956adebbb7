/** A tool's result as the text a model reads, and the cut that bounds it. */
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";

const encoder = new TextEncoder();

/** The parts of a tool's result read here. */
export interface ResultParts {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  /** The result of a server of protocol version 2024-10-07, read as `structuredContent`. */
  toolResult?: unknown;
}

/**
 * The text of a result: each part on its own line, text as it is, images, audio and resources as a short note of
 * their type and size; `structuredContent` as JSON (first) when no part is text.
 */
export function resultText({ content = [], structuredContent, toolResult }: ResultParts): string {
  const lines = content.map(partText);
  const structured = structuredContent ?? toolResult;
  if (structured !== undefined && !content.some((part) => part.type === "text"))
    lines.unshift(JSON.stringify(structured));
  return lines.join("\n");
}

function partText(part: ContentBlock): string {
  if (part.type === "text") return part.text;
  if (part.type === "image" || part.type === "audio")
    return note(part.type, part.mimeType, `${base64Bytes(part.data)} bytes`);
  if (part.type === "resource") {
    const { resource } = part;
    const bytes = "blob" in resource ? base64Bytes(resource.blob) : utf8Bytes(resource.text);
    return note("resource", resource.uri, resource.mimeType, `${bytes} bytes`);
  }
  return note(
    "resource link",
    part.uri,
    part.name,
    part.mimeType,
    part.size === undefined ? undefined : `${part.size} bytes`,
  );
}

function note(type: string, ...facts: (string | undefined)[]): string {
  return `[${type}: ${facts.filter((fact) => fact).join(", ")}]`;
}

/**
 * `text` cut to at most `maxBytes` of UTF-8 (never inside a character), with a line after the cut saying how much
 * was left out; as it is when it fits.
 */
export function cutText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text; // a UTF-16 unit is at most 3 bytes of UTF-8
  const total = utf8Bytes(text);
  if (total <= maxBytes) return text;
  const { read, written } = encoder.encodeInto(text, new Uint8Array(maxBytes));
  return `${text.slice(0, read)}\n[… cut: ${total - written} of ${total} bytes left out (maxResultBytes: ${maxBytes})]`;
}

function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** The size of what base64 `data` encodes. */
function base64Bytes(data: string): number {
  const digits = data.replace(/[\s=]/g, "").length;
  return Math.floor((digits * 3) / 4);
}
