/** A call's answer is read no further than its bound (from maxResultBytes), over HTTP and over stdio. */
import { InferenceError } from "@hfkit/inference";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcp } from "../src";
import { context, rejection, toolNamed } from "./helpers";
import { type HostileHttp, hostileHttp, hostileStdio, isRunning, json, scratch, stream } from "./hostile";

const MIB = 1024 * 1024;
/** What a call's answer may take with maxResultBytes 1 000: 4 times that and 64 KiB. */
const ANSWER_BYTES = 4 * 1_000 + 65_536;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function expectLimit(error: unknown, limit: string, max: number): void {
  expect(error).toBeInstanceOf(InferenceError);
  expect(error).toMatchObject({ name: "McpLimitError", limit, max });
}

/** A server whose `huge` tool streams a 256 MB text (as an event stream or as JSON), and whose `small` one answers. */
async function serveHuge(contentType: string): Promise<HostileHttp> {
  const server = await hostileHttp({
    "tools/list": (sent, res) => {
      const tools = ["huge", "small"].map((name) => ({ name, inputSchema: { type: "object" } }));
      json(res, { jsonrpc: "2.0", id: sent.id, result: { tools } });
    },
    "tools/call": (sent, res) => {
      if (sent.params?.name === "small")
        return json(res, { jsonrpc: "2.0", id: sent.id, result: { content: [{ type: "text", text: "small" }] } });
      res.writeHead(200, { "content-type": contentType });
      const sse = contentType === "text/event-stream";
      const head = `${sse ? "event: message\ndata: " : ""}{"jsonrpc":"2.0","id":${sent.id},"result":{"content":[{"type":"text","text":"`;
      return stream(res, server.streamed, head, 256 * MIB, `"}]}}${sse ? "\n\n" : ""}`);
    },
  });
  cleanups.push(() => server.stop());
  return server;
}

describe.each(["text/event-stream", "application/json"])("over HTTP, an answer sent as %s", (contentType) => {
  it("past its bound: the call fails with McpLimitError, the body is cancelled, the connection stays good", async () => {
    const server = await serveHuge(contentType);
    const mcp = await connectMcp({ url: server.url }, { maxResultBytes: 1_000 });
    cleanups.push(() => mcp.close());
    const error = await rejection(toolNamed(mcp, "huge").run({}, context()));
    expectLimit(error, "maxResultBytes", 1_000);
    expect(error).toMatchObject({ tool: "huge" });
    expect((error as Error).message).toMatch(
      /answer of the MCP tool "huge" passed 69536 bytes \(4 × maxResultBytes, 1000, \+ 64 KiB\); reading it stopped: raise maxResultBytes/,
    );
    const [answer] = server.streamed;
    expect(answer?.finished).toBe(false);
    expect(answer?.written).toBeLessThan(32 * MIB); // of 256 MB: what the sockets' buffers hold, at most
    expect(await toolNamed(mcp, "small").run({}, context())).toBe("small");
  });
});

describe("over stdio, an answer", () => {
  it("past a call's bound but not a message's: the call fails with McpLimitError, the server goes on", async () => {
    const own = scratch();
    cleanups.push(() => own.remove());
    const mcp = await connectMcp(hostileStdio(own), { maxResultBytes: 1_000 });
    cleanups.push(() => mcp.close());
    const [tool] = mcp.tools;
    expectLimit(
      await rejection(tool?.run({ bytes: ANSWER_BYTES }, context()) ?? Promise.resolve()),
      "maxResultBytes",
      1_000,
    );
    expect(await tool?.run({ bytes: 2_000 }, context())).toMatch(/^x{1000}\n\[… cut: 1000 of 2000 bytes left out/);
  });

  it("past the largest message: the server is stopped, and every call fails with McpLimitError", async () => {
    const own = scratch();
    cleanups.push(() => {
      if (isRunning(own.pid())) process.kill(own.pid(), "SIGKILL");
      own.remove();
    });
    const mcp = await connectMcp(hostileStdio(own), { maxResultBytes: 1_000, maxListBytes: 64 * 1024 });
    cleanups.push(() => mcp.close());
    const [tool] = mcp.tools;
    const error = await rejection(tool?.run({ bytes: 300 * MIB }, context()) ?? Promise.resolve());
    expectLimit(error, "messageBytes", ANSWER_BYTES);
    expect((error as Error).message).toMatch(/sent a message of more than 69536 bytes; it was stopped/);
    expect(own.written()).toBeLessThan(2 * MIB); // of 300 MB: the limit and what the pipe holds
    await mcp.close();
    expect(isRunning(own.pid())).toBe(false);
    expectLimit(await rejection(tool?.run({ bytes: 2 }, context()) ?? Promise.resolve()), "messageBytes", ANSWER_BYTES);
  }, 15_000);
});
