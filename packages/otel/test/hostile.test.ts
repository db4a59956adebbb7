/**
 * Issue 38, classes 8 and 9, with the real OpenTelemetry SDK: a loopback server answers with a `model`, an
 * `x-inference-provider`, an `x-request-id` and a finish reason each holding the caller's own key, another `hf_…`
 * token, a `Bearer …` credential and 100 KB of text, and a model asks for a tool named after the key. No span name,
 * span or event attribute or metric attribute shows a credential or passes 200 characters; a made-up tool name never
 * names a span; a server naming a new model at each answer makes at most 32 values (and `other`) of a metric attribute.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletion, chatCompletionStream, type Options, runTools } from "@hfkit/inference";
import type { Attributes } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everything, record, type Recorded } from "./helpers";

const KEY = "sk-callers-own-key-2718281828";
const OTHER = "hf_SomebodyElsesToken0123456789abcdef";
const SECRETS = [KEY, OTHER, "bearer-secret-value", "sk-callers"];
const hostile = (what: string, size = 100_000): string =>
  `${what} ${KEY} ${OTHER} Bearer bearer-secret-value ${"y".repeat(120)}${KEY}${"z".repeat(size)}`;
const messages = [{ role: "user", content: "Hello" }];

/** What the server names as the model; a test may name a new one at each answer. */
let modelOf = (): string => hostile("model");
let server: Server;
let url: string;

function answer(body: { stream?: boolean; messages: unknown[] }, res: ServerResponse): void {
  res.setHeader("x-inference-provider", hostile("provider", 4000));
  res.setHeader("x-request-id", hostile("request", 4000));
  const model = modelOf();
  if (body.stream) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (delta: object, finish: string | null) => ({
      id: "x",
      object: "chat.completion.chunk",
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    for (const c of [chunk({ role: "assistant", content: "Hi" }, null), chunk({}, hostile("finish"))])
      res.write(`data: ${JSON.stringify(c)}\n\n`);
    return void res.end("data: [DONE]\n\n");
  }
  // The tool runner's first step: the model asks for a tool it made up from the key, and for a declared one.
  const calling = body.messages.length === 1 && "tools" in body;
  const tool_calls = [
    { id: hostile("id"), type: "function", function: { name: `${KEY}_${OTHER}`, arguments: "{}" } },
    { id: "call_ok", type: "function", function: { name: "weather", arguments: "{}" } },
  ];
  const message = calling ? { role: "assistant", content: "", tool_calls } : { role: "assistant", content: "Hi" };
  const finish = calling ? "tool_calls" : hostile("finish");
  const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: "x",
      object: "chat.completion",
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    }),
  );
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = "";
    req.setEncoding("utf8").on("data", (c: string) => (text += c));
    req.on("end", () => answer(JSON.parse(text) as { stream?: boolean; messages: unknown[] }, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const options = (r: Recorded): Options => ({ endpointUrl: url, backend: "openai", maxRetries: 0, observe: r.observe });

/** Every string of a span's name, attributes, events and status, and of the metrics' attributes. */
function strings(spans: ReadableSpan[], points: Array<{ attributes: Attributes }>): string[] {
  const values = (a: Attributes | undefined): unknown[] => Object.values(a ?? {}).flat();
  const all = spans.flatMap((s) => [
    s.name,
    s.status.message,
    ...values(s.attributes),
    ...s.events.flatMap((e) => [e.name, ...values(e.attributes)]),
  ]);
  return [...all, ...points.flatMap((p) => values(p.attributes))].filter((v): v is string => typeof v === "string");
}

async function expectSafe(r: Recorded): Promise<void> {
  const points = [
    ...(await r.points("gen_ai.client.operation.duration")),
    ...(await r.points("gen_ai.client.token.usage")),
  ];
  expect(points.length).toBeGreaterThan(0);
  for (const text of strings(r.spans(), points)) expect(text.length).toBeLessThanOrEqual(200);
  const json = everything(r.spans(), points);
  for (const secret of SECRETS) expect(json).not.toContain(secret);
  expect(json).not.toMatch(/hf_[A-Za-z0-9]{16}/);
}

describe("a hostile server's words in spans and metrics", () => {
  it("a whole chat and a stream: model, provider, request id and finish reasons redacted and bounded", async () => {
    const r = record();
    await chatCompletion({ accessToken: KEY, model: "org/model", messages }, options(r));
    for await (const _ of chatCompletionStream({ accessToken: KEY, model: "org/model", messages }, options(r)));
    await expectSafe(r);
    const calls = r.calls();
    expect(calls.map((s) => s.name)).toEqual(["chat org/model", "chat org/model"]);
    for (const call of calls) {
      expect(call.attributes["gen_ai.response.finish_reasons"]).toEqual(["other"]);
      expect(call.attributes["gen_ai.response.model"]).toMatch(/^model \[redacted\] \[redacted\] Bearer \[redacted\]/);
      expect(call.attributes["hfkit.provider"]).toMatch(/^provider \[redacted\]/);
    }
  });

  it("the tool runner: a tool name the model made up names no span; a declared one does", async () => {
    const r = record();
    const tools = [{ name: "weather", parameters: { type: "object" }, run: () => "sunny" }];
    const run = await runTools({ accessToken: KEY, model: "org/model", messages, tools }, options(r));
    expect(run.steps[0]?.results.map((x) => x.status)).toEqual(["unknown-tool", "ok"]);
    await expectSafe(r);
    const toolSpans = r.spans().filter((s) => s.attributes["gen_ai.operation.name"] === "execute_tool");
    expect(toolSpans.map((s) => s.name).sort()).toEqual(["execute_tool", "execute_tool weather"]);
    const invented = toolSpans.find((s) => s.name === "execute_tool");
    expect(invented?.attributes["gen_ai.tool.name"]).toBeUndefined();
    expect(invented?.attributes["gen_ai.tool.call.id"]).toMatch(/^id \[redacted\]/);
  });

  it("a server naming a new model at each answer: the metrics keep 32 of its names, the rest are `other`", async () => {
    const r = record();
    let n = 0;
    modelOf = () => `model-${n++}`;
    try {
      for (let i = 0; i < 100; i++)
        await chatCompletion({ accessToken: KEY, model: "org/model", messages }, options(r));
    } finally {
      modelOf = () => hostile("model");
    }
    const named = new Set(
      (await r.points("gen_ai.client.operation.duration")).map((p) => p.attributes["gen_ai.response.model"]),
    );
    expect(named.size).toBe(33);
    expect(named).toContain("other");
    expect(named).toContain("model-31");
    expect(named).not.toContain("model-32");
    // The spans, one a call, keep what each answer said.
    expect(r.calls().at(-1)?.attributes["gen_ai.response.model"]).toBe("model-99");
  });
});
