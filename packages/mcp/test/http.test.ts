import { describe, expect, it } from "vitest";
import { connectMcp, McpServerError } from "../src";
import { rejection, serveHttp, serveSilentHttp } from "./helpers";
import { describeTools } from "./suite";

describeTools("Streamable HTTP", serveHttp, serveSilentHttp);

describe("a server that is not there", () => {
  it("is an McpServerError: nothing listening at the URL", async () => {
    const { server, stop } = await serveSilentHttp();
    await stop(); // the port is free now
    const url = `${(server as { url: string }).url}?token=hf_secret_in_query`;
    const error = await rejection(connectMcp({ url }));
    expect(error).toBeInstanceOf(McpServerError);
    // The server named without its query, where credentials may be.
    expect((error as Error).message).toMatch(/^The MCP server "http:\/\/127\.0\.0\.1:\d+\/mcp" failed: .*ECONNREFUSED/);
    expect((error as McpServerError).server).not.toContain("secret");
  });
});
