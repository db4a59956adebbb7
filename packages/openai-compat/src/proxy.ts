import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Options, RetryEvent } from "@hfkit/inference";
import { answerChat } from "./answer";
import { sseEvent, toOpenAIError } from "./protocol";

/** The options of the proxy: where it forwards, its limits, and any InferenceClient option for the calls it makes. */
export interface ProxyOptions extends Omit<Options, "baseUrl" | "endpointUrl" | "signal" | "onRetry"> {
  /** An hf-inference-style base: chat goes to `{target}/models/{model}/v1/chat/completions`. */
  target: string;
  /** Request bodies above this many bytes get 413. Default 2 MB. */
  maxBodyBytes?: number;
  /** While a model loads, commit to a 200 after this long and keep the client waiting. Default 20 s. */
  commitAfterMs?: number;
  /** Interval of keep-alive comments once committed. Default 10 s. */
  keepAliveMs?: number;
  /** Model ids listed by `GET /v1/models`. */
  models?: string[];
}

/** The proxy's `http.Server`; `listen(port)` binds 127.0.0.1. */
export interface ProxyServer extends Server {
  /** Closes the server, ends every answer in flight and frees every socket. */
  shutdown(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
};

const fail = (res: ServerResponse, status: number, message: string, type = "invalid_request_error"): void =>
  json(res, status, { error: { message, type, code: null } });

/**
 * An OpenAI-compatible proxy in front of HF backends, for clients in any language. It binds
 * 127.0.0.1 unless told otherwise, refuses any request with an `Origin` or another `Host` (no web
 * page and no DNS rebinding can reach it), and forwards the caller's `Authorization` to the target only.
 */
export function createProxy(options: ProxyOptions): ProxyServer {
  const inFlight = new Set<AbortController>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void handle(req, res, options, inFlight)) as ProxyServer;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const listen = server.listen.bind(server) as (...args: unknown[]) => Server;
  server.listen = ((...args: unknown[]) => {
    // listen(port?, cb?) binds loopback, not every interface.
    if (typeof args[1] !== "string" && (args.length === 0 || typeof args[0] === "number" || args[0] === undefined)) {
      const cb = args.find((a) => typeof a === "function");
      return listen(args[0] ?? 0, "127.0.0.1", cb);
    }
    return listen(...args);
  }) as unknown as ProxyServer["listen"];
  server.shutdown = () =>
    new Promise<void>((resolve) => {
      for (const c of inFlight) c.abort();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return server;
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

async function handle(req: IncomingMessage, res: ServerResponse, options: ProxyOptions, inFlight: Set<AbortController>): Promise<void> {
  if (req.headers.origin !== undefined) return fail(res, 403, "Requests from web pages are refused", "permission_error");
  if (!sameHost(req)) return fail(res, 421, "Unexpected Host header", "permission_error");
  const path = (req.url ?? "/").split("?")[0];
  if (req.method === "GET" && path === "/v1/models") {
    const data = (options.models ?? []).map((id) => ({ id, object: "model", created: 0, owned_by: "huggingface" }));
    return json(res, 200, { object: "list", data });
  }
  if (req.method !== "POST" || path !== "/v1/chat/completions") return fail(res, 404, `No route for ${req.method} ${path}`, "not_found_error");
  const text = await readBody(req, options.maxBodyBytes ?? 2 * 1024 * 1024);
  if (text === undefined) return fail(res, 413, "The request body is too large");
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

function readBody(req: IncomingMessage, cap: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= cap) chunks.push(c);
    });
    req.on("end", () => resolve(size > cap ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
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
  const onRetry = (event: RetryEvent): void => {
    if (event.reason === "loading" && !commitTimer && !res.headersSent) commitTimer = setTimeout(commit, commitAfterMs);
  };
  try {
    const answer = await answerChat({ body, accessToken: token, signal }, { ...core, baseUrl: target, onRetry });
    clearTimeout(commitTimer);
    clearInterval(keepAlive);
    await send(answer, res, streaming);
  } catch (error) {
    clearTimeout(commitTimer);
    clearInterval(keepAlive);
    if (!res.headersSent) return fail(res, 500, String((error as Error).message), "server_error");
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
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch (error) {
    // An error after tokens: end the body without [DONE] so the client's iterator throws.
    res.destroy(error as Error);
  }
}

