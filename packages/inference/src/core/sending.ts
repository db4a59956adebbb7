/** What every call is sent with, made once from its arguments and options (checked first): its clock, connection, retry policy and logger. */
import { InputError } from "./errors";
import { redactText } from "./redact";
import { getLogger } from "./logger";
import { Call, holdable } from "./call";
import { debugLog, envToken } from "./environment";
import { type Connection, connection } from "./request";
import type { RetryPolicy } from "./retry";
import type { BaseArgs, Logger, Options } from "../types";

export const DEFAULT_FIRST_CHUNK_TIMEOUT = 300_000;
export const DEFAULT_IDLE_TIMEOUT = 60_000;
export const DEFAULT_STALL_TIMEOUT = 300_000;
export const DEFAULT_MAX_RETRIES = 2;
/** More retries than this only hammer a failing server. */
const MAX_RETRIES = 100;

type Duration = "timeout" | "firstChunkTimeout" | "idleTimeout" | "stallTimeout";

/** A duration option: a number of ms > 0, or Infinity for none; held as a timer can hold it. */
function duration(options: Options, field: Duration, fallback: number): number;
function duration(options: Options, field: Duration, fallback?: number): number | undefined;
function duration(options: Options, field: Duration, fallback?: number): number | undefined {
  const v = options[field];
  if (v === undefined) return fallback;
  if (!(typeof v === "number" && v > 0)) {
    throw new InputError(`\`${field}\` must be a number of milliseconds > 0, or Infinity for none (got ${String(v)})`, field);
  }
  return holdable(v);
}

const BACKEND_NAMES: readonly unknown[] = ["tgi", "transformers", "openai"];

function checkOptions(options: Options): void {
  if (options.backend !== undefined && !BACKEND_NAMES.includes(options.backend)) {
    throw new InputError(`\`backend\` must be "tgi", "transformers" or "openai" (got ${JSON.stringify(options.backend)})`, "backend");
  }
  const r = options.maxRetries;
  if (r !== undefined && !(Number.isInteger(r) && r >= 0 && r <= MAX_RETRIES)) {
    throw new InputError(`\`maxRetries\` must be an integer from 0 to ${MAX_RETRIES} (got ${String(r)})`, "maxRetries");
  }
}

/** The checks every call makes of its arguments object, its token and its options, before anything else. */
export function checkArgs(args: unknown, options: Options): void {
  if (typeof args !== "object" || args === null) throw new InputError("The arguments must be an object", "args");
  const { accessToken: token }: { accessToken?: unknown } = args;
  // Never echoed: the message names what is wrong, not the value.
  // A header value: printable ASCII without spaces (a control character would split the request).
  if (token !== undefined && (typeof token !== "string" || /[^!-~]/.test(token))) {
    throw new InputError("`accessToken` must be a string of printable ASCII without white space (a token read from a file may end in a newline: trim it)", "accessToken");
  }
  checkOptions(options);
}


/** What every call needs to send its requests: its clock, its connection, its retry policy, its logger. */
export interface Sending {
  readonly call: Call;
  readonly conn: Connection;
  readonly policy: RetryPolicy;
  readonly logger: Logger;
}

/** The clock, connection and retry policy of a call to `model`, made once from the arguments and options (checked first). */
export function sending(args: BaseArgs, options: Options, model: string): Sending {
  const limits = {
    timeout: duration(options, "timeout"),
    firstChunkTimeout: duration(options, "firstChunkTimeout", DEFAULT_FIRST_CHUNK_TIMEOUT),
    idleTimeout: duration(options, "idleTimeout", DEFAULT_IDLE_TIMEOUT),
    stallTimeout: duration(options, "stallTimeout", DEFAULT_STALL_TIMEOUT),
    signal: options.signal,
  };
  const token = args.accessToken ?? envToken();
  const logger = redactingLogger(options.logger ?? getLogger(), token);
  const debug = debugLog(logger);
  const policy: RetryPolicy = {
    debug,
    enabled: options.retry_on_error !== false,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    logger,
    onRetry: options.onRetry,
    model,
  };
  return { call: new Call(limits, token), conn: connection(options, token, debug), policy, logger };
}

/** What the logger is warned of passes through redaction: a warning may quote a server's words (debug lines quote only redacted ones). */
function redactingLogger(logger: Logger, secret: string | undefined): Logger {
  return { debug: logger.debug?.bind(logger), warn: (m) => logger.warn(redactText(m, secret)) };
}
