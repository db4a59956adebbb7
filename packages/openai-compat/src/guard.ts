import type { IncomingMessage } from "node:http";
import type { ListenOptions } from "node:net";

/** The proxy's guards: loopback binding, its own Host only, capped bodies (in and from upstream), bounded nesting. */

/** Request bodies above this many bytes get 413, unless `maxBodyBytes` says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Request bodies nesting arrays and objects deeper than this get 400, before they are parsed. */
export const MAX_JSON_DEPTH = 64;
export const LOOPBACK = "127.0.0.1";

const unnamed = (value: unknown): boolean => value === undefined || value === null || value === "";

/** `listen`'s arguments with 127.0.0.1 as the host when they name none; a pipe path or a handle is left as is. */
export function loopbackArgs(args: unknown[]): unknown[] {
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

/** Whether the request's `Host` is this server's own address (no DNS rebinding). */
export function sameHost(req: IncomingMessage): boolean {
  const local = req.socket.localPort;
  const host = (req.headers.host ?? "").toLowerCase();
  return [`127.0.0.1:${local}`, `localhost:${local}`, `[::1]:${local}`, `${req.socket.localAddress}:${local}`].includes(host);
}

/** The body as text; undefined as soon as it is known to pass `cap` bytes (declared so, or read so), reading no further. */
export function readBody(req: IncomingMessage, cap: number): Promise<string | undefined> {
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

/**
 * An upstream answer's body as text; undefined as soon as it is known to pass `cap` bytes (the rest
 * cancelled). Aborting `signal` cancels the read even when the fetch that made `res` ignored the signal.
 */
export async function readCapped(res: Response, cap: number, signal: AbortSignal): Promise<string | undefined> {
  signal.throwIfAborted();
  if (!res.body) return "";
  const reader = res.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", cancel);
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let size = 0; ; ) {
      const { done, value } = await reader.read();
      signal.throwIfAborted();
      if (done) return text + decoder.decode();
      if ((size += value.byteLength) > cap) return void cancel();
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/** Whether JSON `text` nests arrays and objects deeper than `max`: one linear scan, brackets inside strings not counted. */
export function nestsDeeperThan(text: string, max: number): boolean {
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
