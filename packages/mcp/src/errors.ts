/**
 * The typed errors of MCP tools. Each extends `InferenceError` of `@hfkit/inference` (catch that to catch
 * them all), carries its class name as `kind` and `name`, and `instanceof` works across copies of the package.
 * Bad options are `@hfkit/inference`'s `InputError`, an aborted connect or call its `AbortError`.
 *
 * This is where a server's words become an error's: each constructor bounds them and redacts the credentials of
 * the connection (`secrets`), any HF token and any `Bearer …` value, in the message, the fields and the cause.
 */
import { InferenceError, TimeoutError } from "@hfkit/inference";
import { DEFAULTS } from "./options";
import { redactText, safeCause, type Secrets, serverTail, serverText } from "./redact";
import { cutText } from "./result";

/** At most this many characters of a message made of a server's words (stderr aside), and of a name in one. */
const MESSAGE_MAX = 1_000;
const NAME_MAX = 100;
/** At most this many characters of a server's stderr (its last lines are kept). */
const STDERR_MAX = 4_000;

/** `name` (a tool's or a server's) as an error shows it: redacted, and cut with `…`. */
function nameText(name: string, secrets: Secrets): string {
  const shown = serverText(name, secrets, NAME_MAX);
  return name.length > NAME_MAX ? `${shown}…` : shown;
}

/** What is known of a server that failed. */
export interface McpServerErrorInit {
  /** The server: its command (stdio) or its URL without credentials or query (HTTP). */
  server: string;
  /** The exit code of the server's process, when it exited (stdio). */
  exitCode?: number | undefined;
  /** The signal that ended the server's process, e.g. `"SIGKILL"` (stdio). */
  exitSignal?: string | undefined;
  /** The last lines the process wrote to stderr (stdio). */
  stderr?: string;
  /** The underlying error (kept as a copy that shows no credential and is bounded). */
  cause?: unknown;
  /** The credentials given to the server: never shown in the message, `stderr` or the cause. */
  secrets?: Secrets;
}

/**
 * The server cannot answer: its process could not start or exited (with its exit code or signal and the last
 * lines of its stderr), the HTTP connection failed or an answer's stream broke, or the tools were closed.
 */
export class McpServerError extends InferenceError {
  /** The class's name, which `instanceof` checks across copies of the package. */
  static override readonly kind: string = "McpServerError";
  /** The server: its command (stdio) or its URL without credentials or query (HTTP). */
  declare readonly server: string;
  /** The exit code of the server's process; undefined when it did not exit with one, or over HTTP. */
  declare readonly exitCode: number | undefined;
  /** The signal that ended the server's process, e.g. `"SIGKILL"`; undefined otherwise. */
  declare readonly exitSignal: string | undefined;
  /** The last lines (at most 20, 4 000 characters) the process wrote to stderr; `""` over HTTP. */
  declare readonly stderr: string;

  /** `message` says what failed; the message gets the stderr lines appended. */
  constructor(message: string, init: McpServerErrorInit) {
    const { secrets = [] } = init;
    const stderr = serverTail(init.stderr ?? "", secrets, STDERR_MAX);
    const cause = safeCause(init.cause, secrets);
    const said = serverText(message, secrets, MESSAGE_MAX);
    super(stderr ? `${said}. Its stderr ends with:\n${stderr}` : said, cause === undefined ? undefined : { cause });
    this.server = serverText(init.server, secrets, MESSAGE_MAX);
    this.exitCode = init.exitCode;
    this.exitSignal = init.exitSignal;
    this.stderr = stderr;
  }
}

/**
 * The tool answered with an error (`isError: true`), or the server refused the call (a JSON-RPC error). Its message
 * is the server's text, redacted and cut to `maxResultBytes` (the tool runner tells the model `Error: <tool> failed: <message>`).
 */
export class McpToolError extends InferenceError {
  /** The class's name, which `instanceof` checks across copies of the package. */
  static override readonly kind: string = "McpToolError";
  /** The tool's name on the server. */
  declare readonly tool: string;
  /** What the server said, as text, redacted and cut to `maxResultBytes`. */
  declare readonly text: string;
  /** The JSON-RPC error code when the server refused the call (e.g. -32602, bad arguments); undefined for a tool's `isError`. */
  declare readonly code: number | undefined;

  /**
   * `tool` is the server's name for it, `text` what the server said, `code` its JSON-RPC error code if any; `text`
   * is cut to `maxResultBytes` (default 100 000) with `secrets` redacted.
   */
  constructor(tool: string, text: string, code?: number, init: { secrets?: Secrets; maxResultBytes?: number } = {}) {
    const { secrets = [], maxResultBytes = DEFAULTS.maxResultBytes } = init;
    // Redacted, then cut: no credential's start is left at the cut (the text was read within a call's bound).
    const said = cutText(redactText(text, secrets), maxResultBytes);
    super(said);
    this.tool = serverText(tool, secrets, MESSAGE_MAX);
    this.text = said;
    this.code = code;
  }
}

/** Which time limit of an MCP connection passed: `"connect"` (`connectTimeout`) or `"call"` (`callTimeout`). */
export type McpTimeoutPhase = "connect" | "call";

/**
 * A time limit passed: connecting and listing the tools took longer than `connectTimeout`, or a call longer than
 * `callTimeout` (the request was cancelled on the server). A `TimeoutError` of `@hfkit/inference` too (`kind: "deadline"`).
 */
