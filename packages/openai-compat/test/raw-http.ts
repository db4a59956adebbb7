import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";

/** A raw response: status, lower-cased headers, body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The body of a chunked message, once its last chunk arrived; else undefined. */
export function dechunk(raw: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const eol = raw.indexOf("\r\n", at);
    if (eol < 0) return undefined;
    const size = parseInt(raw.subarray(at, eol).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(parts);
    if (raw.length < eol + 2 + size + 2) return undefined;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Parses the first response on `socket`: resolves once its head and whole body (by length, chunks, or the end) arrived. */
export function readResponse(socket: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const parse = (ended: boolean): void => {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0)
        return ended ? reject(new Error(`no response head in ${JSON.stringify(buffer.toString())}`)) : undefined;
      const [statusLine, ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      const raw = buffer.subarray(end + 4);
      const length = Number(headers["content-length"] ?? NaN);
      const body =
        headers["transfer-encoding"] === "chunked"
          ? dechunk(raw)
          : raw.length >= length || ended
            ? raw.subarray(0, length || undefined)
            : undefined;
      if (body === undefined) return ended ? reject(new Error("the response ended early")) : undefined;
      socket.off("data", onData);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, text: body.toString("utf8") });
    };
    const onData = (c: Buffer): void => {
      buffer = Buffer.concat([buffer, c]);
      parse(false);
    };
    socket.on("data", onData);
    socket.once("end", () => parse(true));
    socket.once("close", () => parse(true));
    socket.on("error", () => {});
  });
}

/** Resolves once `stream` can take more, or is closed. */
export const drainedOrClosed = (stream: NodeJS.EventEmitter): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });

/** One chunk of a chunked body. */
export const chunk = (text: string): string => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
export const LAST_CHUNK = "0\r\n\r\n";

/** A response head with a chunked body. */
export const chunkedHead = (status: number, contentType: string): string =>
  `HTTP/1.1 ${status} X\r\ncontent-type: ${contentType}\r\ntransfer-encoding: chunked\r\n\r\n`;

/** A request as the raw upstream saw it: its request line, and the socket to answer on. */
export interface RawRequest {
  line: string;
  socket: Socket;
}

/** A loopback server on a raw socket: each request's head and body are read, then `answer` writes whatever it likes. */
export async function rawUpstream(
  answer: (req: RawRequest) => void | Promise<void>,
): Promise<{ url: string; requests: string[]; close(): void }> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffer = Buffer.alloc(0);
    const onData = (c: Buffer): void => {
      buffer = Buffer.concat([buffer, c]);
      const end = buffer.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString("latin1"))?.[1] ?? 0);
      if (end < 0 || buffer.length < end + 4 + length) return;
      socket.off("data", onData);
      const line = buffer.subarray(0, buffer.indexOf("\r\n")).toString("latin1");
      requests.push(line);
      void answer({ line, socket });
    };
    socket.on("data", onData);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
