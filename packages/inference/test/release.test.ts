/**
 * What a stream keeps and does once its answer is read: the request released once, with one reason made once (not
 * an exception per call), the body cancelled once (the end and `close()` both ask), and no event's text kept after
 * it is dispatched (a slice of the read it came in: kept, it would keep that whole read alive while the stream is open).
 */
import { expect, it } from "vitest";
import { EventStream } from "../src/core/sse";
import { Call } from "../src/core/call";
import { InferenceClient } from "../src/index";
import { chatRules } from "../src/targets/endpoints/openai";
import { chunk, event, messages } from "./helpers";

const limits = { firstChunkTimeout: Infinity, idleTimeout: Infinity, stallTimeout: Infinity };
const encoder = new TextEncoder();

it("the request is released once, its signal aborted with the one reason `The answer was read`", async () => {
  const signals: AbortSignal[] = [];
  const body = () =>
    new Response(`${event(chunk("Paris", "stop"))}data: [DONE]\n\n`, {
      headers: { "content-type": "text/event-stream" },
    });
  const client = new InferenceClient("hf_release", {
    endpointUrl: "https://e.test",
    backend: "openai",
    fetch: (_url, init) => (signals.push(init!.signal!), Promise.resolve(body())),
  });
  for (let i = 0; i < 2; i++) for await (const _ of client.chatCompletionStream({ messages })) void _;
  expect(signals).toHaveLength(2);
  for (const signal of signals) {
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: "AbortError", message: "The answer was read" });
  }
  expect(signals[0]!.reason).toBe(signals[1]!.reason);
});

it("the body is cancelled and the request released once, though the end and close() both ask; no event's text is kept", async () => {
  let cancels = 0;
  let releases = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${event(chunk("Paris", "stop"))}data: [DONE]\n\n`));
    },
    cancel() {
      cancels++;
    },
  });
  const call = new Call(limits);
  const ctx = { args: { messages }, options: {} } as unknown as Parameters<typeof chatRules>[0];
  const stream = new EventStream(
    body,
    call,
    chatRules(ctx, { url: "https://e.test" }),
    { url: "https://e.test" },
    () => void releases++,
  );
  await stream.prime();
  expect(stream.poll()?.choices[0]?.delta?.content).toBe("Paris");
  expect(stream.ended).toBe(true);
  expect(Reflect.get(stream, "data")).toBe("");
  stream.close();
  expect([cancels, releases]).toEqual([1, 1]);
});
