import { chatBody } from "../backends/tgi";
import { InputError } from "../errors";
import { validateChatInput, validateForTgi } from "../params";
import { type ChatRoute, chatRoute, hasControl, type RouteOptions } from "../router";
import { Call, holdable } from "../transport/call";
import { type RequestSpec, serialize } from "../transport/request";
import type { RetryPolicy } from "../transport/retry";
import type { Backend, BaseArgs, ChatCompletionArgs, Logger, Options } from "../types";

export const DEFAULT_FIRST_CHUNK_TIMEOUT = 300_000;
export const DEFAULT_IDLE_TIMEOUT = 60_000;
export const DEFAULT_STALL_TIMEOUT = 300_000;
export const DEFAULT_MAX_RETRIES = 2;
/** More retries than this only hammer a failing server. */
const MAX_RETRIES = 100;

/** A call, ready to send: its clock, its request and its retry policy. */
export interface Prepared<A = ChatCompletionArgs> {
  call: Call;
  /** The first request to try (TGI's route, or an OpenAI-protocol one). */
  spec: RequestSpec;
  policy: RetryPolicy;
  route: ChatRoute;
  args: A;
  options: Options;
  logger: Logger;
  /** The backend, once known for this call. */
  backend?: Backend;
  /** What the chat route answered when it said "not TGI", for the error if the pipeline fails too. */
  chatRouteAnswer?: string;
}

type Duration = "timeout" | "firstChunkTimeout" | "idleTimeout" | "stallTimeout";

/** A duration option: a number of ms > 0, or Infinity for none; held as a timer can hold it. */
function duration(options: Options, field: Duration, fallback: number): number;
function duration(options: Options, field: Duration, fallback?: number): number | undefined;
function duration(options: Options, field: Duration, fallback?: number): number | undefined {
  const v = options[field];
  if (v === undefined) return fallback;
  if (!(typeof v === "number" && v > 0)) {
    throw new InputError(`\`${field}\` must be a number of milliseconds > 0, or Infinity for none (got ${String(v)})`, field);
  }
  return holdable(v);
}

function checkOptions(options: Options): void {
  const r = options.maxRetries;
  if (r !== undefined && !(Number.isInteger(r) && r >= 0 && r <= MAX_RETRIES)) {
    throw new InputError(`\`maxRetries\` must be an integer from 0 to ${MAX_RETRIES} (got ${String(r)})`, "maxRetries");
  }
}

/** Validates, routes and shapes a chat call; throws InputError before anything is sent. */
export function prepareChat(args: ChatCompletionArgs, options: Options, stream: boolean): Prepared {
  checkArgs(args, options);
  validateChatInput(args);
  const route = chatRoute(routeOptions(args, options));
  if (route.kind !== "router" && options.backend !== "transformers") validateForTgi(args);
  return prepareCall(args, options, route, chatBody(args, route.bodyModel, stream));
}

export function checkArgs(args: unknown, options: Options): void {
  if (typeof args !== "object" || args === null) throw new InputError("The arguments must be an object", "args");
  const token = (args as BaseArgs).accessToken;
  // Never echoed: the message names what is wrong, not the value.
  if (token !== undefined && (typeof token !== "string" || /\s/.test(token) || hasControl(token))) {
    throw new InputError("`accessToken` must be a string without white space or control characters (a token read from a file may end in a newline: trim it)", "accessToken");
  }
  checkOptions(options);
}

export function routeOptions(args: BaseArgs, options: Options): RouteOptions {
  return {
    model: args.model,
    endpointUrl: args.endpointUrl ?? options.endpointUrl,
    baseUrl: options.baseUrl,
    provider: args.provider ?? options.provider,
  };
}

/** The clock, request and retry policy of a call whose arguments are valid; the body is serialised here, once. */
export function prepareCall<A extends BaseArgs>(args: A, options: Options, route: ChatRoute, body: Record<string, unknown>): Prepared<A> {
  const limits = {
    timeout: duration(options, "timeout"),
    firstChunkTimeout: duration(options, "firstChunkTimeout", DEFAULT_FIRST_CHUNK_TIMEOUT),
    idleTimeout: duration(options, "idleTimeout", DEFAULT_IDLE_TIMEOUT),
    stallTimeout: duration(options, "stallTimeout", DEFAULT_STALL_TIMEOUT),
    signal: options.signal,
  };
  const spec: RequestSpec = {
    url: route.url,
    body: serialize(body),
    accessToken: args.accessToken,
    headers: options.headers,
    fetch: options.fetch,
    fetchOptions: options.fetchOptions,
    billTo: options.billTo,
    useCache: options.use_cache,
    onResponse: options.onResponse,
  };
  const logger = options.logger ?? console;
  const policy: RetryPolicy = {
    enabled: options.retry_on_error !== false,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    logger,
    onRetry: options.onRetry,
    model: route.model,
  };
  const call = new Call(limits, args.accessToken);
  return { call, spec, policy, route, args, options, logger };
}
