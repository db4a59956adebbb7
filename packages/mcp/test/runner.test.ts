/** MCP tools in hfkit's tool runner (`runTools` of @hfkit/inference), against the mock hub's model, which calls the first tool it is given. */
import { runTools, ToolError } from "@hfkit/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { connectMcp, McpToolError, type McpTools } from "../src";
import { hangs, serveStdio, toolNamed } from "./helpers";

let hub: MockHub;
let mcp: McpTools;

beforeAll(async () => {
  hub = await startMockHub();
  mcp = await connectMcp((await serveStdio()).server, { prefix: "fx_", callTimeout: 200 });
});
afterAll(async () => {
  await mcp.close();
  await hub.close();
});

/** One run of the loop with one of the server's tools. */
const runWith = (name: string) =>
  runTools(
    {
      accessToken: "hf_test",
      model: "hfkit/tgi-3.2",
      messages: [{ role: "user", content: "Use the tool" }],
      tools: [toolNamed(mcp, name)],
    },
    { baseUrl: hub.url },
  );

it("runs a server's tool in the loop and gives the model its answer", async () => {
  const run = await runWith("fx_echo");
  const [result] = run.steps[0]?.results ?? [];
  expect(result).toMatchObject({ name: "fx_echo", status: "ok" });
  expect(result?.content).toMatch(/^echo: /);
  expect(run.message.content).toBe(`From the tools: fx_echo: ${result?.content}`);
});

it("tells the model what the server said when the tool fails", async () => {
  const run = await runWith("fx_fail");
  const [result] = run.steps[0]?.results ?? [];
  expect(result).toMatchObject({ status: "error", content: "Error: fx_fail failed: the disk is full" });
  expect(result?.error).toBeInstanceOf(ToolError);
  expect(result?.error?.cause).toBeInstanceOf(McpToolError);
});

it("ends a call at callTimeout (the tool's timeout) and cancels it on the server", async () => {
  const run = await runWith("fx_hang");
  expect(run.steps[0]?.results[0]).toMatchObject({
    status: "timeout",
    content: "Error: fx_hang did not finish within 200 ms",
  });
  await vi.waitFor(async () => expect(await hangs(mcp)).toMatchObject({ started: 1, cancelled: 1, finished: 0 }));
});
