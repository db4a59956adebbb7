export { connectMcp, type McpTools } from "./connect";
export { type McpTool, toolName } from "./tools";
export type { ConnectMcpOptions, McpHttpServer, McpServerConfig, McpStdioServer } from "./options";
export {
  DuplicateToolNameError,
  type McpLimit,
  McpLimitError,
  type McpLimitSubject,
  McpServerError,
  type McpServerErrorInit,
  McpTimeoutError,
  type McpTimeoutPhase,
  McpToolError,
} from "./errors";
export type { Secrets } from "./redact";
export { VERSION } from "./version";
