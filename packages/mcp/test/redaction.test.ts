/** A server's words in an error are bounded, and the app's credential for the server never comes back in them. */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcp, McpServerError, McpToolError } from "../src";
import { context, rejection, toolNamed } from "./helpers";
import { type HostileHttp, hostileHttp, hostileStdio, json, scratch, stream } from "./hostile";

const TOKEN = "sk-app-credential-0123456789abcdef";
const API_KEY = "key-of-the-app-9876543210";
const HF_TOKEN = `hf_${"Z".repeat(34)}`;
const headers = { Authorization: `Bearer ${TOKEN}`, "X-Api-Key": API_KEY };

const servers: HostileHttp[] = [];
async function serve(answers: Parameters<typeof hostileHttp>[0]): Promise<HostileHttp> {
  const server = await hostileHttp(answers);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

/** Everything `console.log(error)` would print: message, fields, stack and the cause chain. */
const printed = (error: unknown) => inspect(error, { depth: 10 });

function expectNoCredential(text: string): void {
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain(HF_TOKEN);
}

describe("an HTTP server's error body", () => {
  it("of 2 MB that echoes the Authorization header: a bounded McpServerError without the credential", async () => {
    const server = await serve({
      initialize: (_sent, res, req) => {
        const echo = `you sent ${req.headers.authorization} and ${req.headers["x-api-key"]} (${HF_TOKEN}) `;
        res.writeHead(500, { "content-type": "text/plain" }).end(echo.repeat(Math.ceil(2_000_000 / echo.length)));
      },
    });
    const error = await rejection(connectMcp({ url: server.url, headers }));
    expect(error).toBeInstanceOf(McpServerError);
    const { message } = error as Error;
    expect(message).toMatch(/^The MCP server "http:\/\/127\.0\.0\.1:\d+\/mcp" failed: .*you sent Bearer \[redacted\]/);
    expect(message).toContain("you sent Bearer [redacted] and [redacted] ([redacted])");
    expect(message.length).toBeLessThanOrEqual(1_000);
    expectNoCredential(printed(error));
    expect(printed(error).length).toBeLessThan(20_000);
  });

  it("is read no further than its start: the rest is never taken from the socket", async () => {
    const server = await serve({
      initialize: (_sent, res) => {
        res.writeHead(502, { "content-type": "text/plain" });
        return stream(res, server.streamed, "upstream failed: ", 256 * 1024 * 1024);
      },
    });
    const error = await rejection(connectMcp({ url: server.url }));
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as Error).message).toContain("upstream failed: xxx");
    const [answer] = server.streamed;
    expect(answer?.finished).toBe(false);
    expect(answer?.written).toBeLessThan(32 * 1024 * 1024); // of 256 MB: what the sockets' buffers hold, at most
  });
});

describe("a tool's error", () => {
  it("that quotes the credential, as a result (isError) or a JSON-RPC error: redacted in McpToolError", async () => {
    const server = await serve({
      "tools/list": (sent, res) => {
        const tools = ["quote", "refuse"].map((name) => ({ name, inputSchema: { type: "object" } }));
        json(res, { jsonrpc: "2.0", id: sent.id, result: { tools } });
      },
      "tools/call": (sent, res, req) => {
        const said = `denied for ${req.headers.authorization} / ${req.headers["x-api-key"]}`;
        const isResult = sent.params?.name === "quote";
        const answer = isResult
          ? { result: { isError: true, content: [{ type: "text", text: said }] } }
          : { error: { code: -32603, message: said } };
        json(res, { jsonrpc: "2.0", id: sent.id, ...answer });
      },
    });
    const mcp = await connectMcp({ url: server.url, headers });
    try {
      for (const name of ["quote", "refuse"]) {
        const error = await rejection(toolNamed(mcp, name).run({}, context()));
        expect(error).toBeInstanceOf(McpToolError);
        expect((error as McpToolError).text).toContain("denied for Bearer [redacted] / [redacted]");
        expectNoCredential(printed(error));
      }
    } finally {
      await mcp.close();
    }
  });
});

describe("a stdio server's stderr", () => {
  it("that prints the key it was given in env, and an HF token: redacted in McpServerError", async () => {
    const own = scratch();
    try {
      const server = { ...hostileStdio(own, "--echo-stderr"), env: { API_KEY } };
      const mcp = await connectMcp(server);
      const error = await rejection(mcp.tools[0]?.run({}, context()) ?? Promise.resolve());
      await mcp.close();
      expect(error).toBeInstanceOf(McpServerError);
      expect((error as McpServerError).stderr).toBe("starting with API_KEY=[redacted]\nand my token [redacted]");
      expectNoCredential(printed(error));
    } finally {
      own.remove();
    }
  });
});
