/** The tools of a server as hfkit's tool runner takes them: names a chat API accepts, calls bounded and typed. */
import type { JsonSchema, Tool, ToolContext } from "@hfkit/inference";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { DuplicateToolNameError, type McpLimit, McpLimitError, McpTimeoutError, McpToolError } from "./errors";
import type { Link } from "./link";
import type { Settings } from "./options";
import { bounded, type Bounds } from "./request";
import { cutText, resultText } from "./result";

/** A tool of an MCP server, as hfkit's tool runner takes it (a `Tool` of `@hfkit/inference`). */
export interface McpTool extends Tool<Record<string, unknown>> {
  /** Its arguments: the JSON Schema the server gave (`inputSchema`). */
  parameters: JsonSchema;
  /**
   * Calls the tool on the server: its result as text, cut to `maxResultBytes`. Throws `McpToolError` (the tool's
   * error), `McpTimeoutError` (past `callTimeout`), `McpServerError` (the server is gone) or `AbortError` (`context.signal`).
   */
  run: (args: Record<string, unknown>, context: ToolContext) => Promise<string>;
  /** `callTimeout`, in ms. */
  timeout: number;
  /** Its name on the server; `name` is this name after `prefix`, cleaned and cut for chat APIs. */
  mcpName: string;
}

/** Chat APIs take tool names of at most this many characters. */
const NAME_MAX = 64;

/** The name a chat API takes: `prefix` then `mcpName`, every character but letters, digits, `_` and `-` as `_`, cut to 64. */
export function toolName(prefix: string, mcpName: string): string {
  return (prefix + mcpName.replace(/[^\w-]/gu, "_")).slice(0, NAME_MAX) || "_";
}

/** The most characters of a tool's name, of its description (or title), and of its input schema as JSON. */
const TOOL_BOUNDS = { toolName: 256, toolDescription: 16_384, toolSchema: 65_536 } as const;

/**
 * The tools of `listed` that `filter` keeps, calling the server through `client`; two with one name are refused, and
 * so is one past a bound of its size (the model reads each kept tool's description and schema on every turn).
 */
export function makeTools(listed: ListedTool[], client: Client, link: Link, settings: Settings): McpTool[] {
  const mcpNames = new Map<string, string>();
  const tools: McpTool[] = [];
  for (const tool of listed) {
    if (!settings.filter(tool.name)) continue;
    checkSize(tool, link);
    const name = toolName(settings.prefix, tool.name);
    const taken = mcpNames.get(name);
    if (taken !== undefined) throw new DuplicateToolNameError(name, taken, tool.name, link.secrets);
    mcpNames.set(name, tool.name);
    tools.push(makeTool(tool, name, client, link, settings));
  }
  return tools;
}

/** `McpLimitError` for a tool whose name, description or input schema passes its bound. */
function checkSize(tool: ListedTool, link: Link): void {
  const sizes: [McpLimit & keyof typeof TOOL_BOUNDS, number][] = [
    ["toolName", tool.name.length],
    ["toolDescription", (tool.description ?? tool.title ?? "").length],
    ["toolSchema", JSON.stringify(tool.inputSchema).length],
  ];
  for (const [limit, size] of sizes) {
    const max = TOOL_BOUNDS[limit];
    if (size > max) throw new McpLimitError(limit, max, { server: link.server, tool: tool.name }, link.secrets);
  }
}

function makeTool(listed: ListedTool, name: string, client: Client, link: Link, settings: Settings): McpTool {
  const { callTimeout, maxResultBytes } = settings;
  const { secrets } = link;
  const mcpName = listed.name;
  const bounds = (signal: AbortSignal): Bounds => ({
    timeoutMs: callTimeout,
    signal,
    timedOut: () => new McpTimeoutError("call", callTimeout, mcpName, secrets),
    refused: (error) => new McpToolError(mcpName, error.message, error.code, { secrets, maxResultBytes }),
  });
  return {
    name,
    description: listed.description ?? listed.title,
    parameters: listed.inputSchema,
    timeout: callTimeout,
    mcpName,
    async run(args, context) {
      const result = await bounded(link, bounds(context.signal), (options) =>
        client.callTool({ name: mcpName, arguments: args }, undefined, options),
      );
      if (result.isError) throw new McpToolError(mcpName, resultText(result), undefined, { secrets, maxResultBytes });
      return cutText(resultText(result), maxResultBytes);
    },
  };
}
