/** The connection to one server, whichever the transport: what it is called, why it failed, how it closes. */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpServerError } from "./errors";
import type { ServerTarget } from "./options";

/** One server's transport and what only the transport knows. */
export interface Link {
  /** The SDK's transport, for the `Client`. */
  readonly transport: Transport;
  /** The server in messages: its command, or its URL without credentials or query. */
  readonly server: string;
  /** The error for a request that failed because the server is gone or unreachable, `cause` being the SDK's error. */
  lost(cause: unknown): McpServerError;
  /** Stops the server (stdio) or ends the session (HTTP); once, bounded in time. */
  close(): Promise<void>;
}

/** The link for `target`; nothing is started until the `Client` connects it. */
export async function openLink(target: ServerTarget): Promise<Link> {
  // Imported when used: an HTTP-only app does not load the stdio transport (and its child_process).
  if (target.kind === "stdio") return closedOnce((await import("./stdio")).stdioLink(target));
  return closedOnce((await import("./http")).httpLink(target));
}

/** `link`, closed at most once; a request after the close fails as closed, whatever the transport says. */
function closedOnce(link: Link): Link {
  let closed: Promise<void> | undefined;
  const { transport, server } = link;
  const closedError = (cause: unknown) => new McpServerError(`The connection to the MCP server "${server}" was closed`, { server, cause });
  return {
    transport,
    server,
    lost: (cause) => (closed ? closedError(cause) : link.lost(cause)),
    close: () => (closed ??= link.close().catch(() => undefined)),
  };
}

/** An error's message, with its cause's code when it has one (`fetch failed (ECONNREFUSED)`). */
export function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code: unknown = error.cause instanceof Error ? Reflect.get(error.cause, "code") : undefined;
  return typeof code === "string" ? `${error.message} (${code})` : error.message;
}
