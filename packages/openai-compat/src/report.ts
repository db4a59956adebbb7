import { type CallEvent, type CallTokens, InputError } from "@hfkit/inference";

/** What one request did: the fields of its log line. No token, no prompt, no answer. */
export interface RequestReport {
  /** When it arrived, ISO 8601. */
  time: string;
  /** The HTTP method. */
  method: string;
  /** The route served (`/v1/chat/completions`, `/v1/responses`, `/v1/models`), else the path asked for. */
  route: string;
  /** The body's model, as the client named it. */
  model?: string;
  /** The provider that served it: the router's `x-inference-provider`, or a failover's `served`. */
  provider?: string;
  /** The HTTP status sent to the client; 499 when the client left before any was sent. */
  status: number;
  /** Whether the client asked for a stream. */
  stream?: boolean;
  /** From the call's start to its first chunk with data, in ms (streams). */
  firstChunkMs?: number;
  /** From the request's arrival to its answer's last byte (or the client leaving), in ms. */
  durationMs: number;
  /** Tokens, when the upstream counted them. */
  tokens?: CallTokens;
  /** The class name of the hfkit error that ended the call, e.g. `RateLimitError`. */
  error?: string;
  /** A `TimeoutError`'s limit: `deadline`, `first-chunk`, `idle` or `stall`. */
  errorKind?: string;
}

/** A client's words in a log line: no control characters (no forged lines), at most 200 characters. */
export const clean = (text: string): string => text.replace(/\p{Cc}/gu, "?").slice(0, 200);

/** One request as it is answered: what the proxy learns of it, and what its call tells `observe`. */
export class RequestTrace {
  private readonly started = performance.now();
  private readonly time = new Date().toISOString();
  route: string;
  private call: Partial<RequestReport> = {};

  constructor(
    private readonly method: string,
    path: string,
  ) {
    this.route = clean(path);
  }

  /** The request's body named a model and maybe a stream. */
  asked(body: unknown): void {
    const { model, stream } = (typeof body === "object" && body !== null ? body : {}) as {
      model?: unknown;
      stream?: unknown;
    };
    if (typeof model === "string" && model !== "") this.call.model = clean(model);
    this.call.stream = stream === true;
  }

  /** The `observe` option of the request's call: keeps its first chunk and its end. */
  readonly observe = (event: CallEvent): void => {
    if (event.type === "first-chunk" && this.call.stream) this.call.firstChunkMs = Math.round(event.ms);
    if (event.type !== "end") return;
    if (event.provider) this.call.provider = clean(event.provider);
    if (event.usage) this.call.tokens = { ...event.usage };
    if (event.error) this.call.error = event.error.name;
    if (event.error?.kind) this.call.errorKind = event.error.kind;
  };

  /** The report, once the answer is sent (`status`) or the client left (`undefined`). */
  finish(status: number | undefined): RequestReport {
    const durationMs = Math.round(performance.now() - this.started);
    return { time: this.time, method: this.method, route: this.route, ...this.call, status: status ?? 499, durationMs };
  }
}

/** The report as one JSON object. */
export const jsonLine = (r: RequestReport): string => JSON.stringify(r);

/** The report as a short line: `POST /v1/chat/completions 200 812ms model=… provider=… first=95ms tokens=12+30`. */
export function textLine(r: RequestReport): string {
  const parts = [r.time, r.method, r.route, String(r.status), `${r.durationMs}ms`];
  if (r.model) parts.push(`model=${r.model}`);
  if (r.provider) parts.push(`provider=${r.provider}`);
  if (r.firstChunkMs !== undefined) parts.push(`first=${r.firstChunkMs}ms`);
  if (r.tokens) parts.push(`tokens=${r.tokens.input}+${r.tokens.output}`);
  if (r.error) parts.push(`error=${r.error}${r.errorKind ? `:${r.errorKind}` : ""}`);
  return parts.join(" ");
}

/** How the proxy logs each request: one JSON object a line, a short text line, or nothing. */
export type LogFormat = "json" | "text" | "off";

/** Where log lines go: a function given each line, or a stream written each line and a newline. */
export type LogSink = ((line: string) => void) | LogStream;

/** A stream a log line is written to (`process.stderr`, a file). */
export interface LogStream {
  /** Writes the line (with its newline). */
  write(text: string): unknown;
}

/** The function that logs a report in `format` to `sink` (default: stderr); undefined when off. */
export function requestLogger(format: LogFormat = "off", sink?: LogSink): ((r: RequestReport) => void) | undefined {
  if (!["json", "text", "off"].includes(format))
    throw new InputError(`\`log\` must be "json", "text" or "off" (got ${JSON.stringify(format)})`, "log");
  if (format === "off") return undefined;
  const line = format === "json" ? jsonLine : textLine;
  const write = typeof sink === "function" ? sink : (text: string) => void (sink ?? process.stderr).write(`${text}\n`);
  return (r) => write(line(r));
}
