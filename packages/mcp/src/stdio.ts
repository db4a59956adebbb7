/** A server run as a child process (the SDK's stdio transport), with what the transport does not report: how it ended. */
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpServerError } from "./errors";
import { explain, type Link } from "./link";
import type { ServerTarget } from "./options";

/** At most this many of the last lines of the server's stderr go into an error, and at most this many characters. */
const TAIL_LINES = 20;
const TAIL_CHARS = 4_000;

/** The SDK's stdio transport, keeping hold of the process it starts: it reports neither the exit code nor the signal. */
class WatchedStdioTransport extends StdioClientTransport {
  /** The child process once started (Node's `ChildProcess`, read for `exitCode` and `signalCode` only). */
  child: object | undefined;

  override async start(): Promise<void> {
    await super.start();
    const child: unknown = Reflect.get(this, "_process");
    if (typeof child === "object" && child !== null) this.child = child;
  }
}

/** The link to a server run as `command`: its stderr is read (the last lines kept for errors), not printed. */
export function stdioLink({ command, args, env, cwd }: Extract<ServerTarget, { kind: "stdio" }>): Link {
  const transport = new WatchedStdioTransport({ command, args, env, cwd, stderr: "pipe" });
  const stderr = keepTail(transport.stderr);
  const server = command;
  return {
    transport,
    server,
    lost(cause) {
      const { exitCode, exitSignal } = endOf(transport.child);
      const message =
        transport.child === undefined ? `Could not start the MCP server "${server}": ${explain(cause)}`
        : exitCode !== undefined ? `The MCP server "${server}" exited with code ${exitCode}`
        : exitSignal !== undefined ? `The MCP server "${server}" was ended by ${exitSignal}`
        : `The MCP server "${server}" failed: ${explain(cause)}`;
      return new McpServerError(message, { server, exitCode, exitSignal, stderr: stderr(), cause });
    },
    // The SDK ends stdin, then sends SIGTERM and SIGKILL, waiting up to 2 s for each.
    close: () => transport.close(),
  };
}

/** How a process ended; both undefined while it runs. */
function endOf(child: object | undefined): { exitCode: number | undefined; exitSignal: string | undefined } {
  const code: unknown = child && Reflect.get(child, "exitCode");
  const signal: unknown = child && Reflect.get(child, "signalCode");
  return { exitCode: typeof code === "number" ? code : undefined, exitSignal: typeof signal === "string" ? signal : undefined };
}

/** The part of a Node stream read here (the package is built without Node's types). */
interface DataSource {
  on(event: "data", listener: (chunk: unknown) => void): unknown;
}

/** Reads `stream` as it comes (so the process never blocks on a full pipe); returns its last lines so far (the first may be cut). */
function keepTail(stream: unknown): () => string {
  let text = "";
  if (isDataSource(stream)) {
    const decoder = new TextDecoder();
    stream.on("data", (chunk) => {
      text = (text + (chunk instanceof Uint8Array ? decoder.decode(chunk, { stream: true }) : String(chunk))).slice(-TAIL_CHARS);
    });
  }
  return () => text.trimEnd().split("\n").slice(-TAIL_LINES).join("\n");
}

function isDataSource(value: unknown): value is DataSource {
  return typeof value === "object" && value !== null && typeof Reflect.get(value, "on") === "function";
}
