/** The one way a request reaches a server: under a time limit and the caller's signal, its failure typed. */
import { AbortError } from "@hfkit/inference";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpTimeoutError } from "./errors";
import { carriedLimit } from "./limits";
import type { Link } from "./link";

/** What bounds a request, and what its failures are called. */
export interface Bounds {
  /** The time limit, ms (at most a timer's longest). */
  timeoutMs: number;
  /** The error when the time limit passes. */
  timedOut: () => McpTimeoutError;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  /** The error when the server answers with a JSON-RPC error. */
  refused: (error: McpError) => Error;
}

/**
 * Runs `send` (one request, or the few of connecting) under `bounds`. The time limit, the caller's abort or a bound
 * the server passed that ends the connection cancels the request and is the error; an answer past its bound is that
 * bound's error; a closed connection or a transport's failure is the link's error.
 */
export async function bounded<T>(
  link: Link,
  bounds: Bounds,
  send: (options: RequestOptions) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(bounds.timedOut()), bounds.timeoutMs);
  const onAbort = () =>
    stop.abort(new AbortError("The MCP request was aborted by its signal", { cause: bounds.signal?.reason }));
  const { broken } = link.reading;
  const onBroken = () => stop.abort(broken.reason);
  if (bounds.signal?.aborted) onAbort();
  else bounds.signal?.addEventListener("abort", onAbort, { once: true });
  if (broken.aborted) onBroken();
  else broken.addEventListener("abort", onBroken, { once: true });
  try {
    if (stop.signal.aborted) throw stop.signal.reason; // already aborted: nothing is sent
    // The SDK's own limit is the same (without it, the SDK's default of 60 s would apply).
    return await send({ signal: stop.signal, timeout: bounds.timeoutMs });
  } catch (error) {
    // The SDK rejects an aborted request with its own error: the reason says what happened.
    throw stop.signal.aborted ? stop.signal.reason : failure(error, link, bounds);
  } finally {
    clearTimeout(timer);
    bounds.signal?.removeEventListener("abort", onAbort);
    broken.removeEventListener("abort", onBroken);
  }
}

// The SDK's codes for a connection that closed and a request it timed out (an McpError's `code` is a number).
const CONNECTION_CLOSED: number = ErrorCode.ConnectionClosed;
const REQUEST_TIMEOUT: number = ErrorCode.RequestTimeout;

function failure(error: unknown, link: Link, bounds: Bounds): Error {
  const limit = carriedLimit(error);
  if (limit) return limit;
  if (!(error instanceof McpError) || error.code === CONNECTION_CLOSED) return link.lost(error);
  if (error.code === REQUEST_TIMEOUT) return bounds.timedOut();
  return bounds.refused(error);
}
