/** A server reached over Streamable HTTP (the SDK's transport), with every answer stream watched for a break. */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { McpServerError } from "./errors";
import { explain, type Link } from "./link";
import type { ServerTarget } from "./options";

/** How long `close()` waits for the server to end the session (an HTTP DELETE) before it closes anyway. */
const END_SESSION_WAIT_MS = 2_000;

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
type RequestId = string | number;

/** The link to the server at `url`; `headers` go with every request. */
export function httpLink({ url, headers }: Extract<ServerTarget, { kind: "http" }>): Link {
  const server = `${url.origin}${url.pathname}`;
  const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    fetch: watchAnswers((id, cause) => transport.onmessage?.(brokenAnswer(id, cause))),
  });
  return {
    transport,
    server,
    lost: (cause) => new McpServerError(`The MCP server "${server}" failed: ${explain(cause)}`, { server, cause }),
    async close() {
      await within(END_SESSION_WAIT_MS, transport.terminateSession());
      await transport.close(); // aborts every request still open
    },
  };
}

/**
 * A fetch that tells `onBreak` when the answer stream of a request sent by POST breaks: the SDK reports that only
 * to `onerror`, and the request would wait for its time limit.
 */
function watchAnswers(onBreak: (id: RequestId, cause: unknown) => void): Fetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    const id = requestIdOf(init);
    if (id === undefined || !response.ok || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(error);
          if (!init?.signal?.aborted) onBreak(id, error); // aborted: the transport is closing
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The id of the JSON-RPC request a POST carries; undefined for a notification, an answer or a batch. */
function requestIdOf(init: RequestInit | undefined): RequestId | undefined {
  if (init?.method !== "POST" || typeof init.body !== "string") return undefined;
  const message: unknown = JSON.parse(init.body);
  if (typeof message !== "object" || message === null || !("method" in message) || !("id" in message)) return undefined;
  return typeof message.id === "string" || typeof message.id === "number" ? message.id : undefined;
}

/** The JSON-RPC error answer that ends request `id`, whose answer can no longer come. */
function brokenAnswer(id: RequestId, cause: unknown): JSONRPCMessage {
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
