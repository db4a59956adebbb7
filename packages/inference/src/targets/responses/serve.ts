/**
 * Where a Responses call is served: natively on servers with the Responses API (the HF router, vLLM:
 * the `openai` backend), else over chat completions (TGI, the transformers pipeline), its answer made a
 * response. An endpoint not known yet is asked natively first; a 404 of that route (not a "model does
 * not exist") sends the call over chat. What served it is remembered per endpoint, as backends are.
 */
import { backendMemory, streamTries, wholeTries } from "../endpoints/detect";
import { BACKENDS } from "../endpoints/index";
import { BoundedMemory } from "../../core/memory";
import { shared } from "../../core/shared";
import { HttpError, InputError } from "../../core/errors";
import { readErrorFields } from "../../core/errorTable";
import { type ChatContext, prepareChat } from "../chat";
import type { Call } from "../../core/call";
import { type Outgoing, type Reply, sendOnce } from "../../core/request";
import type { RetryPolicy } from "../../core/retry";
import type { Source } from "../../core/source";
import type {
  ChatCompletionArgs,
  Options,
  OneResponsesArgs,
  ResponsesArgs,
  ResponsesOutput,
  ResponsesStreamEvent,
} from "../../types";
import { ChatEventsSource, responseFromChat } from "./fromChat";
import { nativeRequest, readNative, readNativeStream } from "./native";
import { checkChatServable, toChatArgs } from "./toChat";
import { validateResponsesInput } from "./validate";
import { envelope, ResponseWriter } from "./writer";

/** A Responses call, ready to send: its arguments, and its chat form (route, clock, connection, the fallback's arguments). */
export interface ResponsesCall {
  readonly call: Call;
  readonly policy: RetryPolicy;
  readonly chat: ChatContext;
  readonly args: OneResponsesArgs;
}

/** Which route served an endpoint's Responses calls. */
export const responsesMemory = /* @__PURE__ */ shared("responses", () => new BoundedMemory<"native" | "chat">());

/** Validates and routes a Responses call; throws InputError before anything is sent. */
export function prepareResponses(args: OneResponsesArgs, options: Options, stream: boolean): ResponsesCall {
  if (typeof args !== "object" || args === null) throw new InputError("The arguments must be an object", "args");
  validateResponsesInput(args);
  const chat = prepareChat(toChatArgs(args, stream), options, stream);
  return { call: chat.call, policy: chat.policy, chat, args };
}

function takesNative({ route, options }: ChatContext): boolean {
  if (route.kind === "router") return true;
  if (options.backend) return options.backend === "openai";
  const learnt = responsesMemory.get(route.key);
  if (learnt) return learnt === "native";
  // A server already known to speak TGI or the transformers pipeline has no Responses API: over chat at once.
  const known = backendMemory.get(route.key)?.backend;
  return known === undefined || known === "openai";
}

/** A 404 that says the route is missing (TGI's empty one, a framework's "Not Found"), not the model. */
function routeMissing(error: unknown): boolean {
  return (
    error instanceof HttpError && error.status === 404 && !/does not exist/i.test(readErrorFields(error.body).message)
  );
}

/** The tries of a Responses call that does not stream (the retry loop's attempt): each resolves to the response. */
export function responseTries(r: ResponsesCall): () => Promise<ResponsesOutput> {
  const overChat = wholeTries(r.chat, BACKENDS);
  return tries(r, readNative, async () => {
    const output = await overChat();
    return responseFromChat(output, new ResponseWriter(envelope(r.args, r.chat.route.model)));
  });
}

/** The tries of a streamed Responses call (the retry loop's attempt): each resolves to the source of its events. */
export function responseStreamTries(r: ResponsesCall): () => Promise<Source<ResponsesStreamEvent>> {
  const overChat = streamTries(r.chat, BACKENDS);
  return tries(r, readNativeStream, async () => {
    const chunks = await overChat();
    return new ChatEventsSource(chunks, new ResponseWriter(envelope(r.args, r.chat.route.model)));
  });
}

/** One try: natively where the server has the route (its request made once per call), else over chat. */
function tries<T>(
  r: ResponsesCall,
  native: (ctx: ChatContext, reply: Reply) => Promise<T>,
  overChat: () => Promise<T>,
): () => Promise<T> {
  const { chat: ctx, args } = r;
  const key = ctx.route.key;
  let request: Outgoing | undefined;
  return async () => {
    if (takesNative(ctx)) {
      try {
        request ??= nativeRequest(ctx, args);
        const answer = await native(ctx, await sendOnce(ctx.call, ctx.conn, request));
        if (key) responsesMemory.set(key, "native");
        return answer;
      } catch (error) {
        if (ctx.route.kind === "router" || !routeMissing(error)) throw error;
      }
    }
    checkChatServable(args);
    const answer = await overChat();
    if (key) responsesMemory.set(key, "chat");
    return answer;
  };
}

/**
 * A Responses call as one target's arguments, and its chat form with the candidates (what the failover routes).
 * The key goes with the chat form only: each candidate is sent the token bound to its host (`features/candidates.ts`).
 */
export function responsesForm(
  args: ResponsesArgs,
  stream: boolean,
): { one: OneResponsesArgs; chat: ChatCompletionArgs } {
  if (typeof args !== "object" || args === null) throw new InputError("The arguments must be an object", "args");
  const { provider, fallbackModels, accessToken, ...one } = args;
  validateResponsesInput(one);
  return { one, chat: { ...toChatArgs(one, stream), accessToken, provider, fallbackModels } };
}
