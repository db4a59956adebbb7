import { normalizeOutput } from "../backends/tgi";
import { MalformedEventError } from "../errors";
import { toHttpError } from "../errorTable";
import type { Call } from "../transport/call";
import { originOf, parseMaybeJson, readText } from "../transport/request";
import { withRetries } from "../transport/retry";
import type { StreamOrigin } from "../transport/sse";
import type { ChatCompletionArgs, ChatCompletionOutput, Options } from "../types";
import { sendChat, withZeroTemperatureFallback } from "./chatDispatch";
import { prepareChat } from "./prepare";

/** One chat answer, not streamed: resolves to the whole answer, or rejects with a typed {@link InferenceError}. */
export async function chatCompletion(args: ChatCompletionArgs, options: Options = {}): Promise<ChatCompletionOutput> {
  const p = prepareChat(args, options, false);
  try {
    return await withRetries(p.call, p.policy, (extra) =>
      withZeroTemperatureFallback(p, async () => {
        const answer = await sendChat(p, extra);
        return answer.output ?? readChatOutput(p.call, answer.res, p.spec.url);
      }),
    );
  } finally {
    p.call.finish();
  }
}

/** A 2xx body as a ChatCompletionOutput; an error JSON is mapped, anything else quoted. */
export async function readChatOutput(call: Call, res: Response, url: string): Promise<ChatCompletionOutput> {
  const text = await readText(call, res);
  const body = parseMaybeJson(text);
  return toChatOutput(body, text, originOf(call, url, res));
}

export function toChatOutput(body: unknown, text: string, origin: StreamOrigin): ChatCompletionOutput {
  if (typeof body === "object" && body !== null) {
    const b = body as Record<string, unknown>;
    if (b.error != null) throw toHttpError({ status: 200, body, inStream: true, ...origin });
    if (Array.isArray(b.choices)) return normalizeOutput(body as ChatCompletionOutput);
  }
  throw new MalformedEventError(`Expected a chat completion, the server answered: ${text.slice(0, 200)}`, text, undefined, origin.secret);
}
