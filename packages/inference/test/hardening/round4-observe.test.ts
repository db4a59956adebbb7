/**
 * Issue 38, class 8: what a server or a model says reaches `observe` redacted and bounded. A loopback server answers
 * with a `model`, an `x-inference-provider`, an `x-request-id` and a finish reason each holding the caller's own key,
 * another `hf_…` token, a `Bearer …` credential, control characters and 100 KB of text; a model asks for a tool whose
 * name it made up from the key. No event may show a credential, a control character or a string over 200 characters.
 */
import { describe, expect, it } from "vitest";
import { type CallEvent, chatCompletion, chatCompletionStream, type Options, runTools } from "../../src/index";
import { chunked, type RawReply, whole } from "../faults/raw-server";
import { within } from "../faults/support";
import { useRawServer } from "./support";

/** The caller's own key (not `hf_…`: only the call's token can redact it), and somebody else's HF token. */
const KEY = "sk-callers-own-key-2718281828";
const OTHER = "hf_SomebodyElsesToken0123456789abcdef";
/** A server's words: every credential, a forged log line, one key across the 200th character, then 100 KB. */
const hostile = (what: string, size = 100_000): string =>
  `${what} ${KEY} ${OTHER} Bearer bearer-secret-value\nforged=1 \u001b[31m ${"y".repeat(120)}${KEY}${"z".repeat(size)}`;
/** Header values: no line breaks or control characters (HTTP refuses them), and a fetch takes at most 16 KB. */
const header = (what: string): string => hostile(what, 4000).replace(/\p{Cc}/gu, " ");
const HEADERS: Array<[string, string]> = [
  ["x-inference-provider", header("provider")],
  ["x-request-id", header("request")],
];

const ctx = useRawServer(() => {});
const options = (events: CallEvent[]): Options => ({
  endpointUrl: ctx.server.url,
  backend: "openai",
  maxRetries: 0,
  observe: (e) => events.push(e),
});
const messages = [{ role: "user", content: "Hello" }];

/** Every string an event carries, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(strings);
}

/** No event shows a credential or a control character, nor a string longer than 200 characters. */
function expectSafe(events: CallEvent[]): void {
  expect(events.length).toBeGreaterThan(0);
  const all = strings(events);
  for (const text of all) {
    expect(text.length).toBeLessThanOrEqual(200);
    expect(text).not.toMatch(/\p{Cc}/u);
  }
  const json = JSON.stringify(events);
  for (const secret of [KEY, OTHER, "bearer-secret-value", "sk-callers"]) expect(json).not.toContain(secret);
  expect(json).not.toMatch(/hf_[A-Za-z0-9]{16}/);
}

const answer = (content: string, finish = hostile("finish"), calls?: unknown): string =>
  JSON.stringify({
    id: "x",
    object: "chat.completion",
    model: hostile("model"),
    choices: [{ index: 0, message: { role: "assistant", content, tool_calls: calls }, finish_reason: finish }],
    usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
  });

function streamed(reply: RawReply, index: number): void {
  const body = chunked(reply, 200, [["Content-Type", "text/event-stream"], ...HEADERS]);
  const chunk = (choice: object): string =>
    `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: hostile("model"), choices: [choice] })}\n\n`;
  body.chunk(chunk({ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }));
  if (index !== 0) body.chunk(chunk({ index, delta: {}, finish_reason: "stop" }));
  body.chunk(chunk({ index: 0, delta: {}, finish_reason: hostile("finish") }));
  body.chunk("data: [DONE]\n\n");
  body.end();
}

const endOf = (events: CallEvent[]) => events.find((e): e is Extract<CallEvent, { type: "end" }> => e.type === "end");

describe("a server's words in observe events", () => {
  it("a whole chat: the model, the provider, the request id and the finish reason come redacted and bounded", async () => {
    ctx.server.handle((_req, reply) => whole(reply, 200, "application/json", answer("Hi"), HEADERS));
    const events: CallEvent[] = [];
    await within(chatCompletion({ accessToken: KEY, model: "org/model", messages }, options(events)));
    expectSafe(events);
    const attempt = events.find((e) => e.type === "attempt");
    expect(attempt).toMatchObject({
      provider: expect.stringMatching(/^provider \[redacted\] \[redacted\] Bearer \[redacted\] forged/),
    });
    expect(attempt?.type === "attempt" && attempt.requestId?.length).toBe(200);
    const end = endOf(events);
    expect(end?.responseModel).toMatch(/^model \[redacted\]/);
    expect(end?.responseModel).toHaveLength(200);
    expect(end?.finishReasons).toEqual(["other"]);
  });

  it("a stream: its chunks' model and finish reason likewise; a choice numbered past any n is not kept", async () => {
    for (const index of [0, 1_000_000]) {
      ctx.server.handle((_req, reply) => streamed(reply, index));
      const events: CallEvent[] = [];
      const stream = chatCompletionStream({ accessToken: KEY, model: "org/model", messages }, options(events));
      await within(
        (async () => {
          for await (const _ of stream);
        })(),
      );
      expectSafe(events);
      expect(endOf(events)).toMatchObject({
        finishReasons: ["other"],
        responseModel: expect.stringMatching(/^model \[redacted\]/),
      });
    }
  });

  it("known finish reasons are told as they are", async () => {
    for (const finish of ["stop", "length", "tool_calls", "content_filter"]) {
      ctx.server.handle((_req, reply) => whole(reply, 200, "application/json", answer("Hi", finish)));
      const events: CallEvent[] = [];
      await within(chatCompletion({ accessToken: KEY, model: "org/model", messages }, options(events)));
      expect(endOf(events)?.finishReasons).toEqual([finish]);
    }
  });
});

describe("a model's words in a tool event", () => {
  it("a tool name the model made up is never told; a declared one is; the call id is redacted and bounded", async () => {
    let step = 0;
    ctx.server.handle((_req, reply) => {
      const calls = [
        { id: hostile("id"), type: "function", function: { name: `${KEY}_${OTHER}`, arguments: "{}" } },
        { id: "call_ok", type: "function", function: { name: "weather", arguments: "{}" } },
      ];
      whole(reply, 200, "application/json", step++ === 0 ? answer("", "tool_calls", calls) : answer("Done", "stop"));
    });
    const events: CallEvent[] = [];
    const tools = [{ name: "weather", parameters: { type: "object" }, run: () => "sunny" }];
    const run = await within(runTools({ accessToken: KEY, model: "org/model", messages, tools }, options(events)));
    expect(run.steps[0]?.results.map((r) => r.status)).toEqual(["unknown-tool", "ok"]);
    expectSafe(events);
    const told = events.filter((e): e is Extract<CallEvent, { type: "tool" }> => e.type === "tool");
    const byStatus = Object.fromEntries(told.map((e) => [e.status, e]));
    expect(byStatus["unknown-tool"]).toMatchObject({ name: "", callId: expect.stringMatching(/^id \[redacted\]/) });
    expect(byStatus.ok).toMatchObject({ name: "weather", callId: "call_ok" });
  });
});
