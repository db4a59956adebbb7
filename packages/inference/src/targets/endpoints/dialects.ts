/**
 * How each OpenAI-protocol server's chunks differ, made one shape. Small rules, applied to every
 * chunk whatever the server, each cheap when its case is absent:
 * - TGI < 2.1: `eos_token` / `stop_sequence` finish reasons (and the EOS token's text sent with them);
 *   TGI <= 3.1: a tool-call delta as one object, numeric ids, object arguments;
 * - reasoning: vLLM's `delta.reasoning`, SGLang's, DeepSeek-style providers' and older vLLM's
 *   `delta.reasoning_content`: both yield `delta.reasoning` (the server's own field stays);
 * - chunks without choices (router providers' and Azure's leading `choices: []`, a usage-only last
 *   chunk, llama.cpp's `prompt_progress`): `choices` is always an array, and a chunk that carries
 *   nothing besides its envelope is dropped (it counts as a keep-alive, not as content);
 * - inline `<think>…</think>` in `content` (some models): split into `reasoning` when asked.
 */
import { MalformedEventError } from "../../core/errors";
import type { ChatCompletionOutput, ChatCompletionStreamOutput } from "../../types";

/** TGI < 2.1's finish reasons, both `"stop"` in OpenAI's words. */
const isOldFinish = (reason: unknown): boolean => reason === "eos_token" || reason === "stop_sequence";

/** Fields every chunk has; a choice-less chunk with nothing else (no usage, no timings, no progress) carries nothing. */
const ENVELOPE = new Set(["id", "object", "created", "model", "system_fingerprint", "choices", "service_tier"]);

function carriesSomething(chunk: Record<string, unknown>): boolean {
  for (const key in chunk) if (!ENVELOPE.has(key) && chunk[key] != null) return true;
  return false;
}

type Delta = Record<string, unknown> & { reasoning?: unknown; reasoning_content?: unknown };

/** `reasoning_content` also as `reasoning`, the name vLLM settled on; true when it was added. */
function reasoningName(part: Delta | undefined): boolean {
  if (!part || typeof part.reasoning_content !== "string" || part.reasoning !== undefined) return false;
  part.reasoning = part.reasoning_content;
  return true;
}

/** Whether `normalizeChunk` changed the last chunk: it is no longer what its text says (a `null` made absent is no change). */
export let edited = false;

/**
 * One chunk in the one shape, in place; undefined when it carries nothing (not yielded). Its
 * `choices` is always an array: read content as `chunk.choices[0]?.delta?.content`. The index of
 * each choice that finishes is added to `finished` (in the same pass); {@link edited} says whether it changed the chunk.
 */
export function normalizeChunk(
  chunk: ChatCompletionStreamOutput,
  finished?: Set<number>,
): ChatCompletionStreamOutput | undefined {
  const choices = chunk.choices;
  edited = false;
  // vLLM and others send `usage: null` and `logprobs: null`: absent, as the types (and @huggingface/tasks') say.
  if (chunk.usage === null) chunk.usage = undefined;
  if (!Array.isArray(choices) || choices.length === 0) {
    edited = !Array.isArray(choices);
    chunk.choices = [];
    return carriesSomething(chunk) ? chunk : undefined;
  }
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i]!;
    // Read as the server sent it: a chunk may come without one.
    const delta: ChatCompletionStreamOutput["choices"][number]["delta"] | undefined = choice.delta;
    const reason = choice.finish_reason;
    if (choice.logprobs === null) choice.logprobs = undefined;
    if (reason) {
      if (isOldFinish(reason)) {
        // TGI < 2.1: its finish reasons in OpenAI's words, and the EOS token's own text ("</s>") dropped (later versions send "").
        if (reason === "eos_token" && typeof delta?.content === "string") delta.content = "";
        choice.finish_reason = "stop";
        edited = true;
      }
      finished?.add(choice.index ?? 0);
    }
    if (delta == null) {
      choice.delta = { role: "assistant" };
      edited = true;
      continue;
    }
    if (reasoningName(delta)) edited = true;
    if (delta.tool_calls) {
      edited = true; // ids and arguments may be changed: tool calls are never passed on as sent
      delta.tool_calls = toolCalls(delta.tool_calls);
    }
  }
  return chunk;
}