export class McpTimeoutError extends TimeoutError {
  /** The class's name, which `instanceof` checks across copies of the package. */
  static override readonly kind: string = "McpTimeoutError";
  /** `"connect"` (`connectTimeout`) or `"call"` (`callTimeout`). */
  declare readonly phase: McpTimeoutPhase;
  /** The tool's name on the server, for a call. */
  declare readonly tool: string | undefined;

  /** The limit that passed, its value in ms, and the server (its command or URL) or the tool. */
  constructor(phase: McpTimeoutPhase, timeoutMs: number, subject: string, secrets: Secrets = []) {
    super("deadline", timeoutMs);
    const shown = nameText(subject, secrets);
    this.message =
      phase === "call"
        ? `The MCP tool "${shown}" did not answer within callTimeout (${timeoutMs} ms); the call was cancelled`
        : `The MCP server "${shown}" did not connect and list its tools within connectTimeout (${timeoutMs} ms)`;
    this.phase = phase;
    this.tool = phase === "call" ? serverText(subject, secrets, MESSAGE_MAX) : undefined;
  }
}

/** Two tools of one server get the same name for the model (after `prefix`, the cleaning and the cut to 64 characters). */
export class DuplicateToolNameError extends InferenceError {
  /** The class's name, which `instanceof` checks across copies of the package. */
  static override readonly kind: string = "DuplicateToolNameError";
  /** The name both would get. */
  declare readonly toolName: string;
  /** Their names on the server. */
  declare readonly mcpNames: readonly [string, string];

  /** `toolName` is the shared name, `first` and `second` the server's names for the two tools. */
  constructor(toolName: string, first: string, second: string, secrets: Secrets = []) {
    const [one, other, both] = [first, second, toolName].map((name) => nameText(name, secrets));
    super(`The MCP tools "${one}" and "${other}" would both be called "${both}": leave one out with \`filter\``);
    this.toolName = serverText(toolName, secrets, MESSAGE_MAX);
    this.mcpNames = [serverText(first, secrets, MESSAGE_MAX), serverText(second, secrets, MESSAGE_MAX)];
  }
}

/**
 * Which bound a server passed: an option (`maxListBytes`, `maxListPages`, `maxTools`, `maxResultBytes`), the size of
 * one message (`messageBytes`), or the size of one tool's name, description or input schema.
 */
export type McpLimit =
  | "maxListBytes"
  | "maxListPages"
  | "maxTools"
  | "maxResultBytes"
  | "messageBytes"
  | "toolName"
  | "toolDescription"
  | "toolSchema";

const LIMIT_WORDS: Record<McpLimit, (max: number, subject: string) => string> = {
  maxListBytes: (max, server) =>
    `The MCP server "${server}" sent more than maxListBytes (${max} bytes) while connecting and listing its tools`,
  maxListPages: (max, server) => `The MCP server "${server}" listed its tools in more than maxListPages (${max}) pages`,
  maxTools: (max, server) => `The MCP server "${server}" lists more than maxTools (${max}) tools`,
  maxResultBytes: (max, tool) =>
    `The answer of the MCP tool "${tool}" passed ${answerBytes(max)} bytes (4 × maxResultBytes, ${max}, + 64 KiB); reading it stopped: raise maxResultBytes to take it`,
  messageBytes: (max, server) => `The MCP server "${server}" sent a message of more than ${max} bytes; it was stopped`,
  toolName: (max, tool) =>
    `The MCP tool "${tool}" has a name of more than ${max} characters: leave it out with \`filter\``,
  toolDescription: (max, tool) =>
    `The MCP tool "${tool}" has a description of more than ${max} characters: leave it out with \`filter\``,
  toolSchema: (max, tool) =>
    `The MCP tool "${tool}" has an input schema of more than ${max} characters of JSON: leave it out with \`filter\``,
};

/** The most bytes of a call's answer read: JSON escapes (up to 3 × a text), `structuredContent` beside its text and the envelope take room. */
export function answerBytes(maxResultBytes: number): number {
  return 4 * maxResultBytes + 65_536;
}

/** Who passed a bound: the server (its command or URL), and the tool when it was one. */
export interface McpLimitSubject {
  /** The server's name, as the connect options give it. */
  server: string;
  /** The tool whose call went past the bound (absent while connecting). */
  tool?: string | undefined;
}

/**
 * A server sent more than a bound allows: reading stopped there. While connecting (the handshake and the tool list:
 * bytes, pages, count, one tool's size) the connect fails and the server is stopped; a call's answer past its bound
 * fails that call; over stdio, a message past the largest one allowed stops the server.
 */
export class McpLimitError extends InferenceError {
  /** The class's name, which `instanceof` checks across copies of the package. */
  static override readonly kind: string = "McpLimitError";
  /** Which bound passed. */
  declare readonly limit: McpLimit;
  /** Its value: the option's (`maxResultBytes` for a call's answer), else the bound in bytes or characters. */
  declare readonly max: number;
  /** The server: its command or its URL without credentials or query. */
  declare readonly server: string;
  /** The tool's name on the server (cut and redacted), when the bound was a tool's or a call's. */
  declare readonly tool: string | undefined;

  /** The bound that passed, its value, and who passed it. */
  constructor(limit: McpLimit, max: number, subject: McpLimitSubject, secrets: Secrets = []) {
    const tool = subject.tool === undefined ? undefined : nameText(subject.tool, secrets);
    super(LIMIT_WORDS[limit](max, tool ?? nameText(subject.server, secrets)));
    this.limit = limit;
    this.max = max;
    this.server = serverText(subject.server, secrets, MESSAGE_MAX);
    this.tool = tool;
  }
}
