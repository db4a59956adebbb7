import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, ListenOptions, Socket } from "node:net";
import { InferenceError, InputError, type Options, type RetryEvent } from "@hfkit/inference";
import { answerChat } from "./answer";
import { sseEvent, toOpenAIError } from "./protocol";

/** The options of the proxy: where it forwards, its limits, and any InferenceClient option for the calls it makes. */
export interface ProxyOptions extends Omit<Options, "baseUrl" | "endpointUrl" | "signal" | "onRetry"> {
  /** An hf-inference-style base: chat goes to `{target}/models/{model}/v1/chat/completions`. */
  target: string;
  /** Request bodies above this many bytes get 413, as soon as the declared length or the bytes read pass it. Default 2 MB. */
  maxBodyBytes?: number;
  /** While a model loads, commit to a 200 after this long and keep the client waiting. Default 20 s. */
  commitAfterMs?: number;
  /** Interval of keep-alive comments once committed. Default 10 s. */
  keepAliveMs?: number;
  /** Model ids listed by `GET /v1/models`. */
  models?: string[];
}

/** The proxy's `http.Server`; every form of `listen` that names no host or pipe binds 127.0.0.1. */
export interface ProxyServer extends Server {
  /** Closes the server, ends every answer in flight and frees every socket. */
  shutdown(): Promise<void>;
}

/** Request bodies above this many bytes get 413, unless `maxBodyBytes` says otherwise. */
const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Request bodies nesting arrays and objects deeper than this get 400, before they are parsed. */
const MAX_JSON_DEPTH = 64;
const LOOPBACK = "127.0.0.1";

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
};

const fail = (res: ServerResponse, status: number, message: string, type = "invalid_request_error", headers?: Record<string, string>): void =>
  json(res, status, { error: { message, type, code: null } }, headers);

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
  const inFlight = new Set<AbortController>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void respond(req, res, options, inFlight)) as ProxyServer;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const listen = server.listen.bind(server) as (...args: unknown[]) => Server;
  server.listen = ((...args: unknown[]) => listen(...loopbackArgs(args))) as unknown as ProxyServer["listen"];
  server.shutdown = () =>
    new Promise<void>((resolve) => {
      for (const c of inFlight) c.abort();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return server;
}

function refuseOwnToken(options: ProxyOptions): void {
  if (Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === "authorization")) {
    throw new InputError("The proxy holds no token of its own: it forwards each caller's `Authorization`; remove it from `headers`", "headers");
  }
}

const unnamed = (value: unknown): boolean => value === undefined || value === null || value === "";

/** `listen`'s arguments with 127.0.0.1 as the host when they name none; a pipe path or a handle is left as is. */
function loopbackArgs(args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (typeof first === "function") return [0, LOOPBACK, ...args];
  if (typeof first === "object" && first !== null) {
    const o = first as ListenOptions;
    return "port" in o && unnamed(o.path) && unnamed(o.host) ? [{ ...o, host: LOOPBACK }, ...rest] : args;
  }
  const isPort = unnamed(first) || typeof first === "number" || (typeof first === "string" && Number(first) >= 0);
  if (!isPort || (typeof rest[0] === "string" && rest[0] !== "")) return args;
  // listen(port, host?, backlog?, cb?): an empty host slot is dropped, a backlog or callback kept.
  return [unnamed(first) ? 0 : first, LOOPBACK, ...(rest.length > 0 && unnamed(rest[0]) ? rest.slice(1) : rest)];
}

/** Starts a proxy on `host` (default 127.0.0.1) and `port` (default: a free one). */
export async function startProxy(options: ProxyOptions & { port?: number; host?: string }): Promise<{
  /** Where it listens, e.g. `http://127.0.0.1:54321`; clients use `{url}/v1`. */
  url: string;
  /** The underlying server. */
  server: ProxyServer;
  /** Stops the proxy: ends every answer in flight and frees every socket. */
  close(): Promise<void>;
}> {
  const server = createProxy(options);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return { url: `http://${host}:${port}`, server, close: () => server.shutdown() };
}

function sameHost(req: IncomingMessage): boolean {
  const local = req.socket.localPort;
  const host = (req.headers.host ?? "").toLowerCase();
  return [`127.0.0.1:${local}`, `localhost:${local}`, `[::1]:${local}`, `${req.socket.localAddress}:${local}`].includes(host);
}

