import { chatBody } from "../backends/tgi";
import { InputError } from "../errors";
import { validateChatInput, validateForTgi } from "../params";
import { type ChatRoute, chatRoute, type RouteOptions } from "../router";
import { Call } from "../transport/call";
import type { RequestSpec } from "../transport/request";
import type { RetryPolicy } from "../transport/retry";
import type { Backend, BaseArgs, ChatCompletionArgs, Logger, Options } from "../types";

export const DEFAULT_FIRST_CHUNK_TIMEOUT = 300_000;
export const DEFAULT_IDLE_TIMEOUT = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

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

function checkDuration(options: Options, field: "timeout" | "firstChunkTimeout" | "idleTimeout"): void {
  const v = options[field];
  if (v !== undefined && !(typeof v === "number" && v > 0)) {
    throw new InputError(`\`${field}\` must be a number of milliseconds > 0 (got ${String(v)})`, field);
  }
}

function checkOptions(options: Options): void {
  checkDuration(options, "timeout");
  checkDuration(options, "firstChunkTimeout");
  checkDuration(options, "idleTimeout");
  const r = options.maxRetries;
  if (r !== undefined && !(Number.isInteger(r) && r >= 0)) {
    throw new InputError(`\`maxRetries\` must be an integer >= 0 (got ${String(r)})`, "maxRetries");
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

/** The clock, request and retry policy of a call whose arguments are valid. */
export function prepareCall<A extends BaseArgs>(args: A, options: Options, route: ChatRoute, body: unknown): Prepared<A> {
  const spec: RequestSpec = {
    url: route.url,
    body,
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
  const call = new Call({
    timeout: options.timeout,
    firstChunkTimeout: options.firstChunkTimeout ?? DEFAULT_FIRST_CHUNK_TIMEOUT,
    idleTimeout: options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT,
    signal: options.signal,
  });
  return { call, spec, policy, route, args, options, logger };
}
