import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A real `redis-server` on loopback, nothing saved to disk. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
}

/** A port free now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `redis-server` on `port` (a free one by default), resolved once it accepts connections. */
export async function startRedis(port?: number): Promise<RedisServer> {
  const at = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "hfkit-redis-"));
  const args = ["--port", String(at), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn("redis-server", args, { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await untilAccepting(at, child);
  return {
    port: at,
    url: `redis://127.0.0.1:${at}`,
    async kill() {
      child.kill("SIGKILL");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function untilAccepting(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
    if (await answersPing(port)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill("SIGKILL");
  throw new Error("redis-server did not start within 5 s");
}

/** One raw command to a Redis on `port`: its reply's text, or undefined when it cannot be reached. */
export function command(port: number, ...words: string[]): Promise<string | undefined> {
  const text = `*${words.length}\r\n${words.map((w) => `$${Buffer.byteLength(w)}\r\n${w}\r\n`).join("")}`;
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    let reply = "";
    const done = (value: string | undefined): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(reply || undefined), 300);
    socket.on("connect", () => socket.write(text));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.endsWith("\r\n") && !reply.startsWith("*")) done(reply);
    });
    socket.on("error", () => done(undefined));
  });
}

const answersPing = async (port: number): Promise<boolean> =>
  (await command(port, "PING"))?.startsWith("+PONG") === true;

/** A server that takes connections and never answers: a Redis that hangs. */
export async function silentServer(): Promise<{ url: string; sockets: Set<Socket>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    sockets,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` until it is true or `ms` pass: the time it took, or a throw. */
export async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`not within ${ms} ms`);
}
