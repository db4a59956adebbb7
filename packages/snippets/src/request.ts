import { type Target, targetOf } from "./target";
import type { ChatMessage, ModelData, SnippetOptions } from "./types";

export const TOKEN_PLACEHOLDER = "hf_***";
export const DEFAULT_MESSAGES: ChatMessage[] = [{ role: "user", content: "What is the capital of France?" }];
export const DEFAULT_MAX_TOKENS = 500;

/** Everything a snippet writer needs, checked and with its defaults. */
export interface SnippetRequest {
  model: string;
  token: string;
  target: Target;
  streaming: boolean;
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number | undefined;
}

export function toRequest(model: ModelData, options: SnippetOptions): SnippetRequest {
  if (typeof model?.id !== "string" || model.id.trim() === "") {
    throw new TypeError('`model.id` must be a model id such as "org/name"');
  }
  const { max_tokens: maxTokens = DEFAULT_MAX_TOKENS, temperature, messages = DEFAULT_MESSAGES } = options;
  if (!(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new RangeError(`\`max_tokens\` must be an integer > 0 (got ${String(maxTokens)})`);
  }
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0)) {
    throw new RangeError(`\`temperature\` must be a number >= 0 (got ${String(temperature)})`);
  }
  if (!Array.isArray(messages) || messages.length === 0) throw new TypeError("`messages` must be a non-empty array");
  return {
    model: model.id,
    token: options.accessToken || TOKEN_PLACEHOLDER,
    target: targetOf(options),
    streaming: options.streaming ?? true,
    messages,
    maxTokens,
    temperature,
  };
}

/** The prompt of a text-generation snippet: the messages' text, in order. */
export function promptOf(messages: ChatMessage[]): string {
  const text = (content: ChatMessage["content"]): string =>
    typeof content === "string"
      ? content
      : content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  return messages.map((message) => text(message.content)).join("\n\n");
}
