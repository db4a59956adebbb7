/**
 * A loopback HTTP/1.1 server on a raw `node:net` socket, for faults `node:http` will not produce:
 * header case and media types as the handler writes them, bodies that never end, bytes written
 * without framing, and a count of what the server managed to write before the client stopped reading.
 */
import { createServer, type AddressInfo, type Socket } from "node:net";

/** A request as the raw server parsed it. */
export interface RawRequest {
  method: string;
  /** The request target as sent (path and query), never normalised. */
  target: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** What a handler writes to; every byte goes to the socket as is. */
export interface RawReply {
  /** Writes the status line and headers; `body` follows, with no framing added. */
  head(status: number, headers: Array<[string, string]>): void;
  /** Writes raw bytes; false when the socket's buffer is full (the client is not reading). */
  write(bytes: string | Uint8Array): boolean;
  /** Settles when the socket can take more, or closes. */
  drained(): Promise<void>;
  /** Ends the connection (FIN). */
  end(bytes?: string | Uint8Array): void;
  /** True once the client went away. */
  readonly closed: boolean;
  /** Settles when the connection closes, from either side. */
  readonly closedPromise: Promise<void>;
  readonly socket: Socket;
}

export type RawHandler = (req: RawRequest, reply: RawReply) => void | Promise<void>;

export interface RawServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RawRequest[];
  /** Replaces what the next requests get. */
  handle(handler: RawHandler): void;
  /** Bytes the server wrote, per connection, in order of connection. */
  written: number[];
  close(): Promise<void>;
}

const CRLF = "\r\n";

/** `head` with a chunked body: each `chunk()` is one HTTP chunk. */
export function chunked(reply: RawReply, status: number, headers: Array<[string, string]>) {
  reply.head(status, [...headers, ["Transfer-Encoding", "chunked"]]);
  return {
    chunk: (text: string | Uint8Array): boolean => {
      const bytes = typeof text === "string" ? Buffer.from(text) : Buffer.from(text);
      return reply.write(Buffer.concat([Buffer.from(bytes.length.toString(16) + CRLF), bytes, Buffer.from(CRLF)]));
    },
    end: (): void => reply.end(`0${CRLF}${CRLF}`),
  };
}

/** A whole answer with a content-length, then the connection closed. */
export function whole(
  reply: RawReply,
  status: number,
  contentType: string,
  body: string,
  extra: Array<[string, string]> = [],
): void {
  reply.head(status, [
    ["Content-Type", contentType],
    ["Content-Length", String(Buffer.byteLength(body))],
    ["Connection", "close"],
    ...extra,
  ]);
  reply.end(body);
}

export async function startRawServer(
  initial: RawHandler = (_req, reply) => whole(reply, 404, "text/plain", "no handler"),
): Promise<RawServer> {
  let handler = initial;
  const requests: RawRequest[] = [];
  const written: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    const index = written.push(0) - 1;
    let closed = false;
    const closedPromise = new Promise<void>((resolve) =>
      socket.on("close", () => {
        closed = true;
        sockets.delete(socket);
        resolve();
      }),
    );
    socket.on("error", () => {});
    const send = (bytes: string | Uint8Array): boolean => {
      if (closed || socket.destroyed) return false;
      written[index] = (written[index] ?? 0) + (typeof bytes === "string" ? Buffer.byteLength(bytes) : bytes.length);
      return socket.write(bytes);
    };
    const reply: RawReply = {
      head: (status, headers) =>
        void send(`HTTP/1.1 ${status} X${CRLF}${headers.map(([k, v]) => `${k}: ${v}${CRLF}`).join("")}${CRLF}`),
      write: send,
      drained: () =>
        new Promise<void>((resolve) => {
          if (closed) return resolve();
          const done = (): void => {
            socket.off("drain", done);
            socket.off("close", done);
            resolve();
          };
          socket.on("drain", done);
          socket.on("close", done);
        }),
      end: (bytes) => {
        if (closed) return;
        if (bytes === undefined) socket.end();
        else socket.end(bytes);
      },
      get closed() {
        return closed;
      },
      closedPromise,
      socket,
    };
    let buffer = Buffer.alloc(0);
    const onData = (data: Buffer): void => {
      buffer = Buffer.concat([buffer, data]);
      const end = buffer.indexOf(CRLF + CRLF);
      if (end < 0) return;
      const [line = "", ...lines] = buffer.subarray(0, end).toString("latin1").split(CRLF);
      const headers: Record<string, string> = {};
      for (const h of lines) {
        const colon = h.indexOf(":");
        headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      if (buffer.length < end + 4 + length) return;
      socket.off("data", onData);
      const [method = "", target = ""] = line.split(" ");
      const req = { method, target, headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") };
      requests.push(req);
      void Promise.resolve(handler(req, reply)).catch(() => socket.destroy());
    };
    socket.on("data", onData);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    written,
    handle: (next) => void (handler = next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
