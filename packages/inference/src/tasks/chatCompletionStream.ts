import { normalizeChunk } from "../backends/tgi";
import { isEventStream, originOf, parseMaybeJson, readText, release } from "../transport/request";
import { withRetries } from "../transport/retry";
import { EventStream, type StreamOrigin, type StreamRules } from "../transport/sse";
import type {
  ChatCompletionArgs,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  Options,
} from "../types";
import { toChatOutput } from "./chatCompletion";
import { sendChat, withZeroTemperatureFallback } from "./chatDispatch";
import { type Prepared, prepareChat } from "./prepare";
import { arraySource, type Source, StreamIterator } from "./streamIterator";

/** How long to keep reading after every choice has finished, for stragglers such as a usage chunk. */
export const COMPLETION_GRACE_MS = 300;
/**
 * With `stream_options.include_usage`, how long to wait for the usage chunk after every choice has
 * finished; a server that ignores the option (TGI 2.0) must not cost every stream its idle timeout.
 */
export const USAGE_GRACE_MS = 2000;

/**
 * A streamed chat answer as an async iterator of chunks. Nothing is thrown synchronously: bad input
 * is an InputError from the first `next()`, before any request.
 */
export function chatCompletionStream(
  args: ChatCompletionArgs,
  options: Options = {},
): AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown> {
  return new StreamIterator<ChatCompletionStreamOutput>(() => {
    const p = prepareChat(args, options, true);
    const source = withRetries(p.call, p.policy, (extra) => withZeroTemperatureFallback(p, () => openChatSource(p, args, extra)));
    return { call: p.call, source };
  });
}

async function openChatSource(
  p: Prepared,
  args: ChatCompletionArgs,
  extra: Record<string, string> | undefined,
): Promise<Source<ChatCompletionStreamOutput>> {
  const answer = await sendChat(p, extra);
  // The pipeline cannot stream: its one answer is yielded as a stream.
  if (answer.output) {
    p.call.finish();
    return arraySource(outputToChunks(answer.output));
  }
  const res = answer.res;
  const origin = originOf(p.call, p.spec.url, res);
  if (isEventStream(res)) {
    const stream = new EventStream(res.body, p.call, chatRules(args, origin), origin, () => release(res));
    await stream.prime();
    return stream;
  }
  // A 2xx that is not an event stream: a whole answer is yielded as a stream; an error is mapped.
  const text = await readText(p.call, res);
  p.call.finish();
  return arraySource(outputToChunks(toChatOutput(parseMaybeJson(text), text, origin)));
}

/** The answer is complete once each of the `n` choices has a finish_reason (and usage, if asked). */
export function chatRules(args: ChatCompletionArgs, origin: StreamOrigin): StreamRules<ChatCompletionStreamOutput> {
  const wanted = args.n ?? 1;
  const wantsUsage = args.stream_options?.include_usage === true;
  const finished = new Set<number>();
  let usageSeen = false;
  return {
    accept(event) {
      const chunk = normalizeChunk(event as ChatCompletionStreamOutput);
      const choices = chunk.choices;
      for (let i = 0; i < choices.length; i++) {
        const choice = choices[i]!;
        if (choice.finish_reason) finished.add(choice.index ?? 0);
      }
      if (chunk.usage) usageSeen = true;
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
        ...(c.message?.tool_calls ? { tool_calls: c.message.tool_calls.map((t, index) => ({ index, ...t })) } : {}),
      },
    })),
  };
  const finish: ChatCompletionStreamOutput = {
    ...head,
    choices: out.choices.map((c) => ({ index: c.index ?? 0, delta: { role: "assistant" }, finish_reason: c.finish_reason })),
    ...(out.usage ? { usage: out.usage } : {}),
  };
  return [content, finish];
}
