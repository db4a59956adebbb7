import { describe, expect, it } from "vitest";
import { connectMcp, McpServerError } from "../src";
import { rejection, serveStdio, SILENT_SCRIPT } from "./helpers";
import { describeTools } from "./suite";

describeTools("stdio", serveStdio, async () => ({ server: { command: process.execPath, args: [SILENT_SCRIPT] }, stop: async () => {} }));

describe("a server that does not start", () => {
  it("is an McpServerError saying why: a command that is not there", async () => {
    const error = await rejection(connectMcp({ command: "/nonexistent/mcp-server" }));
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as Error).message).toMatch(/^Could not start the MCP server "\/nonexistent\/mcp-server": .*ENOENT/);
  });

  it("is an McpServerError with the exit code and stderr: a process that exits before the handshake", async () => {
    const script = "console.error('config missing: API_KEY'); process.exit(2)";
    const error = await rejection(connectMcp({ command: process.execPath, args: ["-e", script] }));
    expect(error).toBeInstanceOf(McpServerError);
    expect(error).toMatchObject({ exitCode: 2, stderr: "config missing: API_KEY" });
  });
});
