/**
 * An MCP server's input schema built to freeze the process (fixtures/deep-schema.mjs: 32 levels of anyOf over shared
 * references, under 2 KB), in hfkit's tool runner against a loopback model that calls the tool with deep arguments:
 * the check ends (the test's timeout is a hang bound, not a speed check), the call is the tool's "invalid arguments"
 * answer, never run on the server, and the loop goes on to the model's answer.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { runTools, ToolError } from "@hfkit/inference";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectMcp, type McpTools } from "../src";
import { toolNamed } from "./helpers";

const DEEP_SCRIPT = fileURLToPath(new URL("fixtures/deep-schema.mjs", import.meta.url));

/** `{ a: { a: … "x" … } }`, `levels` deep. */
function nested(levels: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

let model: Server;
let modelUrl: string;
let mcp: McpTools;
/** Each request body the model received. */
const received: Array<{ messages: Array<{ role: string; content?: string }> }> = [];

/** The model: asked by the user, it calls `deep` with 32-level arguments; told the result, it answers. */
function answer(body: (typeof received)[number]): unknown {
  const calling = body.messages.at(-1)?.role === "user";
  const call = {
    id: "call_0",
    type: "function",
    function: { name: "deep", arguments: JSON.stringify({ v: nested(32) }) },
  };
  const message = calling
    ? { role: "assistant", content: "", tool_calls: [call] }
    : { role: "assistant", content: "done" };
  const choice = { index: 0, message, finish_reason: calling ? "tool_calls" : "stop" };
  return { id: "c", object: "chat.completion", created: 1, model: "m", choices: [choice] };
}

beforeAll(async () => {
  model = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(text) as (typeof received)[number];
      received.push(body);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(body)));
    });
  });
  model.listen(0, "127.0.0.1");
  await once(model, "listening");
  modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}`;
  mcp = await connectMcp({ command: process.execPath, args: [DEEP_SCRIPT] });
});
afterAll(async () => {
  await mcp?.close();
  model?.closeAllConnections();
  await new Promise((resolve) => model?.close(resolve));
});

it(
  "deep arguments against a 32-level schema are the tool's invalid arguments, and the loop goes on",
  { timeout: 60_000 },
  async () => {
    const tool = toolNamed(mcp, "deep");
    expect(JSON.stringify(tool.parameters).length).toBeLessThan(2048);
    const run = await runTools(
      { accessToken: "hf_test", messages: [{ role: "user", content: "Use the tool" }], tools: [tool] },
      { endpointUrl: modelUrl, backend: "openai", maxRetries: 0 },
    );
    const [result] = run.steps[0]?.results ?? [];
    expect(result?.status).toBe("invalid-arguments");
    expect(result?.error).toBeInstanceOf(ToolError);
    expect(result?.content).toBe("Error: The arguments of deep do not follow its parameters: v: matches none of anyOf");
    expect(received[1]?.messages.at(-1)).toMatchObject({ role: "tool", content: result?.content });
    expect(run).toMatchObject({ stopReason: "answer", message: { content: "done" } });
  },
);
