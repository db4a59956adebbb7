/**
 * A chat or text-generation call on hf-inference, an endpoint or the router: its arguments checked
 * (an InputError before anything is sent), its route, and what it sends with.
 */
import { checkArgs, validateChatInput } from "../checks/params";
import { isRecord } from "../core/json";
import { sending } from "../core/sending";
import type { Call } from "../core/call";
import type { Connection } from "../core/request";
import type { RetryPolicy } from "../core/retry";
import type { ChatRouting, Logger, OneChatArgs, Options, TextGenerationArgs } from "../types";
import { type ChatRoute, chatRoute } from "./routes";

/**
 * A call, ready to send, made once and never written afterwards: its task and arguments, where it goes,
 * its clock, how its requests are sent, its retry policy. What the call finds out while it runs (the
 * backend a detection handed off to, each backend's request serialised once) lives with its tries
 * (`endpoints/detect.ts`), not here.
 */
export interface CallContext<A> {
  readonly task: "chat" | "generate";
  readonly stream: boolean;
  readonly args: A;
  readonly options: Options;
  readonly route: ChatRoute;
  readonly call: Call;
  readonly conn: Connection;
  readonly policy: RetryPolicy;
  readonly logger: Logger;
}

/** A chat call. */
export type ChatContext = CallContext<OneChatArgs>;
/** A `generate` call. */
export type GenerateContext = CallContext<TextGenerationArgs>;

/**
 * A call to one target: no `provider` list (its own or the client's) and no `fallbackModels`. Otherwise it fails
 * over (`features/failover.ts`, loaded on first use), which also refuses a `provider` that is neither a name nor a list.
 */
export const oneTarget = <A extends ChatRouting>(args: A, options: Options): args is A & { provider?: string } => {
  const provider: unknown = args?.provider ?? options.provider;
  return (provider === undefined || typeof provider === "string") && args?.fallbackModels === undefined;
};

/** Asks for JSON following a schema (`features/structured.ts`, loaded on first use, parses and checks the answer). */
export const asksSchema = (args: { response_format?: unknown }): boolean => {
  const format = args?.response_format;
  return isRecord(format) && format.type === "json_schema";
};

/**
 * The clock of a call that fails over, made when the call starts: its `timeout` and `signal` over every
 * candidate (each candidate has its own first-chunk and body limits). A bad `timeout` is an InputError here.
 */
export function spanCall(args: { accessToken?: string }, options: Options): Call {
  const none = Infinity;
  return sending(
    args,
    {
      timeout: options.timeout,
      signal: options.signal,
      firstChunkTimeout: none,
      idleTimeout: none,
      stallTimeout: none,
    },
    "",
  ).call;
}

/** Validates and routes a chat call; throws InputError before anything is sent. */
export function prepareChat(args: OneChatArgs, options: Options, stream: boolean): ChatContext {
  checkArgs(args, options);
  validateChatInput(args);
  const route = chatRoute(args, options);
  return { task: "chat", stream, args, options, route, ...sending(args, options, route.model) };
}
