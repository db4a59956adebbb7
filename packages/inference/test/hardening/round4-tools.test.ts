/**
 * Round four on the tool runner, through real HTTP on loopback (a raw `node:net` server playing the model): a
 * validator that fails (a stack overflowed by a deep answer, a user's validator that throws) is the tool's "invalid
 * arguments" answer and the loop goes on; a schema built to take exponential time is checked within its budget; a
 * tool's thrown error reaches neither the steps nor the model with the token in it, nor whole when it is huge.
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  InferenceClient,
  MalformedEventError,
  type StandardSchemaV1,
  type Tool,
  ToolError,
  type ToolRun,
} from "../../src/index";
import { jsonSchemaWork } from "../../src/checks/jsonSchema";
import { MAX_ERROR_CHARS } from "../../src/features/toolErrors";
import { whole } from "../faults/raw-server";
import { HF_SECRET, useRawServer } from "./support";

const hub = useRawServer(() => {});
const BASE = { id: "c", object: "chat.completion", created: 1, model: "m", system_fingerprint: "" };
const OTHER_TOKEN = "hf_SomeoneElsesTokenabcdefghijklmnop";
const BEARER = "Bearer sk-live-abcdef0123456789";

interface Sent {
  messages: Array<{ role: string; content?: string }>;
}

/** The model: asked by the user, it calls `tool` with `args` (text as OpenAI sends it); told a result, it answers. */
function model(tool: string, args: unknown): Sent[] {
  const sent: Sent[] = [];
  hub.server.handle((req, reply) => {
    const body = JSON.parse(req.body) as Sent;
    sent.push(body);
    const calling = body.messages.at(-1)?.role === "user";
    const call = { id: "call_0", type: "function", function: { name: tool, arguments: args } };
    const message = calling
      ? { role: "assistant", content: "", tool_calls: [call] }
      : { role: "assistant", content: "done" };
    const choice = { index: 0, message, finish_reason: calling ? "tool_calls" : "stop" };
    whole(reply, 200, "application/json", JSON.stringify({ ...BASE, choices: [choice] }));
  });
  return sent;
}

const run = (tool: Tool<unknown>): Promise<ToolRun> =>
  new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai", maxRetries: 0 }).runTools({
    messages: [{ role: "user", content: "go" }],
    tools: [tool],
  });

/** `[[[ … 1 … ]]]`, `depth` lists deep, as JSON text (JSON.parse reads it without recursion; a recursive walk cannot). */
const deepList = (depth: number): string => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

/** A tree of lists of trees: the schema a recursive answer is checked against. */
type Tree = number | Tree[];
const zodTree: z.ZodType<Tree> = z.lazy(() => z.union([z.number(), z.array(zodTree)]));

/** The one result of the first step, and the model's view of it: the loop went on to a second step. */
function onlyResult(done: ToolRun, sent: Sent[]) {
  expect(done.stopReason).toBe("answer");
  expect(done.steps.length).toBe(2);
  const result = done.steps[0]?.results[0];
  expect(sent[1]?.messages.at(-1)).toMatchObject({ role: "tool", content: result?.content });
  return result;
}

describe("a validator's own failure is the tool's invalid arguments, and the loop goes on", () => {
  it("a 100 000-deep answer that overflows a recursive Standard Schema validator", async () => {
    const sent = model("tree", deepList(100_000));
    let ran = false;
    const done = await run({
      name: "tree",
      parameters: zodTree,
      jsonSchema: { type: "array" },
      run: () => (ran = true),
    });
    const result = onlyResult(done, sent);
    expect(result?.status).toBe("invalid-arguments");
    expect(result?.error).toBeInstanceOf(ToolError);
    expect(result?.content).toMatch(/^Error: The arguments of tree could not be checked: /);
    expect(ran).toBe(false);
  });

  it("a 100 000-deep answer against a recursive JSON Schema is refused past the documented depth, never run", async () => {
    const sent = model("tree", deepList(100_000));
    const schema = {
      $ref: "#/$defs/tree",
      $defs: { tree: { anyOf: [{ type: "number" }, { type: "array", items: { $ref: "#/$defs/tree" } }] } },
    };
    let ran = false;
    const result = onlyResult(await run({ name: "tree", parameters: schema, run: () => (ran = true) }), sent);
    expect(result?.status).toBe("invalid-arguments");
    expect(result?.content).toMatch(/nested deeper than 64/);
    expect(ran).toBe(false);
  });

  it("a user's validator that throws (its message quoting a token) is the tool's invalid arguments, redacted", async () => {
    const sent = model("lookup", '{"q":"x"}');
    const throwing: StandardSchemaV1<unknown> = {
      "~standard": {
        version: 1,
        vendor: "mine",
        validate: () => {
          throw new Error(`validator broke on ${HF_SECRET} (${BEARER})`, { cause: new Error(`with ${OTHER_TOKEN}`) });
        },
      },
    };
    const result = onlyResult(
      await run({ name: "lookup", parameters: throwing, jsonSchema: { type: "object" }, run: () => "x" }),
      sent,
    );
    expect(result).toMatchObject({ status: "invalid-arguments" });
    expect(result?.content).toContain("validator broke on [redacted]");
    expectNothingSecret([result, sent]);
  });
});

