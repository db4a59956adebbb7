import { describe, expect, it } from "vitest";
import { AbortError, chatCompletionStream, collectStream, InferenceClient } from "../src/index";
import { chunk, controlledBody, event, messages, recordingFetch, sse, within } from "./helpers";

const endpointUrl = "http://tgi.test";

/** One macrotask turn: every microtask queued so far has run (no I/O here, so nothing else is awaited). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `promise`, checked to have settled within a turn: at once, whatever the machine's speed. */
async function atOnce<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  const done = (): void => void (settled = true);
  promise.then(done, done);
  await turn();
  expect(settled, "settled within a turn").toBe(true);
  return promise;
}

function open(options: Record<string, unknown> = {}) {
  const body = controlledBody();
  const rec = recordingFetch(() => sse(body.stream));
  const stream = chatCompletionStream({ messages }, { endpointUrl, fetch: rec.fetch, ...options });
  return { body, stream, ...rec };
}

describe("leaving the loop cancels the body at once", () => {
  it("break", async () => {
    const { body, stream } = open();
    body.push(event(chunk("A")) + event(chunk("B")));
    for await (const c of stream) {
      expect(c.choices[0]?.delta.content).toBe("A");
      break;
    }
    expect(body.cancelled).toBe(true);
  });

  it("a throw in the loop body", async () => {
    const { body, stream } = open();
    body.push(event(chunk("A")));
    await expect(
      (async () => {
        for await (const _ of stream) throw new Error("consumer failed");
      })(),
    ).rejects.toThrow("consumer failed");
    expect(body.cancelled).toBe(true);
  });

  it("return() while a next() is pending settles both at once", async () => {
    const { body, stream } = open();
    body.push(event(chunk("A")));
    await stream.next();
    const pending = stream.next(); // the server is silent: this read waits
    const returned = stream.return(undefined);
    expect(await atOnce(returned)).toEqual({ done: true, value: undefined });
    expect(await atOnce(pending)).toEqual({ done: true, value: undefined });
    expect(body.cancelled).toBe(true);
    expect((await stream.next()).done).toBe(true);
  });

  it("return() before the answer's headers arrive aborts the request", async () => {
    let signal: AbortSignal | undefined;
    const never = (_url: string, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>((_, reject) => signal?.addEventListener("abort", () => reject(signal?.reason)));
    };
    const stream = chatCompletionStream({ messages }, { endpointUrl, fetch: never });
    const pending = stream.next();
    await turn();
    expect(signal, "the request was sent").toBeDefined();
    await stream.return(undefined);
    expect(await atOnce(pending)).toEqual({ done: true, value: undefined });
    expect(signal?.aborted).toBe(true);
  });

  it("next() calls made together are served in order", async () => {
    const { body, stream } = open();
    const a = stream.next();
    const b = stream.next();
    body.push(event(chunk("A")) + event(chunk("B", "stop")) + "data: [DONE]\n\n");
    expect((await within(a)).value?.choices[0]?.delta.content).toBe("A");
    expect((await within(b)).value?.choices[0]?.delta.content).toBe("B");
    expect((await within(stream.next())).done).toBe(true);
  });
});

describe("abort", () => {
  it("the caller's signal cancels a pending read: AbortError with the signal's reason as cause", async () => {
    const controller = new AbortController();
    const { body, stream } = open({ signal: controller.signal });
    body.push(event(chunk("A")));
    await stream.next();
    const pending = stream.next();
    const reason = new Error("user left");
    controller.abort(reason);
    const error = await within(
      pending.catch((e: unknown) => e),
      200,
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
    expect(body.cancelled).toBe(true);
  });

  it("an already aborted signal sends nothing", async () => {
    const { stream, seen } = open({ signal: AbortSignal.abort() });
    await expect(stream.next()).rejects.toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(0);
  });

  it("the signal's listener is removed when the call ends", async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...a: Parameters<typeof add>) => (listeners++, add(...a))) as typeof add;
    signal.removeEventListener = ((...a: Parameters<typeof remove>) => (listeners--, remove(...a))) as typeof remove;
    const rec = recordingFetch(() => sse(event(chunk("A", "stop")) + "data: [DONE]\n\n"));
    const c = new InferenceClient("", { endpointUrl, fetch: rec.fetch, signal });
    for (let i = 0; i < 3; i++) for await (const _ of c.chatCompletionStream({ messages }));
    await c.chatCompletion({ messages }).catch(() => {});
    expect(listeners).toBe(0);
  });
});

describe("collectStream", () => {
  it("joins content, merges tool calls by index, keeps usage and finish", async () => {
    const tool = (index: number, id: string, name: string, args: string) => ({
      ...chunk(""),
      choices: [
        {
          index: 0,
          delta: {
            role: "assistant",
            tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }],
          },
          finish_reason: null,
        },
      ],
    });
    const text =
      event(chunk("Hel")) +
      event(chunk("lo")) +
      event(tool(0, "c1", "get", '{"a"')) +
      event(tool(0, "", "", ":1}")) +
      event(tool(1, "c2", "put", "{}")) +
      event(chunk("", "tool_calls")) +
      event({ ...chunk(""), choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }) +
      "data: [DONE]\n\n";
    const rec = recordingFetch(() => sse(text));
    const out = await collectStream(chatCompletionStream({ messages }, { endpointUrl, fetch: rec.fetch }));
    expect(out.choices).toHaveLength(1);
    expect(out.choices[0]?.message.content).toBe("Hello");
    expect(out.choices[0]?.finish_reason).toBe("tool_calls");
    expect(out.choices[0]?.message.tool_calls).toEqual([
      { id: "c1", type: "function", function: { name: "get", arguments: '{"a":1}' } },
      { id: "c2", type: "function", function: { name: "put", arguments: "{}" } },
    ]);
    expect(out.usage.total_tokens).toBe(7);
  });
});
