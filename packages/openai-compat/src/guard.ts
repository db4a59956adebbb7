import type { IncomingMessage } from "node:http";
import type { AddressInfo, ListenOptions } from "node:net";
import { InputError } from "@hfkit/inference";

/** The proxy's guards: loopback binding, its own Host only, capped bodies (in and from upstream), bounded nesting. */

/** Request bodies above this many bytes get 413, unless `maxBodyBytes` says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Request bodies nesting arrays and objects deeper than this get 400, before they are parsed. */
export const MAX_JSON_DEPTH = 64;
export const LOOPBACK = "127.0.0.1";

const unnamed = (value: unknown): boolean => value === undefined || value === null || value === "";

/**
 * `listen`'s arguments with 127.0.0.1 as the host when they name none; a pipe path or a handle is left
 * as is. A host that is named must be a non-blank string: anything else is an InputError, before any bind.
 */
export function loopbackArgs(args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (typeof first === "function") return [0, LOOPBACK, ...args];
  if (typeof first === "object" && first !== null) {
    const o = first as ListenOptions;
    if (!("port" in o) || !unnamed(o.path)) return args;
    if (o.host === undefined) return [{ ...o, host: LOOPBACK }, ...rest];
    checkHost(o.host);
    return args;
  }
  const isPort = unnamed(first) || typeof first === "number" || (typeof first === "string" && Number(first) >= 0);
  if (!isPort) return args;
  const [host, ...after] = rest;
  const port = unnamed(first) ? 0 : first;
  // listen(port, host?, backlog?, cb?): a number or a function in the host's place is the backlog or the callback.
  if (host === undefined) return [port, LOOPBACK, ...after];
  if (typeof host === "number" || typeof host === "function") return [port, LOOPBACK, ...rest];
  checkHost(host);
  return args;
}

/** Refuses a host that names no address: "" (which Node takes as every interface), null, or not a string. */
function checkHost(host: unknown): void {
  if (typeof host === "string" && host.trim() !== "") return;
  const got = typeof host === "string" ? JSON.stringify(host) : host === null ? "null" : typeof host;
  const allowed = "127.0.0.1 (the default), ::1, a host name, or 0.0.0.0, :: or a network address to be reachable";
  throw new InputError(
    `\`host\` must be a non-blank string naming the address to bind: ${allowed} (got ${got})`,
    "host",
  );
}

const bracketed = (host: string): string => (host.includes(":") ? `[${host}]` : host);

/** What a wildcard bind is reached at from this machine. */
const WILDCARD: Record<string, string> = { "0.0.0.0": LOOPBACK, "::": "::1" };

/** The URL clients use for a server listening at `address`: an IPv6 host bracketed, a wildcard bind as loopback. */
export function clientUrl({ address, port }: AddressInfo): string {
  const host = WILDCARD[address] ?? address;
  return `http://${bracketed(host)}:${port}`;
}

/** Whether the request's `Host` is this server's own address (no DNS rebinding). */
export function sameHost(req: IncomingMessage): boolean {
  const local = req.socket.localPort;
  const host = (req.headers.host ?? "").toLowerCase();
  const own = `${bracketed(req.socket.localAddress ?? "")}:${local}`;
  return [`127.0.0.1:${local}`, `localhost:${local}`, `[::1]:${local}`, own, asUrlWrites(own)].includes(host);
}

/** An authority as URL parsers write it, as clients then send it (`[::ffff:127.0.0.1]` as `[::ffff:7f00:1]`). */
function asUrlWrites(authority: string): string {
  try {
    return new URL(`http://${authority}`).host;
  } catch {
    return authority;
  }
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
    for (let size = 0; ;) {
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
