/**
 * A chat or text-generation call on hf-inference, an endpoint or the router: its arguments checked
 * (an InputError before anything is sent), its route, and what it sends with.
 */
import { validateChatInput, validateGenerateInput } from "../checks/params";
import { checkArgs, sending } from "../core/sending";
import type { Call } from "../core/call";
import type { Connection, Outgoing } from "../core/request";
import type { RetryPolicy } from "../core/retry";
import type { Backend, ChatCompletionArgs, Logger, Options, TextGenerationArgs } from "../types";
import { type ChatRoute, chatRoute, generationRoute } from "./routes";

/**
 * A call, ready to send, made once and never changed: its task and arguments, where it goes, its
 * clock, how its requests are sent, its retry policy. `requests` caches each backend's request (its
 * body serialised once); `state` is what the call itself found out (the backend a detection handed off to).
 */
export interface CallContext<A = ChatCompletionArgs | TextGenerationArgs> {
  readonly task: "chat" | "generate";
  readonly stream: boolean;
  readonly args: A;
  readonly options: Options;
  readonly route: ChatRoute;
  readonly call: Call;
  readonly conn: Connection;
  readonly policy: RetryPolicy;
  readonly logger: Logger;
  readonly requests: Map<string, Outgoing>;
  readonly state: { backend?: Backend; note?: string };
}

/** Validates and routes a chat call; throws InputError before anything is sent. */
export function prepareChat(args: ChatCompletionArgs, options: Options, stream: boolean): CallContext {
  checkArgs(args, options);
  validateChatInput(args);
  return prepareCall("chat", stream, args, options, chatRoute(args, options));
}

/** Validates and routes a `generate` call (TGI's `/` and the pipeline share the URL). */
export function prepareGeneration(args: TextGenerationArgs, options: Options, stream: boolean): CallContext {
  checkArgs(args, options);
  validateGenerateInput(args);
  return prepareCall("generate", stream, args, options, generationRoute(args, options));
}

function prepareCall(task: CallContext["task"], stream: boolean, args: ChatCompletionArgs | TextGenerationArgs, options: Options, route: ChatRoute): CallContext {
  return { task, stream, args, options, route, ...sending(args, options, route.model), requests: new Map(), state: {} };
}
