import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { ToolContext } from "@hfkit/inference";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig, McpTool, McpTools } from "../src";

/** The test server (fixtures/server.mjs): run with `node`, stdio by default, `--http` for Streamable HTTP. */
export const SERVER_SCRIPT = fileURLToPath(new URL("fixtures/server.mjs", import.meta.url));
/** Where the test servers are. */
export const FIXTURES_DIR = fileURLToPath(new URL("fixtures", import.meta.url));
/** A process that never answers the handshake. */
export const SILENT_SCRIPT = fileURLToPath(new URL("fixtures/silent.mjs", import.meta.url));

/** A server for `connectMcp`, and how to stop it when the test owns it. */
export interface Served {
  server: McpServerConfig;
  /** The server's process, when this test runs it (HTTP). */
  process?: ChildProcess;
  stop(): Promise<void>;
}

/** The test server as a child process spoken to over stdio: `connectMcp` starts it. */
export async function serveStdio(...flags: string[]): Promise<Served> {
  return { server: { command: process.execPath, args: [SERVER_SCRIPT, ...flags] }, stop: async () => {} };
}

/** The test server served over Streamable HTTP on loopback by a child process. */
export async function serveHttp(...flags: string[]): Promise<Served> {
  const child = spawn(process.execPath, [SERVER_SCRIPT, "--http", ...flags], { stdio: ["ignore", "pipe", "ignore"] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /listening (\d+)/.exec(out);
      if (listening?.[1]) resolve(listening[1]);
    });
    child.once("exit", (code) => reject(new Error(`the HTTP test server exited (${code}) before listening`)));
  });
  return { server: { url: `http://127.0.0.1:${port}/mcp` }, process: child, stop: () => stopProcess(child) };
}

/** An HTTP server on loopback that takes requests and never answers them. */
export async function serveSilentHttp(): Promise<Served> {
  const http = createServer(() => {});
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const { port } = http.address() as AddressInfo;
  return {
    server: { url: `http://127.0.0.1:${port}/mcp` },
    stop: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill();
  await exited;
}

/** What the tool runner passes a tool. */
export function context(signal = new AbortController().signal): ToolContext {
  return { signal, callId: "call_1", step: 1 };
}

/** The tool called `name`. */
export function toolNamed(mcp: McpTools, name: string): McpTool {
  const tool = mcp.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${mcp.tools.map((t) => t.name).join(", ")}`);
  return tool;
}

/** The counts of the `hang` calls the server started, saw cancelled and finished. */
export async function hangs(mcp: McpTools): Promise<{ started: number; cancelled: number; finished: number }> {
  const counter = mcp.tools.find((tool) => tool.mcpName === "hangs");
  if (!counter) throw new Error("no tool hangs");
  return JSON.parse(await counter.run({}, context()));
}

/** Resolves when the server next logs a message: `hang` logs one when it begins. */
export function nextLog(client: Client): Promise<unknown> {
  return new Promise((resolve) =>
    client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => resolve(note.params.data)),
  );
}

/** What a promise rejected with (fails when it fulfils). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}
