import { afterEach, describe, expect, it, vi } from "vitest";
import {
  chatCompletionStream,
  IncompleteStreamError,
  MalformedEventError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../src/index";
import type { ChatCompletionStreamOutput } from "../src/types";
import { COMPLETION_GRACE_MS, USAGE_GRACE_MS } from "../src/tasks/chatCompletionStream";
import { chunk, collectContent, controlledBody, event, json, messages, recordingFetch, sse, within } from "./helpers";

const endpointUrl = "http://tgi.test";

function streamFrom(
  body: ReadableStream<Uint8Array> | string | Response,
  args: Record<string, unknown> = {},
  options = {},
) {
  const { fetch, seen } = recordingFetch(() => (body instanceof Response ? body : sse(body)));
  const stream = chatCompletionStream({ messages, ...args }, { endpointUrl, fetch, maxRetries: 0, ...options });
  return { stream, seen };
}

/** A promise and whether it has settled yet (on a fake clock, "not yet" is exact). */
function watch<T>(promise: Promise<T>) {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

async function drain(stream: AsyncIterable<ChatCompletionStreamOutput>) {
  const chunks: ChatCompletionStreamOutput[] = [];
  let error: unknown;
  try {
    for await (const c of stream) chunks.push(c);
  } catch (e) {
    error = e;
  }
  return { chunks, error };
}

describe("stream termination", () => {
  // The graces are timers: these tests run them on a fake clock, so only the clock, not the machine, decides.
  afterEach(() => void vi.useRealTimers());

  it("completes on [DONE], with any spacing", async () => {
    for (const done of ["data: [DONE]\n\n", "data:[DONE]\n\n", "data:  [DONE] \n\n"]) {
      const body = controlledBody();
      body.push(event(chunk("Hi", "stop")) + done);
      const { chunks, error } = await within(drain(streamFrom(body.stream).stream));
      expect(error).toBeUndefined();
      expect(chunks.map((c) => c.choices[0]?.delta.content)).toEqual(["Hi"]);
      expect(body.cancelled).toBe(true);
    }
  });

  it("completes at the end of the body without [DONE] (TGI <= 2.1)", async () => {
    const text = event(chunk("The"), "data:") + event(chunk(" end", "length"), "data:");
    expect(await within(collectContent(streamFrom(text).stream))).toBe("The end");
  });

  it("completes a short grace after the finish_reason when the server keeps the socket open", async () => {
    vi.useFakeTimers();
    const body = controlledBody();
    body.push(event(chunk("A")) + event(chunk("B", "stop")));
    const drained = watch(drain(streamFrom(body.stream).stream));
    await vi.advanceTimersByTimeAsync(COMPLETION_GRACE_MS - 1);
    expect(drained.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { chunks, error } = await drained.promise;
    expect(error).toBeUndefined();
    expect(chunks).toHaveLength(2);
    expect(body.cancelled).toBe(true);
  });

  it("yields what arrives during the grace (a usage chunk), then completes", async () => {
    const body = controlledBody();
    body.push(event(chunk("A", "stop")));
    const { stream } = streamFrom(body.stream);
    const first = await stream.next();
    expect(first.value?.choices[0]?.finish_reason).toBe("stop");
    const usage = { ...chunk(""), choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    body.push(event(usage)); // in the same turn: the grace has begun and cannot have ended
    const second = await within(stream.next());
    expect(second.value?.usage?.total_tokens).toBe(2);
    expect((await within(stream.next())).done).toBe(true);
    expect(body.cancelled).toBe(true);
  });

  it("with include_usage, waits past the grace for the usage chunk, then completes at once", async () => {
    vi.useFakeTimers();
    const body = controlledBody();
    body.push(event(chunk("A", "stop")));
    const { stream } = streamFrom(body.stream, { stream_options: { include_usage: true } });
    await stream.next();
    const usage = { ...chunk(""), choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
    const second = watch(stream.next());
    await vi.advanceTimersByTimeAsync(2 * COMPLETION_GRACE_MS);
    expect(second.settled).toBe(false);
    body.push(event(usage));
    expect((await second.promise).value?.choices).toEqual([]);
    expect((await second.promise).value?.usage?.total_tokens).toBe(2);
    // at once: with no time passing
    const third = watch(stream.next());
    await vi.advanceTimersByTimeAsync(0);
    expect(third.settled).toBe(true);
    expect((await third.promise).done).toBe(true);
  });

  it("with include_usage and no usage chunk, completes without error after the usage grace, not idleTimeout", async () => {
    vi.useFakeTimers();
    const body = controlledBody();
    body.push(event(chunk("A", "stop")));
    const drained = watch(
      drain(streamFrom(body.stream, { stream_options: { include_usage: true } }, { idleTimeout: 60_000 }).stream),
    );
    await vi.advanceTimersByTimeAsync(USAGE_GRACE_MS - 1);
    expect(drained.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { chunks, error } = await drained.promise;
    expect(error).toBeUndefined();
    expect(chunks).toHaveLength(1);
    expect(body.cancelled).toBe(true);
  });

  it("waits for every one of n choices to finish", async () => {
    vi.useFakeTimers();
    const body = controlledBody();
    const two = (i: number, finish: string | null) => ({
      ...chunk("x"),
      choices: [{ index: i, delta: { role: "assistant", content: String(i) }, finish_reason: finish }],
    });
    body.push(event(two(0, "stop")));
    const { fetch, seen } = recordingFetch(() => sse(body.stream));
    // n > 1 reaches a server only on OpenAI-protocol routes (the HF router).
    const stream = chatCompletionStream({ model: "m", messages, n: 2 }, { fetch });
    await stream.next();
    // choice 1 speaks only after a one-choice grace would have ended the stream
    const second = watch(stream.next());
    await vi.advanceTimersByTimeAsync(COMPLETION_GRACE_MS + 200);
    expect(second.settled).toBe(false);
    body.push(event(two(1, null)));
    expect((await second.promise).value?.choices[0]?.index).toBe(1);
    body.push(event(two(1, "length")));
    expect((await stream.next()).value?.choices[0]?.finish_reason).toBe("length");
    const end = watch(stream.next());
    await vi.advanceTimersByTimeAsync(COMPLETION_GRACE_MS);
    expect((await end.promise).done).toBe(true);
    expect(seen[0]!.body.n).toBe(2);
  });

  it("a body that ends before any finish_reason is an IncompleteStreamError, after the tokens", async () => {
    const { chunks, error } = await within(drain(streamFrom(event(chunk("A")) + event(chunk("B"))).stream));
    expect(chunks.map((c) => c.choices[0]?.delta.content)).toEqual(["A", "B"]);
    expect(error).toBeInstanceOf(IncompleteStreamError);
  });

  it("[DONE] before any chunk is an IncompleteStreamError", async () => {
    const { error } = await within(drain(streamFrom("data: [DONE]\n\n").stream));
    expect(error).toBeInstanceOf(IncompleteStreamError);
  });

  it("an empty body is an IncompleteStreamError", async () => {
    const { error } = await within(drain(streamFrom("").stream));
    expect(error).toBeInstanceOf(IncompleteStreamError);
  });

  it("an event cut off by the end of the body is not parsed as data", async () => {
    const text = event(chunk("A")) + 'data: {"id":"","choices":[{"ind';
    const { chunks, error } = await within(drain(streamFrom(text).stream));
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(IncompleteStreamError);
  });

  it("keep-alive comments yield nothing", async () => {
    const text = ":\n\n" + event(chunk("A")) + ": keep-alive\n\n" + event(chunk("B", "stop"));
    const { chunks } = await within(drain(streamFrom(text).stream));
    expect(chunks.map((c) => c.choices[0]?.delta.content)).toEqual(["A", "B"]);
  });
});

describe("errors inside a 200 stream", () => {
  it("TGI <= 2.1: {error, error_type} and nothing more -> ValidationError, no hang", async () => {
    const body = controlledBody(); // the socket stays open after the error
    body.push('data:{"error":"Input validation error: `top_p` must be > 0.0 and < 1.0","error_type":"validation"}\n\n');
    const { error } = await within(drain(streamFrom(body.stream).stream));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(422);
    expect((error as Error).message).toContain("`top_p` must be > 0.0 and < 1.0");
    expect(body.cancelled).toBe(true);
  });

  it("TGI >= 2.4.1: {error: {message, http_status_code}} then [DONE]", async () => {
    const text = 'data: {"error":{"message":"Input validation error: bad","http_status_code":422}}\n\ndata: [DONE]\n\n';
    const { error } = await within(drain(streamFrom(text).stream));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).body).toEqual({
      error: { message: "Input validation error: bad", http_status_code: 422 },
    });
  });

  it("an `event: error` frame", async () => {
    const { error } = await within(drain(streamFrom('event: error\ndata: {"message":"boom"}\n\n').stream));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as Error).message).toContain("boom");
  });

  it("overloaded is a RateLimitError even when labelled 422", async () => {
    const text = 'data: {"error":{"message":"Model is overloaded","http_status_code":422}}\n\n';
    const { error } = await within(drain(streamFrom(text).stream));
    expect(error).toBeInstanceOf(RateLimitError);
  });

  it("an error after tokens is raised after them", async () => {
    const text =
      event(chunk("A")) + 'data: {"error":"Request failed during generation: oops","error_type":"generation"}\n\n';
    const { chunks, error } = await within(drain(streamFrom(text).stream));
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(424);
  });

  it("malformed JSON is a MalformedEventError carrying the raw data", async () => {
    const { chunks, error } = await within(drain(streamFrom(event(chunk("A")) + "data: {not json\n\n").stream));
    expect(chunks).toHaveLength(1);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as MalformedEventError).data).toBe("{not json");
  });
});

