import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { InferenceError, InputError, type Options, type RetryEvent } from "@hfkit/inference";
import { chatAnswer } from "./answer";
import { responsesAnswer } from "./responses";
import {
  clientUrl,
  DEFAULT_MAX_BODY_BYTES,
  loopbackArgs,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  readBody,
  sameHost,
} from "./guard";
import { listModels } from "./models";
import { sseEvent, toOpenAIError } from "./protocol";
import { discard, send } from "./relay";
import type { RequestTrace } from "./report";
import {
  createTelemetry,
  isScrape,
  observing,
  scrape,
  type Telemetry,
  type TelemetryOptions,
  traceOf,
} from "./telemetry";
import { isModelsPath, type OpenAIRoute, openAIRoute, proxyRoute, type TargetKind, targetKind } from "./target";
import { upstreamFetch } from "./upstream";
import { answerHealth, isHealthRoute, type ProxyHealth, proxyHealth, type ProxyHealthOptions } from "./proxyHealth";

/** The options of the proxy: where it forwards, its limits, and any InferenceClient option for the calls it makes. */
export interface ProxyOptions
  extends Omit<Options, "baseUrl" | "endpointUrl" | "signal" | "onRetry" | "provider" | "health">, TelemetryOptions {
  /**
   * The health of the targets the calls fail over between, as the calls' `health` option; with `redis` (a
   * `redis://` URL) the proxy's replicas share it. `GET /health/targets` answers it to loopback clients.
   */
  health?: ProxyHealthOptions;
  /**
   * The router's provider for requests whose body names none, or providers tried in order before the first token
   * (a request's own `provider`, a name or a list, and its `fallbackModels` win). Default `"auto"`.
   */
  provider?: string | readonly string[];
  /**
   * Where chat goes. An hf-inference base (`https://router.huggingface.co/hf-inference`): chat goes to
   * `{target}/models/{model}/v1/chat/completions`. The HF router (`https://router.huggingface.co`, or
   * `…/v1`): the body's model as is (`org/name[:provider]`). A dedicated endpoint or another
   * OpenAI-protocol server: `{target}/v1/chat/completions` (see `endpoint`).
   */
  target: string;
  /**
   * Whether `target` is a dedicated endpoint. `true`: always; `false`: never; default: detected, an
   * endpoint when its host is `*.endpoints.huggingface.cloud`, its path has a segment `endpoints/{name}`
   * or ends in `/v1`, or (per request) the body's model names no Hub model (absent, `""`, `"tgi"`).
   */
  endpoint?: boolean;
  /** Request bodies above this many bytes get 413, as soon as the declared length or the bytes read pass it. Default 2 MB. */
  maxBodyBytes?: number;
  /** While a model loads, commit to a 200 after this long and keep the client waiting. Default 20 s. */
  commitAfterMs?: number;
  /** Interval of keep-alive comments once committed. Default 10 s. */
  keepAliveMs?: number;
  /** Model ids listed by `GET /v1/models`; default: the target's own list (an endpoint's model, the router's models), none for an hf-inference base. */
  models?: string[];
}

/**
 * The proxy's `http.Server`; every form of `listen` that names no host or pipe binds 127.0.0.1, and a
 * named host that is `""`, `null` or not a string throws an InputError (field `host`) before any bind.
 */
export interface ProxyServer extends Server {
  /** Closes the server, ends every answer in flight and frees every socket. */
  shutdown(): Promise<void>;
  /**
   * Where clients reach it once it listens on a port, e.g. `http://127.0.0.1:54321`: IPv6 bracketed, a
   * wildcard bind as loopback; undefined before, or on a pipe.
   */
  url(): string | undefined;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
};

const fail = (
  res: ServerResponse,
  status: number,
  message: string,
  type = "invalid_request_error",
  headers?: Record<string, string>,
): void => json(res, status, { error: { message, type, code: null } }, headers);

/** An hfkit error as OpenAI's status and error body. */
const failWith = (res: ServerResponse, error: unknown): void => {
  const { status, body } = toOpenAIError(error);
  json(res, status, body);
};

/**
 * An OpenAI-compatible proxy in front of HF backends, for clients in any language. It binds
 * 127.0.0.1 for every form of `listen` that names no host, refuses any request with an `Origin` or
 * another `Host` (no web page and no DNS rebinding can reach it), and forwards the caller's
 * `Authorization` to the target only: it holds no token of its own, so `headers` may not carry one.
 */
