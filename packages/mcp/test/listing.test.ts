/** A server's tool list is bounded in count, bytes and pages over every transport, and so is each tool. */
import { InferenceError, InputError } from "@hfkit/inference";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectMcpOptions, connectMcp, type McpServerConfig } from "../src";
import { rejection } from "./helpers";
import { type HostileHttp, hostileHttp, hostileStdio, isRunning, json, type Sent, scratch, stream } from "./hostile";

const KIB = 1024;
const MIB = 1024 * KIB;
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: "object" },
  ...extra,
});

/** A server over one transport that lists its tools as told, and what can be seen of it afterwards. */
interface Lister {
  server: McpServerConfig;
  /** Bytes of the listing it wrote before the client stopped reading, and whether it got to its end. */
  listed(): { written: number; finished: boolean };
  /** Whether its process is still running (stdio); false over HTTP. */
  running(): boolean;
  /** How many tools/list requests it answered (HTTP); undefined over stdio. */
  pages(): number | undefined;
}

/** One huge tool; one tool a page, forever; ten pages of `perPage` tools of 4 000-character descriptions; `tools` at once. */
type Listing = { huge: number } | { endless: true } | { perPage: number } | { tools: ReturnType<typeof tool>[] };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function overHttp(listing: Listing): Promise<Lister> {
  let pages = 0;
  const server: HostileHttp = await hostileHttp({
    "tools/list": (sent: Sent, res) => {
      pages++;
      const answer = (result: unknown) => json(res, { jsonrpc: "2.0", id: sent.id, result });
      if ("tools" in listing) return answer({ tools: listing.tools });
      if ("endless" in listing) return answer({ tools: [tool(`page_${pages}`)], nextCursor: `after-${pages}` });
      if ("perPage" in listing) {
        const tools = Array.from({ length: listing.perPage }, (_, i) =>
          tool(`page_${pages}_${i}`, { description: "d".repeat(4_000) }),
        );
        return answer(pages < 10 ? { tools, nextCursor: `after-${pages}` } : { tools });
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const head = `event: message\ndata: {"jsonrpc":"2.0","id":${sent.id},"result":{"tools":[{"name":"big","inputSchema":{"type":"object"},"description":"`;
      return stream(res, server.streamed, head, listing.huge, '"}]}}\n\n');
    },
  });
  cleanups.push(() => server.stop());
  const listed = () => server.streamed[0] ?? { written: 0, finished: false };
  return { server: { url: server.url }, listed, running: () => false, pages: () => pages };
}

async function overStdio(listing: Listing): Promise<Lister> {
  const own = scratch();
  cleanups.push(() => {
    if (isRunning(own.pid())) process.kill(own.pid(), "SIGKILL");
    own.remove();
  });
  const flags =
    "huge" in listing
      ? ["--list-bytes", String(listing.huge)]
      : "endless" in listing
        ? ["--pages"]
        : "perPage" in listing
          ? ["--pages", "--page-tools", String(listing.perPage)]
          : ["--tools", String(listing.tools.length)];
  const listed = () => ({ written: own.written(), finished: false });
  return { server: hostileStdio(own, ...flags), listed, running: () => isRunning(own.pid()), pages: () => undefined };
}

function expectLimit(error: unknown, limit: string, max: number): void {
  expect(error).toBeInstanceOf(InferenceError);
  expect(error).toMatchObject({ name: "McpLimitError", limit, max });
}

describe.each([
  ["stdio", overStdio],
  ["Streamable HTTP", overHttp],
] as const)("listing the tools over %s", (transport, serve) => {
  it("stops reading a 300 MB listing at maxListBytes, and stops the server", async () => {
    const lister = await serve({ huge: 300 * MIB });
    const error = await rejection(connectMcp(lister.server, { maxListBytes: 64 * KIB }));
    expectLimit(error, "maxListBytes", 64 * KIB);
    expect((error as Error).message).toMatch(/sent more than maxListBytes \(65536 bytes\)/);
    expect(lister.running()).toBe(false);
    const { written, finished } = lister.listed();
    expect(finished).toBe(false);
    // What the server got out before the client stopped reading: the limit, and what the pipe or sockets hold.
    expect(written).toBeLessThan(transport === "stdio" ? 2 * MIB : 32 * MIB);
  });

  it("stops at maxListBytes across pages, each page far smaller than the bound", async () => {
    // Ten pages of about 40 KB: the bound passes on the second page.
    const mcp = await connectMcp((await serve({ perPage: 10 })).server, { maxListBytes: 1024 * KIB });
    expect(mcp.tools).toHaveLength(100);
    await mcp.close();
    const lister = await serve({ perPage: 10 });
    expectLimit(await rejection(connectMcp(lister.server, { maxListBytes: 64 * KIB })), "maxListBytes", 64 * KIB);
    expect(lister.pages() ?? 2).toBe(2);
    expect(lister.running()).toBe(false);
  });

  it("reads at most maxListPages pages of an endless list (default 32)", async () => {
    const lister = await serve({ endless: true });
    const error = await rejection(connectMcp(lister.server, { maxListPages: 5 }));
    expectLimit(error, "maxListPages", 5);
    expect(lister.pages() ?? 5).toBe(5);
    expect(lister.running()).toBe(false);
    expectLimit(await rejection(connectMcp((await serve({ endless: true })).server)), "maxListPages", 32);
  });

  it("refuses more than maxTools tools (default 1000)", async () => {
    const many = Array.from({ length: 1_001 }, (_, i) => tool(`tool_${i}`));
    expectLimit(await rejection(connectMcp((await serve({ tools: many })).server)), "maxTools", 1_000);
    const mcp = await connectMcp((await serve({ tools: many })).server, { maxTools: 1_001 });
    expect(mcp.tools).toHaveLength(1_001);
    await mcp.close();
  });
});

describe("each tool", () => {
  const cases: [string, ReturnType<typeof tool>, string, number][] = [
    ["a name", tool("n".repeat(257)), "toolName", 256],
    ["a description", tool("talkative", { description: "d".repeat(16_385) }), "toolDescription", 16_384],
    [
      "an input schema",
      tool("wide", { inputSchema: { type: "object", description: "s".repeat(65_536) } }),
      "toolSchema",
      65_536,
    ],
  ];
  it.each(cases)(
    "with %s over its bound is refused, naming it; left out with filter, it is no matter",
    async (_what, big, limit, max) => {
      const lister = await overHttp({ tools: [tool("small"), big] });
      const error = await rejection(connectMcp(lister.server));
      expectLimit(error, limit, max);
      expect((error as Error).message).toContain("leave it out with `filter`");
      expect((error as Error).message.length).toBeLessThan(1_000);
      const mcp = await connectMcp(lister.server, { filter: (name) => name === "small" });
      expect(mcp.tools.map((kept) => kept.name)).toEqual(["small"]);
      await mcp.close();
    },
  );
});

describe("the listing options", () => {
  const options: [string, ConnectMcpOptions, string][] = [
    ["maxTools", { maxTools: 0 }, "from 1 to 100000"],
    ["maxTools", { maxTools: 1.5 }, "from 1 to 100000"],
    ["maxTools", { maxTools: 100_001 }, "from 1 to 100000"],
    ["maxListBytes", { maxListBytes: 1_023 }, "from 1024 to 1073741824"],
    ["maxListBytes", { maxListBytes: Number.POSITIVE_INFINITY }, "from 1024 to 1073741824"],
    ["maxListBytes", { maxListBytes: "4096" as unknown as number }, "from 1024 to 1073741824"],
    ["maxListPages", { maxListPages: 0 }, "from 1 to 10000"],
    ["maxListPages", { maxListPages: 10_001 }, "from 1 to 10000"],
    ["maxResultBytes", { maxResultBytes: 268_435_457 }, "from 1 to 268435456"],
  ];
  it.each(options)(
    "a bad %s is an InputError naming it and its range, before anything starts: %j",
    async (field, option, range) => {
      const error = await rejection(connectMcp({ command: "/nonexistent/mcp-server" }, option));
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ field });
      expect((error as Error).message).toContain(field);
      expect((error as Error).message).toContain(range);
    },
  );
});