/** `levels` definitions, each anyOf two references to the next, the last a string: 2^levels paths to one leaf. */
function exponentialSchema(levels: number): Record<string, unknown> {
  const name = (i: number): string => String.fromCharCode(i < 26 ? 97 + i : 65 + i - 26);
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/${name(i + 1)}` };
    $defs[name(i)] = i + 1 < levels ? { anyOf: [next, next] } : { type: "string" };
  }
  return { type: "object", properties: { v: { $ref: "#/$defs/a" } }, $defs };
}

describe("a schema built to take exponential time is checked within its budget", () => {
  it(
    "32 levels of anyOf over shared references (under 2 KB): invalid arguments, the loop goes on",
    { timeout: 60_000 },
    async () => {
      const schema = exponentialSchema(32);
      expect(JSON.stringify(schema).length).toBeLessThan(2048);
      const sent = model("deep", JSON.stringify({ v: 1 }));
      const before = jsonSchemaWork.steps;
      const result = onlyResult(await run({ name: "deep", parameters: schema, run: () => "ran" }), sent);
      expect(jsonSchemaWork.steps - before).toBeLessThan(1_000);
      expect(result).toMatchObject({
        status: "invalid-arguments",
        content: "Error: The arguments of deep do not follow its parameters: v: matches none of anyOf",
      });
    },
  );
});

/** Nothing in `values`, however printed, holds a token or the Bearer credential. */
function expectNothingSecret(values: unknown): void {
  const text = inspect(values, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });
  for (const secret of [HF_SECRET, OTHER_TOKEN, "sk-live-abcdef0123456789"]) expect(text).not.toContain(secret);
}

describe("a tool's thrown error is redacted and bounded where the runner makes its errors", () => {
  const throwing = (thrown: () => unknown): Tool<unknown> => ({
    name: "leaky",
    parameters: { type: "object" },
    run: () => {
      throw thrown();
    },
  });
  const failing = (message: string, cause: unknown): Tool<unknown> => throwing(() => new Error(message, { cause }));

  it("the token and a Bearer header in the error and its cause appear nowhere in run.steps", async () => {
    const sent = model("leaky", "{}");
    const cause = new Error(`upstream said Authorization: ${BEARER}, token ${OTHER_TOKEN}`);
    const done = await run(failing(`the tool failed with ${HF_SECRET}`, cause));
    const result = onlyResult(done, sent);
    expect(result).toMatchObject({ status: "error", content: "Error: leaky failed: the tool failed with [redacted]" });
    expect((result?.error?.cause as Error).cause).toBeInstanceOf(Error);
    expectNothingSecret([done.steps, done.messages, sent]);
  });

  it("a 10 MB error message is neither kept whole in the step nor sent whole to the model", async () => {
    const sent = model("leaky", "{}");
    const huge = `${HF_SECRET} ${"x".repeat(10_000_000)}`;
    const done = await run(failing(huge, new Error(huge)));
    const result = onlyResult(done, sent);
    expect(result?.status).toBe("error");
    expect(result?.content.length).toBeLessThanOrEqual("Error: ".length + MAX_ERROR_CHARS);
    expect(((result?.error?.cause as Error).cause as Error).message.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    expect(inspect(done.steps, { depth: Infinity, maxStringLength: Infinity }).length).toBeLessThan(40_000);
    expect(JSON.stringify(sent[1]).length).toBeLessThan(10_000);
    expectNothingSecret([done.steps, sent]);
  });

  it("a ToolError the tool throws, a plain object and a value String() cannot print: redacted, and the loop goes on", async () => {
    const thrown: Array<() => unknown> = [
      () => new ToolError("error", "leaky", `denied for ${HF_SECRET}`, { cause: { header: BEARER } }),
      () => ({ token: OTHER_TOKEN, depth: JSON.parse(deepList(100_000)) as unknown }),
      () => Object.create(null) as unknown,
    ];
    for (const make of thrown) {
      const sent = model("leaky", "{}");
      const done = await run(throwing(make));
      const result = onlyResult(done, sent);
      expect(result?.status).toBe("error");
      expect(result?.error).toBeInstanceOf(ToolError);
      expectNothingSecret([done.steps, sent]);
    }
  });
});

describe("a tool call's arguments sent as a JSON object (TGI 2.x) too deep to write back as text", () => {
  it.each(["openai", "tgi"] as const)("backend %s: a MalformedEventError, not a lost connection", async (backend) => {
    const args = `{"a": ${deepList(200_000)}}`;
    hub.server.handle((_req, reply) => {
      const call = `{"id": 7, "type": "function", "function": {"name": "f", "arguments": ${args}}}`;
      const message = `{"role": "assistant", "content": "", "tool_calls": [${call}]}`;
      const body = `{"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [{"index": 0, "message": ${message}, "finish_reason": "tool_calls"}]}`;
      whole(reply, 200, "application/json", body);
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend, maxRetries: 0 });
    const error = await client.chatCompletion({ messages: [{ role: "user", content: "go" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toBe("A tool call's arguments nest too deeply to be written as JSON text");
    expect((error as Error).cause).toBeInstanceOf(RangeError);
  });

  it("arguments of a usual depth still become their JSON text, the numeric id a string", async () => {
    hub.server.handle((_req, reply) => {
      const call = { id: 7, type: "function", function: { name: "f", arguments: { city: "Paris", days: [1, 2] } } };
      const choice = {
        index: 0,
        message: { role: "assistant", content: "", tool_calls: [call] },
        finish_reason: "tool_calls",
      };
      whole(reply, 200, "application/json", JSON.stringify({ ...BASE, choices: [choice] }));
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "tgi", maxRetries: 0 });
    const out = await client.chatCompletion({ messages: [{ role: "user", content: "go" }] });
    expect(out.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: "7",
      function: { arguments: '{"city":"Paris","days":[1,2]}' },
    });
  });
});