export function createProxy(options: ProxyOptions): ProxyServer {
  refuseOwnToken(options);
  const kind = targetKind(targetUrl(options.target), options.endpoint);
  const health = proxyHealth(options.health, options.logger);
  const proxy: Proxy = { options, kind, inFlight: new Set(), telemetry: createTelemetry(options), health };
  const { inFlight } = proxy;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void respond(req, res, proxy)) as ProxyServer;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const listen = server.listen.bind(server) as (...args: unknown[]) => Server;
  server.listen = ((...args: unknown[]) => listen(...loopbackArgs(args))) as unknown as ProxyServer["listen"];
  server.url = () => {
    const address = server.address();
    return typeof address === "object" && address !== null ? clientUrl(address) : undefined;
  };
  server.shutdown = () =>
    new Promise<void>((resolve) => {
      for (const c of inFlight) c.abort();
      server.close(() => void health.close().then(resolve));
      for (const s of sockets) s.destroy();
    });
  return server;
}

/** One proxy's options, what its target serves, and the calls in flight. */
interface Proxy {
  options: ProxyOptions;
  kind: TargetKind;
  inFlight: Set<AbortController>;
  /** Its log and metrics; undefined when both are off. */
  telemetry: Telemetry | undefined;
  health: ProxyHealth;
}

function targetUrl(target: unknown): URL {
  try {
    const url = new URL(String(target));
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // Refused below.
  }
  throw new InputError(
    `\`target\` must be an absolute http:// or https:// URL (got ${JSON.stringify(String(target)).slice(0, 120)})`,
    "target",
  );
}

function refuseOwnToken(options: ProxyOptions): void {
  if (Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === "authorization")) {
    throw new InputError(
      "The proxy holds no token of its own: it forwards each caller's `Authorization`; remove it from `headers`",
      "headers",
    );
  }
}

/**
 * Starts a proxy on `host` (default 127.0.0.1; `""`, `null` or a non-string is an InputError before
 * any bind) and `port` (default: a free one). Any other host than loopback makes the proxy reachable
 * from the network: see the README.
 */
export async function startProxy(options: ProxyOptions & { port?: number; host?: string }): Promise<{
  /** Where clients reach it, e.g. `http://127.0.0.1:54321` (see `ProxyServer.url`); clients use `{url}/v1`. */
  url: string;
  /** The underlying server. */
  server: ProxyServer;
  /** Stops the proxy: ends every answer in flight and frees every socket. */
  close(): Promise<void>;
}> {
  const server = createProxy(options);
  const { port = 0, host } = options;
  // A port in use (EADDRINUSE) rejects here instead of crashing the process as an unhandled 'error'.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // The object form: a non-string host is then refused, never taken for a backlog.
    server.listen({ port, ...(host === undefined ? {} : { host }) }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return { url: server.url()!, server, close: () => server.shutdown() };
}

/** Answers one request; whatever it meets (a client that leaves, a bug) ends there, and the server serves on. */
async function respond(req: IncomingMessage, res: ServerResponse, proxy: Proxy): Promise<void> {
  const { options } = proxy;
  const trace = traceOf(req, res, proxy.telemetry);
  try {
    await handle(req, res, proxy, trace);
  } catch (error) {
    // The client left (e.g. mid-body): there is no one to answer.
    if (res.destroyed || req.socket.destroyed) return void res.destroy();
    (options.logger ?? console).warn(
      `The proxy failed to answer ${req.method} ${(req.url ?? "/").split("?")[0]}: ${String(error)}`,
    );
    if (res.headersSent) return void res.destroy();
    if (error instanceof InferenceError) return failWith(res, error);
    fail(res, 500, "The proxy failed to answer this request", "server_error");
  }
}

/** Its routes, tolerantly: `[/v1]/chat/completions[/]`, `[/v1]/responses[/]` and `[/v1]/models[/]`. */
async function handle(req: IncomingMessage, res: ServerResponse, proxy: Proxy, trace: RequestTrace): Promise<void> {
  const { options, inFlight } = proxy;
  if (req.headers.origin !== undefined)
    return fail(res, 403, "Requests from web pages are refused", "permission_error");
  if (!sameHost(req)) return fail(res, 421, "Unexpected Host header", "permission_error");
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  if (req.method === "GET" && isModelsPath(path)) {
    trace.route = "/v1/models";
    return models(req, res, proxy);
  }
  if (isHealthRoute(req)) return answerHealth(req, res, proxy.health);
  const { telemetry } = proxy;
  if (telemetry?.metrics && isScrape(req, telemetry)) return scrape(res, telemetry.metrics);
  const served = req.method === "POST" ? openAIRoute(path) : undefined;
  if (served?.prefix !== "") return fail(res, 404, `No route for ${req.method} ${path}`, "not_found_error");
  trace.route = ROUTE_PATHS[served.route];
  const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const text = await readBody(req, cap);
  // The rest of the body is not read: the connection closes after the answer.
  if (text === undefined)
    return fail(res, 413, `The request body is larger than ${cap} bytes`, undefined, { connection: "close" });
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return fail(res, 400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(res, 400, "The request body is not valid JSON");
  }
  trace.asked(body);
  const controller = new AbortController();
  inFlight.add(controller);
  // Only a client that leaves before its answer is sent aborts the call (an abort costs an exception's stack).
  const abort = (): void => controller.abort();
  res.on("close", abort);
  try {
    await forward(served.route, body, req, res, proxy, { signal: controller.signal, trace });
  } finally {
    res.off("close", abort);
    inFlight.delete(controller);
  }
}

const bearer = (req: IncomingMessage): string | undefined =>
  /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];

