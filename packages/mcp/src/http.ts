/**
 * A server reached over Streamable HTTP (the SDK's transport). Every answer comes through one bounded reader: an
 * error body is cut to its start, an answer or an event past its bound is cancelled (and its request fails with the
 * bound's error), and an answer stream that breaks ends its request at once.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { McpLimitError, McpServerError } from "./errors";
import { limitAnswer, type Reading, requestOf } from "./limits";
import { explain, type Link } from "./link";
import type { ServerTarget } from "./options";

/** How long `close()` waits for the server to end the session (an HTTP DELETE) before it closes anyway. */
const END_SESSION_WAIT_MS = 2_000;
/** The most bytes of an error body read (its start goes into the error's message; the rest is never read). */
const ERROR_BODY_BYTES = 4_096;
/** Statuses whose responses have no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
type RequestId = string | number;
/** A request the client sent, as the reader of its answer needs it. */
type Sent = ReturnType<typeof requestOf>;

/** The link to the server at `target.url`, named `server`; `headers` go with every request. */
export function httpLink(
  { url, headers, secrets }: Extract<ServerTarget, { kind: "http" }>,
  server: string,
  reading: Reading,
): Link {
  const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch: readWithin(reading, (id, cause) => transport.onmessage?.(endingAnswer(id, cause))),
  });
  return {
    transport,
    server,
    secrets,
    reading,
    lost: (cause) =>
      new McpServerError(`The MCP server "${server}" failed: ${explain(cause)}`, { server, cause, secrets }),
    async close() {
      await within(END_SESSION_WAIT_MS, transport.terminateSession());
      await transport.close(); // aborts every request still open
    },
  };
}

/**
 * A fetch whose answers are read within `reading`'s bounds, telling `onEnd` when the answer to a request ends
 * without it (past a bound, or broken: the SDK reports a break only to `onerror`, and the request would wait).
 */
function readWithin(reading: Reading, onEnd: (id: RequestId, cause: unknown) => void): Fetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body || NULL_BODY.has(response.status)) return response;
    if (!response.ok) return rebuilt(response, await start(response.body));
    const sent =
      typeof init?.body === "string" && init.method === "POST" ? requestOf(JSON.parse(init.body)) : undefined;
    const events = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const end = (cause: unknown) => {
      if (sent && !init?.signal?.aborted) onEnd(sent.id, cause); // aborted: the transport is closing
    };
    return rebuilt(response, boundedBody(response.body, { reading, sent, events, end }));
  };
}

interface BodyBounds {
  reading: Reading;
  sent: Sent;
  /** An event stream (each event bounded) rather than one JSON answer (bounded whole). */
  events: boolean;
  end: (cause: unknown) => void;
}

/** `body`, read within its bounds: past one, the body is cancelled and errors with the bound's `McpLimitError`. */
function boundedBody(
  body: ReadableStream<Uint8Array>,
  { reading, sent, events, end }: BodyBounds,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const limit = reading.limitFor(sent?.method);
  const measure = events ? eventSizer() : totalSizer();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        const overBudget = reading.count(value.length);
        if (!overBudget && measure(value) <= limit) return controller.enqueue(value);
        const error = reading.tooLarge(sent?.method, sent?.tool);
        if (overBudget) reading.break(error);
        throw error;
      } catch (error) {
        if (error instanceof McpLimitError) void reader.cancel(error).catch(() => undefined);
        controller.error(error);
        end(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The sizes of one JSON answer as it comes: its bytes so far. */
function totalSizer(): (bytes: Uint8Array) => number {
  let size = 0;
  return (bytes) => (size += bytes.length);
}

/** The sizes of an event stream's events as its bytes come: the largest an event has reached (line ends not counted). */
function eventSizer(): (bytes: Uint8Array) => number {
  let size = 0;
  let afterLineEnd = false;
  return (bytes) => {
    let largest = size;
    for (const byte of bytes) {
      if (byte === 0x0d) continue;
      if (byte !== 0x0a) {
        size++;
        afterLineEnd = false;
      } else if (afterLineEnd) {
        largest = Math.max(largest, size);
        size = 0; // a blank line: the event ended
      } else afterLineEnd = true;
    }
    return Math.max(largest, size);
  };
}

/** The first `ERROR_BODY_BYTES` of `body`; the rest is cancelled, never read. */
async function start(body: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const kept = new Uint8Array(ERROR_BODY_BYTES);
  let size = 0;
  try {
    while (size < ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, ERROR_BODY_BYTES - size);
      kept.set(part, size);
      size += part.length;
    }
  } catch {
    // a body that broke: what came is what there is
  }
  void reader.cancel().catch(() => undefined);
  return kept.slice(0, size);
}

/** `response` with `body` in place of its own. */
function rebuilt(response: Response, body: BodyInit): Response {
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(copy, "url", { value: response.url }); // the SDK names a redirect's target from it
  return copy;
}

/** The JSON-RPC error answer that ends request `id`, whose answer can no longer come. */
function endingAnswer(id: RequestId, cause: unknown): JSONRPCMessage {
  if (cause instanceof McpLimitError) return limitAnswer(id, cause);
  const message = `The answer's stream broke: ${explain(cause)}`;
  return { jsonrpc: "2.0", id, error: { code: ErrorCode.ConnectionClosed, message } };
}

/** Waits for `promise` (its failure ignored), at most `ms`. */
async function within(ms: number, promise: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([promise.catch(() => undefined), timeUp]);
  clearTimeout(timer);
}
