/** The connection to one server, whichever the transport: what it is called, why it failed, how it closes. */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type McpLimitError, McpServerError } from "./errors";
import { Reading } from "./limits";
import type { ServerTarget, Settings } from "./options";
import type { Secrets } from "./redact";

/** One server's transport and what only the transport knows. */
export interface Link {
  /** The SDK's transport, for the `Client`. */
  readonly transport: Transport;
  /** The server in messages: its command, or its URL without credentials or query. */
  readonly server: string;
  /** The credentials given to the server, kept out of every error. */
  readonly secrets: Secrets;
  /** What is read from the server, within its bounds; `reading.broken` aborts when the server passed one. */
  readonly reading: Reading;
  /** The error for a request that failed because the server is gone or unreachable, `cause` being the SDK's error. */
  lost(cause: unknown): McpServerError | McpLimitError;
  /** Stops the server (stdio) or ends the session (HTTP); once, bounded in time. */
  close(): Promise<void>;
}

/** The link for `target`, reading within the bounds of `settings`; nothing is started until the `Client` connects it. */
export async function openLink(target: ServerTarget, settings: Settings): Promise<Link> {
  const server = target.kind === "stdio" ? target.command : `${target.url.origin}${target.url.pathname}`;
  const reading = new Reading(settings, { server, secrets: target.secrets });
  // Imported when used: an HTTP-only app does not load the stdio transport (and its child_process).
  const link =
    target.kind === "stdio"
      ? (await import("./stdio")).stdioLink(target, server, reading)
      : (await import("./http")).httpLink(target, server, reading);
  const once = closedOnce(link);
  // A server that passed a bound that ends the connection is stopped (its requests fail with the bound's error).
  reading.broken.addEventListener("abort", () => void once.close(), { once: true });
  return once;
}

/** `link`, closed at most once; a request after the close fails as closed, whatever the transport says. */
function closedOnce(link: Link): Link {
  let closed: Promise<void> | undefined;
  const { server, secrets } = link;
  const closedError = (cause: unknown) =>
    new McpServerError(`The connection to the MCP server "${server}" was closed`, { server, cause, secrets });
  return {
    ...link,
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
