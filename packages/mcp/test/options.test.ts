import { InputError } from "@hfkit/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConnectMcpOptions, connectMcp, type McpServerConfig } from "../src";
import { rejection, type Served, serveHttp } from "./helpers";

// A command that cannot start: had connectMcp started it before its checks, the error would be an McpServerError.
const NOT_THERE: McpServerConfig = { command: "/nonexistent/mcp-server" };

describe("bad input is an InputError naming the field, before anything starts", () => {
  const servers: [string, unknown][] = [
    ["server", undefined],
    ["server", {}],
    ["server", { command: "node", url: "http://127.0.0.1/mcp" }],
    ["command", { command: "" }],
    ["command", { command: 42 }],
    ["args", { command: "node", args: "server.js" }],
    ["args", { command: "node", args: ["server.js", 1] }],
    ["env", { command: "node", env: { PORT: 8080 } }],
    ["cwd", { command: "node", cwd: 1 }],
    ["url", { url: "not a url" }],
    ["url", { url: "file:///srv/mcp.sock" }],
    ["url", { url: new URL("ws://127.0.0.1/mcp") }],
    ["headers", { url: "https://example.com/mcp", headers: { "x-retries": 3 } }],
  ];
  it.each(servers)("%s: %j", async (field, server) => {
    const error = await rejection(connectMcp(server as McpServerConfig));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
  });

  const options: [string, ConnectMcpOptions][] = [
    ["connectTimeout", { connectTimeout: 0 }],
    ["connectTimeout", { connectTimeout: -1 }],
    ["connectTimeout", { connectTimeout: Number.NaN }],
    ["callTimeout", { callTimeout: "5000" as unknown as number }],
    ["callTimeout", { callTimeout: 0 }],
    ["maxResultBytes", { maxResultBytes: 0 }],
    ["maxResultBytes", { maxResultBytes: 1.5 }],
    ["maxResultBytes", { maxResultBytes: Number.POSITIVE_INFINITY }],
    ["maxResultBytes", { maxResultBytes: 256 * 1024 * 1024 + 1 }],
    ["filter", { filter: "echo" as unknown as () => boolean }],
    ["prefix", { prefix: "my server." }],
    ["prefix", { prefix: "p".repeat(64) }],
  ];
  it.each(options)("%s: %j", async (field, option) => {
    const error = await rejection(connectMcp(NOT_THERE, option));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
    expect((error as Error).message).toContain(field);
  });
});

describe("limits", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveHttp();
  });
  afterAll(() => served.stop());

  it("takes Infinity as no time limit (the longest a timer holds)", async () => {
    const mcp = await connectMcp(served.server, {
      connectTimeout: Number.POSITIVE_INFINITY,
      callTimeout: Number.POSITIVE_INFINITY,
    });
    try {
      expect(mcp.tools[0]?.timeout).toBe(2_147_483_647);
      expect(
        await mcp.tools[0]?.run({ text: "no limit" }, { signal: new AbortController().signal, callId: "c", step: 1 }),
      ).toBe("echo: no limit");
    } finally {
      await mcp.close();
    }
  });
});