/** A whole (non-streamed) answer in the one shape, in place, as `normalizeChunk` does. */
export function normalizeOutput(output: ChatCompletionOutput): ChatCompletionOutput {
  for (const choice of output.choices ?? []) {
    if (choice.logprobs === null) choice.logprobs = undefined;
    if (isOldFinish(choice.finish_reason)) choice.finish_reason = "stop";
    reasoningName(choice.message);
    if (choice.message?.tool_calls) choice.message.tool_calls = toolCalls(choice.message.tool_calls);
  }
  return output;
}

/** One object becomes an array; TGI 2.x's numeric ids and object arguments become strings. */
function toolCalls<C extends { id: unknown; function: { arguments: unknown } }>(calls: C[] | C): C[] {
  const list = Array.isArray(calls) ? calls : [calls];
  for (const call of list) {
    if (typeof call.id === "number") call.id = String(call.id);
    const fn = call.function;
    if (fn && typeof fn.arguments === "object" && fn.arguments !== null) fn.arguments = argumentsText(fn.arguments);
  }
  return list;
}

/** Object arguments as JSON text; nested past what JSON.stringify's stack holds, the answer is malformed (not a lost connection). */
function argumentsText(value: object): string {
  try {
    return JSON.stringify(value);
  } catch (cause) {
    throw new MalformedEventError("A tool call's arguments nest too deeply to be written as JSON text", "", cause);
  }
}

const OPEN = "<think>";
const CLOSE = "</think>";

/** The length of the longest end of `text` that begins `tag` (a tag cut across chunks). */
function partialTag(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (text.endsWith(tag.slice(0, n))) return n;
  return 0;
}

/**
 * Splits inline `<think>…</think>` out of one choice's content, across any chunk split: a piece
 * that may be the start of a tag is held back until the next piece says.
 */
export class ThinkSplitter {
  private inside = false;
  private held = "";

  /** The next piece of content, as its content and reasoning parts. */
  split(piece: string): { content: string; reasoning: string } {
    let text = this.held + piece;
    this.held = "";
    let content = "";
    let reasoning = "";
    for (;;) {
      const tag = this.inside ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      const end = at >= 0 ? at : text.length - partialTag(text, tag);
      if (this.inside) reasoning += text.slice(0, end);
      else content += text.slice(0, end);
      if (at < 0) {
        this.held = text.slice(end);
        return { content, reasoning };
      }
      text = text.slice(at + tag.length);
      this.inside = !this.inside;
    }
  }

  /** What was held back, once the choice has finished: it was no tag. */
  flush(): { content: string; reasoning: string } {
    const held = this.held;
    this.held = "";
    return this.inside ? { content: "", reasoning: held } : { content: held, reasoning: "" };
  }
}

type Part = { content?: unknown; reasoning?: unknown };

/** Moves what `parts` says is reasoning from `target.content` to `target.reasoning` (appended). */
function place(target: Part, parts: { content: string; reasoning: string }): void {
  target.content = parts.content;
  if (parts.reasoning)
    target.reasoning = (typeof target.reasoning === "string" ? target.reasoning : "") + parts.reasoning;
}

/** A chunk's contents split by one splitter per choice (made on first use). */
export function splitThinking(chunk: ChatCompletionStreamOutput, splitters: Map<number, ThinkSplitter>): void {
  for (const choice of chunk.choices) {
    const index = choice.index ?? 0;
    let splitter = splitters.get(index);
    if (!splitter) splitters.set(index, (splitter = new ThinkSplitter()));
    const delta = choice.delta;
    if (typeof delta.content === "string") place(delta, splitter.split(delta.content));
    if (choice.finish_reason) {
      const rest = splitter.flush();
      if (rest.content || rest.reasoning)
        place(delta, { content: `${delta.content ?? ""}${rest.content}`, reasoning: rest.reasoning });
    }
  }
}

/** A whole answer's contents split, as `splitThinking` does for a stream. */
export function splitThinkingOutput(output: ChatCompletionOutput): void {
  for (const choice of output.choices) {
    const message = choice.message;
    if (typeof message.content !== "string") continue;
    const splitter = new ThinkSplitter();
    const parts = splitter.split(message.content);
    const rest = splitter.flush();
    place(message, { content: parts.content + rest.content, reasoning: parts.reasoning + rest.reasoning });
  }
}
