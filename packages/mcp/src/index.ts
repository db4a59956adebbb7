export { connectMcp, type McpTools } from "./connect";
export { type McpTool, toolName } from "./tools";
export type { ConnectMcpOptions, McpHttpServer, McpServerConfig, McpStdioServer } from "./options";
export {
  DuplicateToolNameError,
  McpServerError,
  type McpServerErrorInit,
  McpTimeoutError,
  type McpTimeoutPhase,
  McpToolError,
} from "./errors";
export { VERSION } from "./version";
