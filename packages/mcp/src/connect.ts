/** `connectMcp`: one server's tools, from its handshake and tool list, under `connectTimeout`. */
import { AbortError } from "@hfkit/inference";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { McpLimitError, McpTimeoutError } from "./errors";
import { type Link, openLink } from "./link";
import { checkOptions, checkServer, type ConnectMcpOptions, type McpServerConfig, type Settings } from "./options";
import { bounded, type Bounds } from "./request";
import { makeTools, type McpTool } from "./tools";
import { VERSION } from "./version";

/** The tools of one MCP server, and the connection they call it through. */
export interface McpTools {
  /** The server's tools that `filter` kept, in the server's order: pass them to the tool runner. */
  readonly tools: McpTool[];
  /** The SDK's `Client`, connected: for what this package does not cover (resources, prompts, notifications). */
  readonly client: Client;
  /** Stops the server's process (stdio) or ends the session (HTTP); a call after it fails with `McpServerError`. */
  close(): Promise<void>;
  /** `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Connects to an MCP server, run as a child process (`{ command }`, stdio) or over Streamable HTTP (`{ url }`), and
 * lists its tools, as tools of hfkit's tool runner. Rejects with `InputError` (bad options; nothing started),
 * `McpTimeoutError` (past `connectTimeout`), `McpServerError` (the server did not start, exited or is unreachable),
 * `McpLimitError` (the listing passed a bound), `DuplicateToolNameError` or `AbortError` (`signal`); the server is
 * stopped then, and its process has exited when the promise rejects. Close the tools when done.
 */
export async function connectMcp(server: McpServerConfig, options: ConnectMcpOptions = {}): Promise<McpTools> {
  const target = checkServer(server);
  const settings = checkOptions(options);
  const { signal } = settings;
  if (signal?.aborted)
    throw new AbortError("Connecting to the MCP server was aborted by its signal", { cause: signal.reason });
  const link = await openLink(target, settings);
  const client = new Client({ name: "hfkit", version: VERSION });
  try {
    const listed = await bounded(link, connectBounds(link, settings), async (requestOptions) => {
      await client.connect(link.transport, requestOptions);
      return listTools(client, requestOptions, link, settings);
    });
    link.reading.connected();
    const tools = makeTools(listed, client, link, settings);
    const close = () => link.close();
    return { tools, client, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    await link.close();
    throw error;
  }
}

function connectBounds(link: Link, { connectTimeout, signal }: Settings): Bounds {
  return {
    timeoutMs: connectTimeout,
    signal,
    timedOut: () => new McpTimeoutError("connect", connectTimeout, link.server, link.secrets),
    refused: (error) => link.lost(error),
  };
}

/** Every page of the server's tool list: at most `maxListPages` pages, `maxTools` tools in all; none when it offers no tools. */
async function listTools(
  client: Client,
  options: RequestOptions,
  link: Link,
  settings: Settings,
): Promise<ListedTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const { maxTools, maxListPages } = settings;
  const passed = (limit: "maxTools" | "maxListPages", max: number) =>
    new McpLimitError(limit, max, { server: link.server }, link.secrets);
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages === 0 || cursor !== undefined; pages++) {
    if (pages === maxListPages) throw passed("maxListPages", maxListPages);
    // A signal of its own for each page: the SDK never removes the listener it adds to a request's signal.
    const signal = options.signal && AbortSignal.any([options.signal]);
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { ...options, signal });
    if (tools.length + page.tools.length > maxTools) throw passed("maxTools", maxTools);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  }
  return tools;
}
