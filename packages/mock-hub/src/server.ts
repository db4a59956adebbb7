import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { isDropConnection } from "./event-stream.js";
import { createMockHub } from "./hub.js";
import { isRefused } from "./http.js";
import type { MockHubConfig, MockHubCore } from "./types.js";

/** The options of `startMockHub`: the models, and where to listen. */
export interface StartOptions extends MockHubConfig {
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * The address (or host name) to listen on; default "127.0.0.1". "0.0.0.0" or "::" listens on every
   * interface: the hub has no authentication, so anyone on the network could use it.
   */
  host?: string;
}

/** A mock hub listening on loopback HTTP; everything of {@link MockHubCore}, plus its address and `close()`. */
export interface MockHub extends MockHubCore {
  /** e.g. "http://127.0.0.1:54321", no trailing slash; loopback when it listens on every interface. */
  readonly url: string;
  /** The address it listens on: "127.0.0.1", "::1", or "0.0.0.0" / "::" for every interface. */
  readonly host: string;
  /** The port it listens on. */
  readonly port: number;
  /** Closes the server and destroys every open socket, lingering streams included. */
  close(): Promise<void>;
}

/** Hop-by-hop headers belong to this connection, not to the request the core sees. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "content-length",
  "expect",
]);

/** How long a dropped connection's last events have to reach the client before the socket dies. */
const DROP_GRACE_MS = 20;

/** Serves the core over loopback HTTP, writing each body chunk as soon as it comes. */
export async function startMockHub(options: StartOptions = {}): Promise<MockHub> {
  const { port = 0, host = "127.0.0.1", ...config } = options;
  checkHost(host);
  const hub = createMockHub(config);
  // Imported here so the package root stays loadable where node:http is not.
  const { createServer } = await import("node:http");
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void serve(hub, req, res, origin));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await listen(server, port, host);
  const address = server.address() as AddressInfo;
  const origin = `http://${clientHost(address.address)}:${address.port}`;
  return Object.assign(hub, {
    url: origin,
    host: address.address,
    port: address.port,
    close: () => closeServer(hub, server, sockets),
  });
}

/** node listens on every interface for a host of `null`, "" or a number (the backlog): refused before it starts. */
function checkHost(host: unknown): asserts host is string {
  if (typeof host === "string" && host.trim() !== "") return;
  const got = host === null ? "null" : typeof host === "string" ? JSON.stringify(host) : `a ${typeof host}`;
  const allowed = `e.g. "127.0.0.1" (the default), "::1", or "0.0.0.0" for every interface`;
  const message = `startMockHub: \`host\` must be an address or host name to listen on, ${allowed} (got ${got})`;
  throw typeof host === "string" ? new RangeError(message) : new TypeError(message);
}

/** Where a client connects: loopback for a wildcard address, an IPv6 address bracketed. */
function clientHost(address: string): string {
  const host = address === "0.0.0.0" ? "127.0.0.1" : address === "::" ? "::1" : address;
  return host.includes(":") ? `[${host.replace("%", "%25")}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

async function closeServer(hub: MockHubCore, server: Server, sockets: Set<Socket>): Promise<void> {
  hub.dispose();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function serve(hub: MockHubCore, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const abort = new AbortController();
  res.once("close", () => abort.abort());
  try {
    const body = await readBody(req);
    const request = new Request(origin + (req.url ?? "/"), {
      method: req.method ?? "GET",
      headers: requestHeaders(req),
      body: body.length > 0 ? body : undefined,
      signal: abort.signal,
    });
    await pipe(await hub.handle(request), res);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    res.end(`mock hub error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? "";
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1] ?? "");
  }
  return headers;
}

/** Status and headers at once, then every chunk as it comes; a client that leaves cancels the body. */
async function pipe(response: Response, res: ServerResponse): Promise<void> {
  // A refused connection: closed before a status line, as a server that went away would.
  if (isRefused(response)) return void res.socket?.destroy();
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders();
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  let written: Promise<void> = Promise.resolve();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      written = new Promise((resolve) => res.write(value, () => resolve()));
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    // A drop fault: the socket dies mid-body, as a crashed server's would, once what came before is on the
    // wire and a moment has passed (a client's HTTP stack errors its body at the end of the connection,
    // discarding what its reader has not taken yet).
    if (isDropConnection(error))
      await flushed(res, written).then(() => setTimeout(() => res.socket?.destroy(), DROP_GRACE_MS));
    else res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The last write flushed to the socket, or the response closed first. */
function flushed(res: ServerResponse, written: Promise<void>): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return Promise.race([written, new Promise<void>((resolve) => res.once("close", () => resolve()))]);
}
