/** What `connectMcp` takes, and its checks: every bad value is an `InputError` naming it, before anything starts. */
import { InputError } from "@hfkit/inference";
import { type Secrets, secretsOf } from "./redact";

/** An MCP server run as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServer {
  /** The program to run, e.g. `"npx"`, `"uvx"`, `"docker"` or `process.execPath`. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /**
   * Environment variables for it, added to the few the SDK passes on (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`,
   * `USER`; on Windows their equivalents): the rest of this process's environment is not passed.
   */
  env?: Record<string, string>;
  /** Its working directory (default: this process's). */
  cwd?: string;
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServer {
  /** Its MCP endpoint, `http:` or `https:`, e.g. `"https://example.com/mcp"`. */
  url: string | URL;
  /** Headers sent with every request, e.g. `{ Authorization: "Bearer …" }`. */
  headers?: Record<string, string>;
}

/** Where the tools come from: a command to run (stdio) or a URL (Streamable HTTP). */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** How `connectMcp` connects, and how the tools it makes call the server. */
export interface ConnectMcpOptions {
  /** How long connecting and listing the tools may take, ms (default 30 000); then `McpTimeoutError`. */
  connectTimeout?: number;
  /** How long each call may take, ms (default 60 000): also each tool's `timeout`. Then `McpTimeoutError`, and the call is cancelled. */
  callTimeout?: number;
  /**
   * The most a result may hold, in UTF-8 bytes (default 100 000; 1 to 256 MiB): a longer one is cut, with a note of how
   * much was left out. A call's answer is read up to 4 × this + 64 KiB; past that the call fails with `McpLimitError`.
   */
  maxResultBytes?: number;
  /** The most tools the server may list, before `filter` (default 1 000; 1 to 100 000); more is `McpLimitError`. */
  maxTools?: number;
  /**
   * The most bytes connecting may read: the handshake's answer and every page of the tool list together (default
   * 8 MiB; 1 KiB to 1 GiB). Past it reading stops: `McpLimitError`, and the server is stopped.
   */
  maxListBytes?: number;
  /** The most pages of the tool list read (`nextCursor`; default 32; 1 to 10 000); more is `McpLimitError`. */
  maxListPages?: number;
  /** Which tools to keep, by their names on the server (default: all). */
  filter?: (name: string) => boolean;
  /** Put before each tool's name (letters, digits, `_`, `-`), to tell apart the tools of several servers in one run. */
  prefix?: string;
  /** Aborts connecting: `connectMcp` then rejects with `AbortError` and the server is stopped. */
  signal?: AbortSignal;
}

/** The options with their defaults, checked. */
export interface Settings {
  connectTimeout: number;
  callTimeout: number;
  maxResultBytes: number;
  maxTools: number;
  maxListBytes: number;
  maxListPages: number;
  filter: (name: string) => boolean;
  prefix: string;
  signal: AbortSignal | undefined;
}

/** A server, checked: which transport, what it needs, and the credentials given to it (never shown in an error). */
export type ServerTarget = (
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string> | undefined; cwd: string | undefined }
  | { kind: "http"; url: URL; headers: Record<string, string> }
) & { secrets: Secrets };

const MIB = 1024 * 1024;

/** The options' defaults. */
export const DEFAULTS = {
  connectTimeout: 30_000,
  callTimeout: 60_000,
  maxResultBytes: 100_000,
  maxTools: 1_000,
  maxListBytes: 8 * MIB,
  maxListPages: 32,
} as const;

/** The longest delay a timer can hold (about 24.8 days): a longer limit, `Infinity` included, is no limit. */
export const MAX_TIMER_MS = 2_147_483_647;

/** `options` with their defaults; an `InputError` naming the first bad one. */
export function checkOptions(options: ConnectMcpOptions): Settings {
  const { filter = () => true, prefix = "", signal } = options;
  if (typeof filter !== "function") throw bad("filter", "filter must be a function of a tool's name");
  if (typeof prefix !== "string" || !/^[\w-]{0,63}$/.test(prefix)) {
    throw bad("prefix", "prefix must be at most 63 letters, digits, `_` or `-`");
  }
  return {
    connectTimeout: duration(options.connectTimeout ?? DEFAULTS.connectTimeout, "connectTimeout"),
    callTimeout: duration(options.callTimeout ?? DEFAULTS.callTimeout, "callTimeout"),
    maxResultBytes: wholeNumber(options.maxResultBytes ?? DEFAULTS.maxResultBytes, "maxResultBytes", 1, 256 * MIB),
    maxTools: wholeNumber(options.maxTools ?? DEFAULTS.maxTools, "maxTools", 1, 100_000),
    maxListBytes: wholeNumber(options.maxListBytes ?? DEFAULTS.maxListBytes, "maxListBytes", 1024, 1024 * MIB),
    maxListPages: wholeNumber(options.maxListPages ?? DEFAULTS.maxListPages, "maxListPages", 1, 10_000),
    filter,
    prefix,
    signal,
  };
}

/** `server` as a stdio or an HTTP target; an `InputError` naming the bad field. */
export function checkServer(server: McpServerConfig): ServerTarget {
  if (typeof server !== "object" || server === null) throw bad("server", "server must be { command } or { url }");
  const hasCommand = "command" in server && server.command !== undefined;
  const hasUrl = "url" in server && server.url !== undefined;
  if (hasCommand === hasUrl) throw bad("server", "server needs either `command` (stdio) or `url` (Streamable HTTP)");
  return "command" in server ? stdioTarget(server) : httpTarget(server);
}

function stdioTarget({ command, args = [], env, cwd }: McpStdioServer): ServerTarget {
  if (typeof command !== "string" || command === "") throw bad("command", "command must be a non-empty string");
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
    throw bad("args", "args must be an array of strings");
  }
  if (env !== undefined && !isStringRecord(env)) throw bad("env", "env must be an object of strings");
  if (cwd !== undefined && typeof cwd !== "string") throw bad("cwd", "cwd must be a string");
  return { kind: "stdio", command, args, env, cwd, secrets: secretsOf({}, env) };
}

function httpTarget({ url, headers = {} }: McpHttpServer): ServerTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad("url", `url is not a URL: ${String(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw bad("url", `url must be http: or https:, not ${parsed.protocol}`);
  }
  if (!isStringRecord(headers)) throw bad("headers", "headers must be an object of strings");
  return { kind: "http", url: parsed, headers, secrets: secretsOf(headers, {}, parsed) };
}

function duration(value: unknown, field: string): number {
  if (typeof value !== "number" || !(value > 0)) throw bad(field, `${field} must be a positive number of milliseconds`);
  return Math.min(value, MAX_TIMER_MS);
}

function wholeNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw bad(field, `${field} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && Object.values(value).every((item) => typeof item === "string");
}

function bad(field: string, message: string): InputError {
  return new InputError(message, field);
}
