import { describe, expect, it } from "vitest";
import { connectMcp, McpServerError } from "../src";
import { FIXTURES_DIR, rejection, serveStdio, SILENT_SCRIPT } from "./helpers";
import { describeTools } from "./suite";

describeTools("stdio", serveStdio, async () => ({
  server: { command: process.execPath, args: [SILENT_SCRIPT] },
  stop: async () => {},
}));

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

  it("keeps the last 20 lines of stderr, at most 4 000 characters", async () => {
    const lines = "for (let i = 1; i <= 30; i++) console.error('line ' + i); process.exit(1)";
    const error = (await rejection(connectMcp({ command: process.execPath, args: ["-e", lines] }))) as McpServerError;
    expect(error.stderr.split("\n")).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i + 11}`));
    const long = "console.error('x'.repeat(10000)); console.error('last'); process.exit(1)";
    const cut = (await rejection(connectMcp({ command: process.execPath, args: ["-e", long] }))) as McpServerError;
    expect(cut.stderr).toBe(`${"x".repeat(3_995)}\nlast`); // the last 4 000 characters of its last lines
  });
});

describe("the server's process", () => {
  it("gets `env` (over a few safe variables, not this process's environment) and `cwd`", async () => {
    process.env.HFKIT_MCP_PARENT_SECRET = "not for the server";
    try {
      const script =
        "console.error([process.env.API_KEY, process.env.HFKIT_MCP_PARENT_SECRET, process.cwd()].join(' ')); process.exit(1)";
      const server = { command: process.execPath, args: ["-e", script], env: { API_KEY: "k1" }, cwd: FIXTURES_DIR };
      const error = (await rejection(connectMcp(server))) as McpServerError;
      expect(error.stderr).toBe(`k1  ${FIXTURES_DIR}`);
    } finally {
      delete process.env.HFKIT_MCP_PARENT_SECRET;
    }
  });
});
