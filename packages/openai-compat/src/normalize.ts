import type { ChatCompletionOutput, ChatCompletionStreamOutput } from "@hfkit/inference";

/**
 * Answers as OpenAI sends them, whatever the server sent: `object` set (TGI < 2.1 says
 * `"text_completion"`), an id where the server gave none or `""` (TGI), an id on every tool call (TGI
 * sends `"id": ""`, and LangChain drops a tool call without one), and `finish_reason: "tool_calls"`
 * where the server said `"stop"` for an answer that calls tools (TGI).
 */

type Json = Record<string, unknown>;

type Crypto = { randomUUID?: () => string; getRandomValues?: (b: Uint8Array) => Uint8Array };

/** `bytes` random bytes as hex digits (at most 16). */
function hex(bytes: number): string {
  const crypto = (globalThis as { crypto?: Crypto }).crypto;
  // A UUID's 32 digits (122 random bits) come from a pooled source: a tenth of the cost of getRandomValues per id.
  if (crypto?.randomUUID)
    return crypto
      .randomUUID()
      .replace(/-/g, "")
      .slice(0, 2 * bytes);
  const buffer = new Uint8Array(bytes);
  if (crypto?.getRandomValues) crypto.getRandomValues(buffer);
  else for (let i = 0; i < bytes; i++) buffer[i] = Math.floor(Math.random() * 256);
  return Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A completion id as OpenAI's look: `chatcmpl-` and 32 hex digits. */
export const newCompletionId = (): string => `chatcmpl-${hex(16)}`;
/** A tool-call id as OpenAI's look: `call_` and 24 hex digits. */
export const newToolCallId = (): string => `call_${hex(12)}`;

const missing = (id: unknown): boolean => typeof id !== "string" || id === "";

/** `"stop"` becomes `"tool_calls"` when the choice called tools. */
const finishFor = (reason: unknown, calledTools: boolean): unknown =>
  calledTools && reason === "stop" ? "tool_calls" : reason;

/** A whole answer as OpenAI sends it: `id` first, `object: "chat.completion"`, tool calls with ids. */
export function openAICompletion(out: ChatCompletionOutput): Json {
  const { id, object: _object, ...rest } = out as ChatCompletionOutput & { object?: unknown };
  const choices = (out.choices ?? []).map((choice) => {
    const calls = choice.message?.tool_calls;
    if (!Array.isArray(calls) || calls.length === 0) return choice;
    const tool_calls = calls.map((call) => (missing(call.id) ? { ...call, id: newToolCallId() } : call));
    return {
      ...choice,
      message: { ...choice.message, tool_calls },
      finish_reason: finishFor(choice.finish_reason, true),
    };
  });
  return { id: missing(id) ? newCompletionId() : id, object: "chat.completion", ...rest, choices };
}

/**
 * A stream's chunks as OpenAI sends them, one stream at a time: one id on every chunk (the server's
 * first, else a generated one), `object: "chat.completion.chunk"`, and per (choice, tool-call index) one
 * id: the server's, else a generated one put on every delta where the server sent `""` and on the
 * call's first delta when it sent none; `"stop"` after tool calls becomes `"tool_calls"`.
 */
export function openAIChunks(): OpenAIChunks {
  let streamId: string | undefined;
  const callIds = new Map<string, string>();
  const calledTools = new Set<number>();
  const asText = (chunk: ChatCompletionStreamOutput, text: string): string | undefined => {
    const { id } = chunk;
    if ((chunk as { object?: unknown }).object !== "chat.completion.chunk") return undefined;
    for (const choice of chunk.choices ?? []) {
      const calls = choice.delta?.tool_calls;
      if (Array.isArray(calls) && calls.length > 0) return undefined;
      if (finishFor(choice.finish_reason, calledTools.has(choice.index)) !== choice.finish_reason) return undefined;
    }
    if (id === "" && text.startsWith(TGI_HEAD) && !text.includes('"id"', TGI_HEAD.length)) {
      // TGI's empty id, the text's first key after `object`, and no other: the stream's id put in its place.
      streamId ??= newCompletionId();
      return `{"object":"chat.completion.chunk","id":"${streamId}"${text.slice(TGI_HEAD.length)}`;
    }
    if (missing(id) || (streamId !== undefined && id !== streamId)) return undefined;
    streamId = id;
    return text;
  };
  const fix = (chunk: ChatCompletionStreamOutput): Json => {
    const { id, object: _object, ...rest } = chunk as ChatCompletionStreamOutput & { object?: unknown };
    streamId ??= missing(id) ? newCompletionId() : id;
    const choices = (chunk.choices ?? []).map((choice) => {
      const calls = choice.delta?.tool_calls;
      if (!Array.isArray(calls) || calls.length === 0) {
        const finish = finishFor(choice.finish_reason, calledTools.has(choice.index));
        return finish === choice.finish_reason ? choice : { ...choice, finish_reason: finish };
      }
      calledTools.add(choice.index);
      const tool_calls = calls.map((call) => {
        const key = `${choice.index}:${call.index}`;
        const known = callIds.get(key);
        if (!missing(call.id)) {
          callIds.set(key, call.id);
          return call;
        }
        // The server sent no id key and this call already has one: OpenAI's own later deltas carry none.
        if (call.id === undefined && known !== undefined) return call;
        const given = known ?? newToolCallId();
        callIds.set(key, given);
        return { ...call, id: given };
      });
      return {
        ...choice,
        delta: { ...choice.delta, tool_calls },
        finish_reason: finishFor(choice.finish_reason, true),
      };
    });
    return { id: streamId, object: "chat.completion.chunk", ...rest, choices };
  };
  return Object.assign(fix, { asText });
}

/** How TGI's chunks begin (its `object` first, its id empty): the id can be filled in without serialising. */
const TGI_HEAD = '{"object":"chat.completion.chunk","id":""';

/** One stream's chunks made OpenAI's (see {@link openAIChunks}). */
export interface OpenAIChunks {
  (chunk: ChatCompletionStreamOutput): Json;
  /**
   * The chunk as OpenAI's JSON text from `text`, what the server sent for it (`eventText`): that text when it needs no
   * change, or with the stream's id in place of TGI's empty one; undefined when it must be serialised.
   */
  asText(chunk: ChatCompletionStreamOutput, text: string): string | undefined;
}
