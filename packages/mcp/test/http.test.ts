import { describe, expect, it } from "vitest";
import { connectMcp, McpServerError } from "../src";
import { rejection, serveHttp, serveSilentHttp } from "./helpers";
import { describeTools } from "./suite";

describeTools("Streamable HTTP", serveHttp, serveSilentHttp);

describe("a server that is not there", () => {
  it("is an McpServerError: nothing listening at the URL", async () => {
    const { server, stop } = await serveSilentHttp();
    await stop(); // the port is free now
    const error = await rejection(connectMcp(server));
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as Error).message).toMatch(/^The MCP server "http:\/\/127\.0\.0\.1:\d+\/mcp" failed: .*ECONNREFUSED/);
  });
});
