/**
 * A server run as a child process (the SDK's stdio transport), with what the transport does not do: its stdout read
 * within bounds, how the process ended, and a close that waits until the process is gone, however it is asked.
 */
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { McpServerError } from "./errors";
import { BoundedLines, type Sent } from "./lines";
import { type Reading, requestOf } from "./limits";
import { explain, type Link } from "./link";
import type { ServerTarget } from "./options";

/**
 * At most this many of the last lines of the server's stderr go into an error, from at most this many characters
 * kept (`McpServerError` shows 4 000 of them, redacted: the rest is room for its cut to go back past a credential).
 */
const TAIL_LINES = 20;
const TAIL_KEPT = 12_000;
/** How long each step of stopping the process waits for it to exit: the end of its stdin, SIGTERM, SIGKILL. */
const STOP_STEP_MS = 2_000;
/** The most requests remembered while they wait for their answers (one never answered is forgotten, the oldest first). */
const SENT_MAX = 1_000;

type RequestId = string | number;

/** The part of Node's `ChildProcess` used here (the package is built without Node's types). */
interface Child {
  pid?: number | undefined;
  exitCode: number | null;
  signalCode: string | null;
  stdin?: { end(): void } | null;
  kill(signal: string): boolean;
  once(event: "exit", listener: () => void): unknown;
}

/** The SDK's stdio transport, keeping hold of the process it starts and of the requests awaiting answers. */
class WatchedStdioTransport extends StdioClientTransport {
  /** The child process once spawned. */
  child: Child | undefined;
  private readonly sent = new Map<RequestId, Sent>();
  private closing: Promise<void> | undefined;
  private readonly lines: BoundedLines;

  constructor(params: StdioServerParameters, reading: Reading) {
    super(params);
    this.lines = new BoundedLines(reading, (id) => this.answered(id));
    Reflect.set(this, "_readBuffer", this.lines); // the SDK reads stdout through it
  }

  override start(): Promise<void> {
    const started = super.start(); // spawns at once: the process is there to be stopped even if starting fails
    const child: unknown = Reflect.get(this, "_process");
    if (isChild(child)) this.child = child;
    return started;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const request = requestOf(message);
    if (request) this.sent.set(request.id, request);
    if (this.sent.size > SENT_MAX) this.sent.delete(this.sent.keys().next().value as RequestId);
    return super.send(message);
  }

  /** Stops the process and waits until it has exited: the same wait for every caller (the SDK's client closes too). */
  override close(): Promise<void> {
    this.closing ??= stopProcess(this.child).then(() => {
      Reflect.set(this, "_process", undefined); // a request after the close fails at once
      this.lines.clear();
    });
    return this.closing;
  }

  private answered(id: RequestId): Sent | undefined {
    const request = this.sent.get(id);
    this.sent.delete(id);
    return request;
  }
}

/** The link to a server run as `target.command`: its stderr is read (the last lines kept for errors), not printed. */
export function stdioLink(target: Extract<ServerTarget, { kind: "stdio" }>, server: string, reading: Reading): Link {
  const { command, args, env, cwd, secrets } = target;
  const transport = new WatchedStdioTransport({ command, args, env, cwd, stderr: "pipe" }, reading);
  const stderr = keepTail(transport.stderr);
  return {
    transport,
    server,
    secrets,
    reading,
    lost(cause) {
      const { child } = transport;
      const exitCode = child?.exitCode ?? undefined;
      const exitSignal = child?.signalCode ?? undefined;
      const message =
        child?.pid === undefined
          ? `Could not start the MCP server "${server}": ${explain(cause)}`
          : exitCode !== undefined
            ? `The MCP server "${server}" exited with code ${exitCode}`
            : exitSignal !== undefined
              ? `The MCP server "${server}" was ended by ${exitSignal}`
              : `The MCP server "${server}" failed: ${explain(cause)}`;
      return new McpServerError(message, { server, exitCode, exitSignal, stderr: stderr(), cause, secrets });
    },
    close: () => transport.close(),
  };
}

/** Ends `child`'s stdin, then sends SIGTERM, then SIGKILL, each after it has not exited within a step; until it exits. */
async function stopProcess(child: Child | undefined): Promise<void> {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<boolean>((resolve) => child.once("exit", () => resolve(true)));
  try {
    child.stdin?.end();
  } catch {
    // its stdin already closed: the signals follow
  }
  for (const signal of [undefined, "SIGTERM", "SIGKILL"]) {
    if (signal) child.kill(signal);
    if (await within(STOP_STEP_MS, exited)) return;
  }
}

/** Whether `promise` resolved within `ms`. */
async function within(ms: number, promise: Promise<boolean>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([promise, timeUp]);
  clearTimeout(timer);
  return done;
}

function isChild(value: unknown): value is Child {
  return typeof value === "object" && value !== null && typeof Reflect.get(value, "kill") === "function";
}

/** The part of a Node stream read here. */
interface DataSource {
  on(event: "data", listener: (chunk: unknown) => void): unknown;
}

/** Reads `stream` as it comes (so the process never blocks on a full pipe); returns its last lines so far (the first may be cut). */
function keepTail(stream: unknown): () => string {
  let text = "";
  if (isDataSource(stream)) {
    const decoder = new TextDecoder();
    stream.on("data", (chunk) => {
      text = (text + (chunk instanceof Uint8Array ? decoder.decode(chunk, { stream: true }) : String(chunk))).slice(
        -TAIL_KEPT,
      );
    });
  }
  return () => text.trimEnd().split("\n").slice(-TAIL_LINES).join("\n");
}

function isDataSource(value: unknown): value is DataSource {
  return typeof value === "object" && value !== null && typeof Reflect.get(value, "on") === "function";
}
