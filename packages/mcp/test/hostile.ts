/** Hand-written MCP servers that break the rules on purpose: over HTTP in this process, over stdio as a child. */
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpStdioServer } from "../src";

/** The stdio server that breaks the rules (fixtures/hostile.mjs); its flags say how. */
export const HOSTILE_SCRIPT = fileURLToPath(new URL("fixtures/hostile.mjs", import.meta.url));

/** A JSON-RPC message the client sent. */
export interface Sent {
  id?: number | string;
  method: string;
  params?: Record<string, unknown>;
}

/** What the server managed to do with one answer it streamed. */
export interface Streamed {
  /** Bytes the socket took before it closed or the answer ended. */
  written: number;
  /** Whether the whole answer went out (false: the client closed the connection first). */
  finished: boolean;
}

/** How the server answers a request: by hand, with `res`; `req` for its headers. */
export type Answer = (sent: Sent, res: ServerResponse, req: IncomingMessage) => void | Promise<void>;

/** A hostile MCP server over HTTP on loopback. */
export interface HostileHttp {
  url: string;
  /** Each answer streamed with `stream`, in order. */
  streamed: Streamed[];
  /** How many requests of each method it received. */
  received: Map<string, number>;
  stop(): Promise<void>;
}

/** The answer to `initialize` a well-behaved server gives (tools offered). */
export function initialized(sent: Sent, res: ServerResponse): void {
  const result = {
    protocolVersion: sent.params?.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: "hostile", version: "1" },
  };
  json(res, { jsonrpc: "2.0", id: sent.id, result });
}

/** `body` as a JSON answer. */
export function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * Starts an MCP server on loopback: `answers` by method (`initialize` answered as a server does unless given);
 * notifications are accepted (202), the GET stream refused (405), the session's DELETE accepted.
 */
export async function hostileHttp(answers: Record<string, Answer>): Promise<HostileHttp> {
  const streamed: Streamed[] = [];
  const received = new Map<string, number>();
  const all: Record<string, Answer> = { initialize: initialized, ...answers };
  const http = createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(req.method === "GET" ? 405 : 200).end();
    const sent = JSON.parse(await text(req)) as Sent;
    received.set(sent.method, (received.get(sent.method) ?? 0) + 1);
    const answer = all[sent.method];
    if (sent.id === undefined || !answer) return void res.writeHead(202).end();
    await answer(sent, res, req);
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const { port } = http.address() as AddressInfo;
  const stop = async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, streamed, received, stop };
}

async function text(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return body;
}

/**
 * Writes `head`, then `size` bytes of `x`, then `tail`, as fast as the client reads (waiting while the socket is
 * full), until the client closes the connection; records in `streamed` how far it got.
 */
export async function stream(
  res: ServerResponse,
  streamed: Streamed[],
  head: string,
  size: number,
  tail = "",
): Promise<void> {
  const record: Streamed = { written: 0, finished: false };
  streamed.push(record);
  const closed = new Promise<void>((resolve) => res.once("close", resolve));
  let open = true;
  void closed.then(() => (open = false));
  const block = Buffer.alloc(65_536, "x");
  const write = async (bytes: Buffer) => {
    if (!res.write(bytes)) await Promise.race([once(res, "drain"), closed]);
    if (open) record.written += bytes.length;
  };
  await write(Buffer.from(head));
  for (let left = size; left > 0 && open; left -= block.length)
    await write(left >= block.length ? block : block.subarray(0, left));
  if (!open) return;
  await write(Buffer.from(tail));
  res.end();
  record.finished = open;
}

/** A temporary folder for a child's pid and stats files, removed by `remove`. */
export function scratch(): { pidFile: string; statsFile: string; pid(): number; written(): number; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "hfkit-mcp-"));
  const pidFile = join(dir, "pid");
  const statsFile = join(dir, "stats");
  const read = (file: string) => Number(readFileSync(file, "utf8"));
  return {
    pidFile,
    statsFile,
    pid: () => read(pidFile),
    written: () => {
      try {
        return read(statsFile);
      } catch {
        return 0; // nothing written yet
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The hostile stdio server with `flags`, its pid and what it wrote kept in `files`. */
export function hostileStdio(files: { pidFile: string; statsFile: string }, ...flags: string[]): McpStdioServer {
  return {
    command: process.execPath,
    args: [HOSTILE_SCRIPT, "--pid-file", files.pidFile, "--stats-file", files.statsFile, ...flags],
  };
}

/** Whether a process of that pid exists (a signal 0 reaches it). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
