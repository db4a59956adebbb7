/** What every call is sent with, made once from its arguments and options (checked first, by `checks/params.ts` `checkArgs`): its clock, connection, retry policy and logger. */
import { InputError } from "./errors";
import { redactText } from "./redact";
import { getLogger } from "./logger";
import { Call, holdable } from "./call";
import { callToken, debugLog } from "./environment";
import { type Connection, connection } from "./request";
import type { RetryPolicy } from "./retry";
import type { BaseArgs, Logger, Options } from "../types";

export const DEFAULT_FIRST_CHUNK_TIMEOUT = 300_000;
export const DEFAULT_IDLE_TIMEOUT = 60_000;
export const DEFAULT_STALL_TIMEOUT = 300_000;
export const DEFAULT_MAX_RETRIES = 2;
type Duration = "timeout" | "firstChunkTimeout" | "idleTimeout" | "stallTimeout";

/** A duration option: a number of ms > 0, or Infinity for none; held as a timer can hold it. */
function duration(options: Options, field: Duration, fallback: number): number;
function duration(options: Options, field: Duration, fallback?: number): number | undefined;
function duration(options: Options, field: Duration, fallback?: number): number | undefined {
  const v = options[field];
  if (v === undefined) return fallback;
  if (!(typeof v === "number" && v > 0)) {
    throw new InputError(
      `\`${field}\` must be a number of milliseconds > 0, or Infinity for none (got ${String(v)})`,
      field,
    );
  }
  return holdable(v);
}

/** What every call needs to send its requests: its clock, its connection, its retry policy, its logger. */
export interface Sending {
  readonly call: Call;
  readonly conn: Connection;
  readonly policy: RetryPolicy;
  readonly logger: Logger;
}

/** The clock, connection and retry policy of a call to `model`, made once from the arguments and options (checked first). */
export function sending(args: Pick<BaseArgs, "accessToken">, options: Options, model: string): Sending {
  const limits = {
    timeout: duration(options, "timeout"),
    firstChunkTimeout: duration(options, "firstChunkTimeout", DEFAULT_FIRST_CHUNK_TIMEOUT),
    idleTimeout: duration(options, "idleTimeout", DEFAULT_IDLE_TIMEOUT),
    stallTimeout: duration(options, "stallTimeout", DEFAULT_STALL_TIMEOUT),
    signal: options.signal,
  };
  const token = callToken(args.accessToken);
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
