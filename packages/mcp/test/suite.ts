import { AbortError, InferenceError, TimeoutError, type Tool } from "@hfkit/inference";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ConnectMcpOptions,
  connectMcp,
  DuplicateToolNameError,
  McpLimitError,
  McpServerError,
  McpTimeoutError,
  McpToolError,
  type McpTools,
} from "../src";
import { context, hangs, nextLog, rejection, type Served, toolNamed } from "./helpers";

/**
 * The behaviour of the tools over one transport, against the real test server (fixtures/server.mjs, the SDK's
 * McpServer): `serve` runs it (with flags), `silent` runs a server that never answers the handshake.
 */
export function describeTools(
  transport: "stdio" | "Streamable HTTP",
  serve: (...flags: string[]) => Promise<Served>,
  silent: () => Promise<Served>,
): void {
  describe(`over ${transport}`, () => suite(transport, serve, silent));
}

function suite(transport: string, serve: (...flags: string[]) => Promise<Served>, silent: () => Promise<Served>): void {
  let shared: Served;
  /** A connection with the default options, for the tests that need no other. */
  let mcp: McpTools;
  const started: Served[] = [];
  const connected: McpTools[] = [];

  beforeAll(async () => {
    shared = await serve();
    mcp = await connectMcp(shared.server);
  });
  afterEach(async () => {
    await Promise.all(connected.splice(0).map((own) => own.close()));
    await Promise.all(started.splice(0).map((served) => served.stop()));
  });
  afterAll(async () => {
    await mcp.close();
    await shared.stop();
  });

  async function connect(options?: ConnectMcpOptions, served = shared): Promise<McpTools> {
    const mcp = await connectMcp(served.server, options);
    connected.push(mcp);
    return mcp;
  }
  /** A server of this test's own, stopped after it. */
  async function own(make: () => Promise<Served>): Promise<Served> {
    const served = await make();
    started.push(served);
    return served;
  }

  it("lists the tools under names a chat API takes, with their schemas, and calls them", async () => {
    expect(mcp.tools.map((tool) => tool.name)).toEqual([
      "echo",
      "add",
      "media",
      "fail",
      "big",
      "hang",
      "hangs",
      "sessions",
      "exit",
      "refuse",
      "files_read",
      `long_${"x".repeat(59)}`,
    ]);
    const echo = toolNamed(mcp, "echo");
    expect(echo).toMatchObject({ description: "Says the text back", timeout: 60_000, mcpName: "echo" });
    expect(echo.parameters).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
    expect(toolNamed(mcp, "files_read").mcpName).toBe("files.read");
    expect(await echo.run({ text: "hi" }, context())).toBe("echo: hi");
    expect(await toolNamed(mcp, "files_read").run({}, context())).toBe("read");
    const asRunnerTools: Tool[] = mcp.tools; // the runner's type, as it is
    expect(asRunnerTools).toHaveLength(12);
  });

  it("gives structuredContent as JSON when no part is text, and media as notes of their type and size", async () => {
    expect(await toolNamed(mcp, "add").run({ a: 2, b: 3 }, context())).toBe('{"sum":5}');
    expect(await toolNamed(mcp, "media").run({}, context())).toBe(
      [
        "two parts of text",
        "[image: image/png, 3 bytes]",
        "and more",
        "[audio: audio/wav, 4 bytes]",
        "[resource: file:///notes.txt, text/plain, 6 bytes]",
        "[resource link: file:///big.csv, big.csv]",
      ].join("\n"),
    );
  });

  it("keeps the tools `filter` keeps, by their names on the server, named with `prefix`", async () => {
    const mcp = await connect({ filter: (name) => name === "echo" || name === "files.read", prefix: "fx_" });
    expect(mcp.tools.map(({ name, mcpName }) => [name, mcpName])).toEqual([
      ["fx_echo", "echo"],
      ["fx_files_read", "files.read"],
    ]);
    expect(await toolNamed(mcp, "fx_echo").run({ text: "prefixed" }, context())).toBe("echo: prefixed");
  });

  it("throws McpToolError with the server's text when the tool fails (isError) or the server refuses the call", async () => {
    const failed = await rejection(toolNamed(mcp, "fail").run({}, context()));
    expect(failed).toBeInstanceOf(McpToolError);
    expect(failed).toBeInstanceOf(InferenceError);
    expect(failed).toMatchObject({ name: "McpToolError", tool: "fail", text: "the disk is full", code: undefined });
    expect((failed as Error).message).toBe("the disk is full");

    const badArgs = await rejection(toolNamed(mcp, "echo").run({ text: 5 }, context()));
    expect(badArgs).toBeInstanceOf(McpToolError);
    expect((badArgs as McpToolError).text).toMatch(/validation/i);

    const refused = await rejection(toolNamed(mcp, "refuse").run({}, context()));
    expect(refused).toBeInstanceOf(McpToolError);
    expect(refused).toMatchObject({ tool: "refuse", code: -32042 });
    expect((refused as McpToolError).text).toContain("sign in first");
    // The connection is still good.
    expect(await toolNamed(mcp, "echo").run({ text: "still here" }, context())).toBe("echo: still here");
  });

  it("ends a call past callTimeout with McpTimeoutError, without waiting for the tool, and cancels it on the server", async () => {
    const mcp = await connect({ callTimeout: 200 });
    const hang = toolNamed(mcp, "hang");
    expect(hang.timeout).toBe(200);
    const error = await rejection(hang.run({}, context()));
    expect(error).toBeInstanceOf(McpTimeoutError);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      name: "McpTimeoutError",
      phase: "call",
      tool: "hang",
      timeoutMs: 200,
      kind: "deadline",
    });
    // The tool never finishes: the call ended without it; the server was told to stop it.
    await vi.waitFor(async () => expect(await hangs(mcp)).toEqual({ started: 1, cancelled: 1, finished: 0 }));
  });

  it("stops a call when its signal aborts, with AbortError, and cancels it on the server", async () => {
    const before = await hangs(mcp);
    const controller = new AbortController();
    const begun = nextLog(mcp.client);
    const call = toolNamed(mcp, "hang").run({}, context(controller.signal));
    expect(await begun).toBe("hanging");
    controller.abort(new Error("stopped by the user"));
    const error = await rejection(call);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual(new Error("stopped by the user"));
    await vi.waitFor(async () =>
      expect(await hangs(mcp)).toEqual({ ...before, started: before.started + 1, cancelled: before.cancelled + 1 }),
    );
  });

  it("does not send a call whose signal has already aborted", async () => {
    const before = await hangs(mcp);
    const error = await rejection(toolNamed(mcp, "hang").run({}, context(AbortSignal.abort())));
    expect(error).toBeInstanceOf(AbortError);
    expect(await hangs(mcp)).toEqual(before);
  });

  it("cuts a result over maxResultBytes between characters, saying how much was left out", async () => {
    const mcp = await connect({ maxResultBytes: 1_001 });
    const text = await toolNamed(mcp, "big").run({ chars: 25_000 }, context()); // 50 000 bytes of "é"
    expect(text).toBe(`${"é".repeat(500)}\n[… cut: 49000 of 50000 bytes left out (maxResultBytes: 1001)]`);
    expect(await toolNamed(mcp, "big").run({ chars: 500 }, context())).toBe("é".repeat(500)); // 1 000 bytes fit
  });

  it("stops reading an answer past 4 × maxResultBytes + 64 KiB: that call fails with McpLimitError, the next one works", async () => {
    const mcp = await connect({ maxResultBytes: 1_001 });
    const error = await rejection(toolNamed(mcp, "big").run({ chars: 50_000 }, context())); // 100 000 bytes > 69 540
    expect(error).toBeInstanceOf(McpLimitError);
    expect(error).toMatchObject({ limit: "maxResultBytes", max: 1_001, tool: "big" });
    expect(await toolNamed(mcp, "big").run({ chars: 2 }, context())).toBe("éé");
  });

  it("fails the calls in flight with McpServerError when the server's process exits, without hanging", async () => {
    const served = await own(serve);
    const mcp = await connect({}, served);
    const begun = nextLog(mcp.client);
    const hanging = rejection(toolNamed(mcp, "hang").run({}, context()));
    await begun; // over HTTP, its answer stream has begun: the break must end it
    const exiting = rejection(toolNamed(mcp, "exit").run({}, context()));
    for (const error of await Promise.all([hanging, exiting])) {
      expect(error).toBeInstanceOf(McpServerError);
      if (transport === "stdio") {
        expect(error).toMatchObject({
          exitCode: 3,
          exitSignal: undefined,
          stderr: "starting the exit\nfatal: out of cheese",
        });
        expect((error as Error).message).toBe(
          `The MCP server "${process.execPath}" exited with code 3. Its stderr ends with:\nstarting the exit\nfatal: out of cheese`,
        );
      } else {
        expect(error).toMatchObject({
          server: (served.server as { url: string }).url,
          exitCode: undefined,
          stderr: "",
        });
      }
    }
    // A later call fails the same way, at once.
    expect(await rejection(toolNamed(mcp, "echo").run({ text: "anyone?" }, context()))).toBeInstanceOf(McpServerError);
  });

  it("gives up on a server that never answers the handshake after connectTimeout", async () => {
    const served = await own(silent);
    const error = await rejection(connectMcp(served.server, { connectTimeout: 200 }));
    expect(error).toBeInstanceOf(McpTimeoutError);
    expect(error).toMatchObject({ phase: "connect", tool: undefined, timeoutMs: 200 });
    expect((error as Error).message).toMatch(/did not connect and list its tools within connectTimeout \(200 ms\)/);
  });

  it("stops connecting when its signal aborts", async () => {
    const served = await own(silent);
    const controller = new AbortController();
    const connecting = rejection(connectMcp(served.server, { signal: controller.signal }));
    controller.abort();
    expect(await connecting).toBeInstanceOf(AbortError);
    expect(await rejection(connectMcp(served.server, { signal: AbortSignal.abort() }))).toBeInstanceOf(AbortError);
  });

  it("refuses two tools that would get the same name, and stops the server", async () => {
    const served = await own(() => serve("--collide"));
    const error = await rejection(connectMcp(served.server));
    expect(error).toBeInstanceOf(DuplicateToolNameError);
    expect(error).toMatchObject({ toolName: "a_b", mcpNames: ["a.b", "a_b"] });
    expect((error as Error).message).toContain("leave one out with `filter`");
    // Leaving one out is the way; the refused connection was closed (over HTTP, its session ended).
    const mcp = await connect({ filter: (name) => name !== "a.b" }, served);
    expect(mcp.tools.map((tool) => tool.name)).toContain("a_b");
    expect(await toolNamed(mcp, "sessions").run({}, context())).toBe("1");
  });

  it("closes: once, for `await using` too; a call after it fails with McpServerError", async () => {
    const mcp = await connect();
    const echo = toolNamed(mcp, "echo");
    await mcp[Symbol.asyncDispose]();
    await mcp.close();
    const error = await rejection(echo.run({ text: "late" }, context()));
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as Error).message).toMatch(/^The connection to the MCP server .* was closed$/);
  });
}
