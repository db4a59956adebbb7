import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Exchange } from "./fixtures";

/** What the server answers: a recorded response, possibly re-cut into pieces, possibly never ended. */
export interface Reply {
  status: number;
  statusText: string;
  headers: Array<[string, string[]]>;
  /** The body as written, one `write()` (one HTTP chunk) per piece. */
  pieces: Uint8Array[];
  /** Keep the response open after the last byte, as a server that never closes its stream. */
  keepOpen?: boolean;
  /**
   * Frame the body with a `Content-Length` (the client then knows where it ends, even when the
   * response is kept open) instead of chunked transfer coding.
   */
  contentLength?: boolean;
  /** Write each piece only once the client has read every byte before it (one piece per read). */
  pacer?: Pacer;
}

/** A request as the server received it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Settles when the connection that carried it is closed (by either side). */
  closed: Promise<void>;
}

export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: SeenRequest[];
  /** Sets what the next requests get. */
  reply(next: Reply | ((req: SeenRequest) => Reply)): void;
  close(): Promise<void>;
}

/**
 * Headers that describe the recorded transfer rather than the answer: the body is replayed decoded
 * and re-framed (chunked), and the connection is ours.
 */
const TRANSFER_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "content-encoding",
]);

export function replayHeaders(ex: Exchange): Array<[string, string[]]> {
  return ex.headers.filter(([name]) => !TRANSFER_HEADERS.has(name.toLowerCase()));
}

const encoder = new TextEncoder();

/** The recorded answer of `ex`, its body in one piece. */
export function recordedReply(ex: Exchange, body: string | Uint8Array = ex.body): Reply {
  return {
    status: ex.status,
    statusText: ex.statusText,
    headers: replayHeaders(ex),
    pieces: [typeof body === "string" ? encoder.encode(body) : body],
  };
}

/** A loopback HTTP server on 127.0.0.1, port 0, that answers every request with the reply set. */
export async function startReplayServer(): Promise<ReplayServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let next: Reply | ((req: SeenRequest) => Reply) | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const closed = socketClosed(req.socket);
      const seen: SeenRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        closed,
      };
      requests.push(seen);
      const reply = typeof next === "function" ? next(seen) : next;
      if (!reply) {
        res.statusCode = 599;
        res.end("no reply was set for this request");
        return;
      }
      send(res, reply).catch(() => res.destroy());
    });
  });
  server.on("connection", (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    reply(r) {
      next = r;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const closings = new WeakMap<Socket, Promise<void>>();

/** One promise per connection (keep-alive carries many requests on one socket). */
function socketClosed(socket: Socket): Promise<void> {
  let closed = closings.get(socket);
  if (!closed) {
    closed = socket.destroyed
      ? Promise.resolve()
      : new Promise<void>((resolve) => socket.once("close", () => resolve()));
    closings.set(socket, closed);
  }
  return closed;
}

async function send(res: ServerResponse, reply: Reply): Promise<void> {
  res.statusCode = reply.status;
  res.statusMessage = reply.statusText;
  for (const [name, values] of reply.headers) res.setHeader(name, values.length === 1 ? (values[0] as string) : values);
  if (reply.contentLength)
    res.setHeader(
      "content-length",
      reply.pieces.reduce((n, piece) => n + piece.length, 0),
    );
  res.flushHeaders();
  const pacer = reply.pacer;
  res.once("close", () => pacer?.release());
  let sent = 0;
  for (const piece of reply.pieces) {
    if (piece.length === 0) continue;
    if (pacer) await pacer.until(sent);
    if (res.destroyed) return;
    res.write(piece);
    sent += piece.length;
  }
  if (!reply.keepOpen) res.end();
}

/**
 * Paces a reply by what the client has read: the server writes piece k+1 only after the client
 * received every byte of pieces 0..k, so reads can never merge two pieces (on loopback, in one
 * process, sends written together are otherwise read together).
 */
export class Pacer {
  private received = 0;
  private released = false;
  private waiters: Array<{ at: number; resolve: () => void }> = [];
  /** The byte counts of the client's reads, in order. */
  readonly reads: number[] = [];

  /** The client read `n` more bytes. */
  report(n: number): void {
    this.reads.push(n);
    this.received += n;
    this.wake();
  }

  /** Resolves once the client has read `at` bytes (or the response is gone). */
  until(at: number): Promise<void> {
    if (this.released || this.received >= at) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ at, resolve }));
  }

  release(): void {
    this.released = true;
    this.wake();
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!this.released && this.received < w.at) return true;
      w.resolve();
      return false;
    });
  }
}

/**
 * The global fetch, with each response body passed through unchanged while its reads are reported
 * to `pacer` (so the server can pace the next piece, and the test can see the cuts the client got).
 */
export function pacedFetch(pacer: Pacer): (input: string, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!res.body) return res;
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          pacer.report(value.length);
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Runs `body` with a fresh server, closed afterwards whatever happens. */
export async function withServer<T>(body: (server: ReplayServer) => Promise<T>): Promise<T> {
  const server = await startReplayServer();
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}
