/**
 * The typed errors of MCP tools. Each extends `InferenceError` of `@hfkit/inference` (catch that to catch
 * them all), carries its class name as `kind` and `name`, and `instanceof` works across copies of the package.
 * Bad options are `@hfkit/inference`'s `InputError`, an aborted connect or call its `AbortError`.
 */
import { InferenceError, TimeoutError } from "@hfkit/inference";

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
  /** The underlying error. */
  cause?: unknown;
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
    const stderr = init.stderr ?? "";
    const options = init.cause === undefined ? undefined : { cause: init.cause };
    super(stderr ? `${message}. Its stderr ends with:\n${stderr}` : message, options);
    this.server = init.server;
    this.exitCode = init.exitCode;
    this.exitSignal = init.exitSignal;
    this.stderr = stderr;
  }
}

/**
 * The tool answered with an error (`isError: true`), or the server refused the call (a JSON-RPC error). Its message
 * is the server's text, as it is (the tool runner tells the model `Error: <tool> failed: <message>`).
 */
export class McpToolError extends InferenceError {
  /** The class's name, which `instanceof` checks across copies of the package. */
  static override readonly kind: string = "McpToolError";
  /** The tool's name on the server. */
  declare readonly tool: string;
  /** What the server said, as text, cut to `maxResultBytes`. */
  declare readonly text: string;
  /** The JSON-RPC error code when the server refused the call (e.g. -32602, bad arguments); undefined for a tool's `isError`. */
  declare readonly code: number | undefined;

  /** `tool` is the server's name for it, `text` what the server said, `code` its JSON-RPC error code if any. */
  constructor(tool: string, text: string, code?: number) {
    super(text);
    this.tool = tool;
    this.text = text;
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
  constructor(phase: McpTimeoutPhase, timeoutMs: number, subject: string) {
    super("deadline", timeoutMs);
    this.message =
      phase === "call"
        ? `The MCP tool "${subject}" did not answer within callTimeout (${timeoutMs} ms); the call was cancelled`
        : `The MCP server "${subject}" did not connect and list its tools within connectTimeout (${timeoutMs} ms)`;
    this.phase = phase;
    this.tool = phase === "call" ? subject : undefined;
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
  constructor(toolName: string, first: string, second: string) {
    super(`The MCP tools "${first}" and "${second}" would both be called "${toolName}": leave one out with \`filter\``);
    this.toolName = toolName;
    this.mcpNames = [first, second];
  }
}