/** Answers one request; whatever it meets (a client that leaves, a bug) ends there, and the server serves on. */
async function respond(req: IncomingMessage, res: ServerResponse, options: ProxyOptions, inFlight: Set<AbortController>): Promise<void> {
  try {
    await handle(req, res, options, inFlight);
  } catch (error) {
    // The client left (e.g. mid-body): there is no one to answer.
    if (res.destroyed || req.socket.destroyed) return void res.destroy();
    (options.logger ?? console).warn(`The proxy failed to answer ${req.method} ${(req.url ?? "/").split("?")[0]}: ${String(error)}`);
    if (res.headersSent) return void res.destroy();
    if (error instanceof InferenceError) return failWith(res, error);
    fail(res, 500, "The proxy failed to answer this request", "server_error");
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, options: ProxyOptions, inFlight: Set<AbortController>): Promise<void> {
  if (req.headers.origin !== undefined) return fail(res, 403, "Requests from web pages are refused", "permission_error");
  if (!sameHost(req)) return fail(res, 421, "Unexpected Host header", "permission_error");
  const path = (req.url ?? "/").split("?")[0];
  if (req.method === "GET" && path === "/v1/models") {
    const data = (options.models ?? []).map((id) => ({ id, object: "model", created: 0, owned_by: "huggingface" }));
    return json(res, 200, { object: "list", data });
  }
  if (req.method !== "POST" || path !== "/v1/chat/completions") return fail(res, 404, `No route for ${req.method} ${path}`, "not_found_error");
  const cap = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const text = await readBody(req, cap);
  // The rest of the body is not read: the connection closes after the answer.
  if (text === undefined) return fail(res, 413, `The request body is larger than ${cap} bytes`, undefined, { connection: "close" });
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return fail(res, 400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(res, 400, "The request body is not valid JSON");
  }
  const controller = new AbortController();
  inFlight.add(controller);
  res.on("close", () => controller.abort());
  try {
    await forward(body, req, res, options, controller.signal);
  } finally {
    inFlight.delete(controller);
  }
}

/** The body as text; undefined as soon as it is known to pass `cap` bytes (declared so, or read so), reading no further. */
function readBody(req: IncomingMessage, cap: number): Promise<string | undefined> {
  if (Number(req.headers["content-length"]) > cap) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size <= cap) return void chunks.push(c);
      req.off("data", onData).pause();
      resolve(undefined);
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/** Whether JSON `text` nests arrays and objects deeper than `max`: one linear scan, brackets inside strings not counted. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPEN.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSE.has(c)) depth--;
  }
  return false;
}

/** Runs the call; while a model loads past `commitAfterMs`, commits to a 200 and sends keep-alives. */
async function forward(body: unknown, req: IncomingMessage, res: ServerResponse, options: ProxyOptions, signal: AbortSignal): Promise<void> {
  const { target, maxBodyBytes: _, commitAfterMs = 20_000, keepAliveMs = 10_000, models: __, ...core } = options;
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
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
    const answer = await answerChat({ body, accessToken: token, signal }, { ...core, baseUrl: target, onRetry });
    stop();
    // The client left: nothing to send.
    if (signal.aborted) return void (await answer.body?.cancel());
    await send(answer, res, streaming);
  } catch (error) {
    stop();
    if (signal.aborted) return;
    if (!res.headersSent) return failWith(res, error);
    res.end(streaming ? sseEvent(toOpenAIError(error).body) : "");
  }
}

async function send(answer: Response, res: ServerResponse, streaming: boolean): Promise<void> {
  if (res.headersSent && !answer.ok) {
    // Already committed to a 200: the error goes in the body, as OpenAI's servers send it.
    const text = await answer.text();
    return void res.end(streaming ? sseEvent(JSON.parse(text)) : text);
  }
  if (!res.headersSent) {
    const headers: Record<string, string> = {};
    answer.headers.forEach((v, k) => (headers[k] = v));
    res.writeHead(answer.status, headers);
  }
  if (!answer.body) return void res.end();
  const reader = answer.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    await copy(reader, res);
    res.end();
  } catch (error) {
    // An error after tokens: end the body without [DONE] so the client's iterator throws.
    res.destroy(error as Error);
  }
}

/** Copies the answer to the client, reading no more while the client's buffer is full: a slow client slows the upstream read. */
async function copy(reader: ReadableStreamDefaultReader<Uint8Array>, res: ServerResponse): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) return;
    if (!res.write(value)) await drained(res);
  }
}

/** Resolves once `res` can take more, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}