describe("a 2xx that is not an event stream", () => {
  const answer = {
    id: "x",
    object: "chat.completion",
    created: 5,
    model: "m",
    system_fingerprint: "",
    choices: [{ index: 0, message: { role: "assistant", content: "Paris" }, finish_reason: "eos_token" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };

  it("a ChatCompletion JSON is yielded as a stream: content, then the finish", async () => {
    const { chunks, error } = await within(drain(streamFrom(json(answer)).stream));
    expect(error).toBeUndefined();
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "Paris" });
    expect(chunks[1]?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks[1]?.usage?.total_tokens).toBe(2);
  });

  it("a JSON answer whose response never ends is bounded by idleTimeout", async () => {
    const body = controlledBody();
    body.push(JSON.stringify(answer).slice(0, 40));
    const res = new Response(body.stream, { headers: { "content-type": "application/json" } });
    const { error } = await within(drain(streamFrom(res, {}, { idleTimeout: 300 }).stream));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("idle");
    expect(body.cancelled).toBe(true);
  });

  it("an error JSON is mapped", async () => {
    const { error } = await within(
      drain(streamFrom(json({ error: "Input validation error: x", error_type: "validation" })).stream),
    );
    expect(error).toBeInstanceOf(ValidationError);
  });

  it("anything else is an error quoting the start of the body", async () => {
    const html = new Response("<html>gateway says hi</html>", { headers: { "content-type": "text/html" } });
    const { error } = await within(drain(streamFrom(html).stream));
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toContain("<html>gateway says hi");
  });
});

describe("TGI normalisation", () => {
  it("maps old finish reasons and tool-call objects to OpenAI's shapes", async () => {
    const call = { index: 0, id: "", type: "function", function: { name: null, arguments: '{"a"' } };
    const c1 = {
      ...chunk(""),
      choices: [{ index: 0, delta: { role: "assistant", tool_calls: call }, finish_reason: null }],
    };
    const text = event(c1) + event(chunk("</s>", "eos_token"));
    const { chunks } = await within(drain(streamFrom(text).stream));
    expect(chunks[0]?.choices[0]?.delta.tool_calls).toEqual([call]);
    expect(chunks[1]?.choices[0]?.finish_reason).toBe("stop");
    // The EOS token's text that TGI < 2.1 sends with `eos_token` is not part of the answer.
    expect(chunks[1]?.choices[0]?.delta.content).toBe("");
  });
});
