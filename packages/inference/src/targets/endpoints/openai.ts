/**
 * Any OpenAI-protocol server: the HF router and its providers, vLLM, SGLang, llama.cpp's server,
 * Ollama's OpenAI route, TGI ≥ 3. Their differences are the dialect rules of `dialects.ts`, applied
 * to every chunk, not code paths of their own.
 */
import { serverText } from "../../core/redact";
import { isGreedy } from "../../checks/params";
import { MalformedEventError } from "../../core/errors";
import { toHttpError } from "../../core/errorTable";
import type { ChatContext } from "../chat";
import { arraySource, type Source, type StreamRules } from "../../core/source";
import { isEventStream, type Origin, parseMaybeJson, readText, type Reply } from "../../core/request";
import { EventStream } from "../../core/sse";
import type { ChatCompletionOutput, ChatCompletionStreamOutput } from "../../types";
import type { ChatBackend, Request } from "./backend";
import { isRecord, type JsonObject } from "../../core/json";
import { keepEventText } from "../../core/eventText";
import {
  edited,
  normalizeChunk,
  normalizeOutput,
  splitThinking,
  splitThinkingOutput,
  type ThinkSplitter,
} from "./dialects";

/** How long to keep reading after every choice has finished, for stragglers such as a usage chunk. */
export const COMPLETION_GRACE_MS = 300;
/**
 * With `stream_options.include_usage`, how long to wait for the usage chunk after every choice has
 * finished; a server that ignores the option (TGI 2.0) must not cost every stream its idle timeout.
 */
export const USAGE_GRACE_MS = 2000;

/** Arguments that steer the client and never go on the wire. */
const CLIENT_KEYS = new Set(["accessToken", "endpointUrl", "provider", "model", "stream", "extra_body"]);

/**
 * The OpenAI chat body: the caller's arguments (null, as Python clients send, is unset), with what
 * some servers refuse sent as its equivalent that all take (TGI refuses `top_p: 0`, `top_p: 1` and
 * `presence_penalty: 0`, a `stop` string): `top_p: 0` is greedy, `top_p: 1`, `presence_penalty: 0`
 * and `n: 1` are the defaults, `stop` an array.
 */
export function chatBody(ctx: ChatContext): Record<string, unknown> {
  const { args } = ctx;
  const body: Record<string, unknown> = { model: ctx.route.bodyModel };
  for (const [key, value] of Object.entries(args)) {
    if (value != null && !CLIENT_KEYS.has(key)) body[key] = value;
  }
  // Greedy (`checks/params.ts`) is `temperature: 0`, which every server takes; `top_p` 0 or 1 is then not sent.
  if (isGreedy(args)) body.temperature = 0;
  if (args.top_p === 0 || args.top_p === 1) delete body.top_p;
  if (args.presence_penalty === 0) delete body.presence_penalty;
  if (args.n === 1) delete body.n;
  if (typeof args.stop === "string") body.stop = [args.stop];
  if (args.extra_body) Object.assign(body, args.extra_body);
  body.stream = ctx.stream;
  if (!ctx.stream) delete body.stream_options;
  return body;
}

/** A whole chat answer. */
export async function readChat(ctx: ChatContext, { res, origin }: Reply): Promise<ChatCompletionOutput> {
  const text = await readText(ctx.call, res);
  const output = toChatOutput(parseMaybeJson(text), text, origin);
  if (ctx.options.splitThinking) splitThinkingOutput(output);
  return output;
}

/** A streamed chat answer: the stream's chunks, or a whole answer yielded as chunks. */
export async function readChatStream(ctx: ChatContext, reply: Reply): Promise<Source<ChatCompletionStreamOutput>> {
  const { res, origin, release } = reply;
  if (isEventStream(res)) return new EventStream(res.body, ctx.call, chatRules(ctx, origin), origin, release).prime();
  return arraySource(outputToChunks(await readChat(ctx, reply)));
}

/** The answer is complete once each of the `n` choices has a finish_reason (and usage, if asked). */
export function chatRules(ctx: ChatContext, origin: Origin): StreamRules<ChatCompletionStreamOutput> {
  const { args } = ctx;
  const wanted = args.n ?? 1;
  const wantsUsage = args.stream_options?.include_usage === true;
  const splitters = ctx.options.splitThinking ? new Map<number, ThinkSplitter>() : undefined;
  const finished = new Set<number>();
  // Texts kept (`keepEventText`) for chunks left as sent; split thinking changes every content.
  const keep = ctx.options.keepEventText && !splitters;
  let usageSeen = false;
  return {
    accept(event, text) {
      const chunk = normalizeChunk(event as ChatCompletionStreamOutput, finished);
      if (chunk === undefined) return undefined;
      if (splitters) splitThinking(chunk, splitters);
      if (chunk.usage) usageSeen = true;
      if (keep && !edited && text !== undefined) keepEventText(chunk, text);
      return chunk;
    },
    graceAfterComplete() {
      if (finished.size < wanted) return undefined;
      if (!wantsUsage) return COMPLETION_GRACE_MS;
      return usageSeen ? 0 : USAGE_GRACE_MS;
    },
    whole: (body, text) => outputToChunks(toChatOutput(body, text, origin)),
  };
}

/** A chat answer as far as it is read: its `choices` an array. */
const hasChoices = (body: JsonObject): body is ChatCompletionOutput => Array.isArray(body.choices);

/** A 2xx JSON body as a chat answer; an error JSON is mapped, anything else quoted. */
export function toChatOutput(body: unknown, text: string, origin: Origin): ChatCompletionOutput {
  if (isRecord(body)) {
    if (body.error != null) throw toHttpError({ status: 200, body, inStream: true, ...origin });
    if (hasChoices(body)) return normalizeOutput(body);
  }
  throw new MalformedEventError(
    `Expected a chat completion, the server answered: ${serverText(text, origin.secret)}`,
    text,
    undefined,
    origin.secret,
  );
}

/** A whole answer as the two chunks a stream would give: role and content, then the finish. */
export function outputToChunks(out: ChatCompletionOutput): ChatCompletionStreamOutput[] {
  const head = {
    id: out.id ?? "",
    object: "chat.completion.chunk",
    created: out.created ?? Math.floor(Date.now() / 1000),
    model: out.model ?? "",
    system_fingerprint: out.system_fingerprint ?? "",
  };
  const content: ChatCompletionStreamOutput = {
    ...head,
    choices: out.choices.map((c) => ({
      index: c.index ?? 0,
      delta: {
        role: c.message?.role ?? "assistant",
        content: c.message?.content ?? "",
        ...(typeof c.message?.reasoning === "string" ? { reasoning: c.message.reasoning } : {}),
        ...(c.message?.tool_calls ? { tool_calls: c.message.tool_calls.map((t, index) => ({ index, ...t })) } : {}),
      },
    })),
  };
  const finish: ChatCompletionStreamOutput = {
    ...head,
    choices: out.choices.map((c) => ({
      index: c.index ?? 0,
      delta: { role: "assistant" },
      finish_reason: c.finish_reason,
    })),
    ...(out.usage ? { usage: out.usage } : {}),
  };
  return [content, finish];
}

export const openai: ChatBackend = {
  name: "openai",
  check() {},
  request: (ctx): Request => ({ url: ctx.route.url, body: chatBody(ctx) }),
  read: readChat,
  readStream: readChatStream,
};