/** `GET /v1/models`: see {@link listModels}; the call ends when the client leaves, or after `timeout` (default 30 s). */
async function models(req: IncomingMessage, res: ServerResponse, proxy: Proxy): Promise<void> {
  const { options, kind } = proxy;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.min(options.timeout ?? 30_000, 2 ** 31 - 1));
  res.on("close", () => controller.abort());
  proxy.inFlight.add(controller);
  try {
    const { status, body } = await listModels({ ...options, kind }, bearer(req), controller.signal);
    if (!res.destroyed) json(res, status, body);
  } finally {
    clearTimeout(timer);
    proxy.inFlight.delete(controller);
  }
}

/** Runs the call; while a model loads past `commitAfterMs`, commits to a 200 and sends keep-alives. */
async function forward(
  served: OpenAIRoute,
  body: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  proxy: Proxy,
  { signal, trace }: { signal: AbortSignal; trace: RequestTrace },
): Promise<void> {
  const { target, endpoint, commitAfterMs = 20_000, keepAliveMs = 10_000, provider } = proxy.options;
  const core = { ...callOptions(proxy.options), health: proxy.health.option };
  const observe = proxy.telemetry ? observing(trace, core.observe) : core.observe;
  const token = bearer(req);
  const streaming = (body as { stream?: unknown } | null)?.stream === true;
  let commitTimer: ReturnType<typeof setTimeout> | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const commit = (): void => {
    res.writeHead(200, { "content-type": streaming ? "text/event-stream" : "application/json" });
    // Comments for a stream, and whitespace (valid before JSON) for a plain answer, keep clients waiting.
    const ping = (): boolean => res.write(streaming ? ": loading\n\n" : " ");
    ping();
    keepAlive = setInterval(ping, keepAliveMs);
  };
  const stop = (): void => {
    clearTimeout(commitTimer);
    clearInterval(keepAlive);
  };
  const onRetry = (event: RetryEvent): void => {
    if (event.reason === "loading" && !commitTimer && !res.headersSent) commitTimer = setTimeout(commit, commitAfterMs);
  };
  try {
    const list = typeof provider === "string" ? undefined : provider;
    const model = (body as { model?: unknown } | null)?.model;
    const named = list ? undefined : (provider as string | undefined);
    const route = proxyRoute(target, proxy.kind, endpoint, model, named, proxy.options.routerUrl);
    // A provider list is a default for a chat whose body names no provider of its own.
    const callBody =
      list && served === "chat" && isObject(body) && body.provider === undefined ? { ...body, provider: list } : body;
    // "" and not undefined: a caller without a token goes without one, never with one from the environment.
    const answerWith = served === "chat" ? chatAnswer : responsesAnswer;
    const answer = await answerWith(
      { body: callBody, accessToken: token ?? "", signal },
      { ...core, ...route, onRetry, observe },
    );
    stop();
    // The client left: nothing to send.
    if (signal.aborted) return void (await discard(answer));
    await send(answer, res, streaming);
  } catch (error) {
    stop();
    if (signal.aborted) return;
    if (!res.headersSent) return failWith(res, error);
    res.end(streaming ? sseEvent(toOpenAIError(error).body) : "");
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The paths a log line names for the routes served. */
const ROUTE_PATHS: Record<OpenAIRoute, string> = { chat: "/v1/chat/completions", responses: "/v1/responses" };

/** The options of the calls the proxy makes: its own taken out. */
function callOptions(options: ProxyOptions): Options {
  const {
    target: _t,
    endpoint: _e,
    maxBodyBytes: _b,
    commitAfterMs: _c,
    keepAliveMs: _k,
    models: _m,
    provider: _p,
    log: _l,
    logTo: _s,
    metrics: _x,
    ...core
  } = options;
  // A `fetch` or `fetchOptions` of the caller's own is used as given.
  return core.fetch || core.fetchOptions ? core : { ...core, fetch: upstreamFetch };
}
