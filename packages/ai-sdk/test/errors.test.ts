/** hfkit's typed errors as the AI SDK's, never retried by the AI SDK; abort closes the socket. */
import { APICallError, InvalidArgumentError } from "@ai-sdk/provider";
import { AbortError, RateLimitError, TimeoutError, ValidationError } from "@hfkit/inference";
import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { chatRequests, onHub, QUESTION, settled, TEXT, useHub, within } from "./helpers";

const until = async (condition: () => boolean): Promise<void> => {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
};

const ctx = useHub();

/** Every part of a streamText run, its text and its error part (the AI SDK's own error logging off). */
async function run(result: ReturnType<typeof streamText>) {
  let text = "";
  let error: unknown;
  const types: string[] = [];
  for await (const part of result.fullStream) {
    types.push(part.type);
    if (part.type === "text-delta") text += part.text;
    if (part.type === "error") error = part.error;
  }
  return { text, error, types };
}

const quiet = { onError: () => {} };

describe("errors", () => {
  it("an overloaded error inside a 200 stream, after two chunks: an error part, APICallError 429, our message", async () => {
    const model = "hfkit/tgi-3.2";
    ctx.hub.inject({ type: "overloadedInStream", afterChunks: 2 }, { model });
    const { text, error, types } = await within(
      run(streamText({ model: onHub(ctx.hub)(model), prompt: QUESTION, ...quiet })),
    );
    expect(text.length).toBeLessThan(TEXT.length);
    expect(types).toContain("error");
    expect(APICallError.isInstance(error)).toBe(true);
    const e = error as APICallError;
    expect(e.statusCode).toBe(429);
    expect(e.message).toContain("Model is overloaded");
    expect(e.isRetryable).toBe(false);
    expect(e.cause).toBeInstanceOf(RateLimitError);
    expect(e.url).toContain("/models/hfkit/tgi-3.2/v1/chat/completions");
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("a TGI validation error inside the stream (TGI 2.0, max_tokens over the limit): APICallError 422 with TGI's message", async () => {
    const model = "hfkit/tgi-2.0";
    ctx.hub.inject({ type: "linger" }, { model });
    const { error } = await within(
      run(streamText({ model: onHub(ctx.hub)(model), prompt: QUESTION, maxOutputTokens: 5000, ...quiet })),
    );
    const e = error as APICallError;
    expect(APICallError.isInstance(e)).toBe(true);
    expect(e.statusCode).toBe(422);
    expect(e.message).toContain("must be <= 4096");
    expect(e.cause).toBeInstanceOf(ValidationError);
    expect(e.requestBodyValues).toMatchObject({ max_tokens: 5000 });
    expect(ctx.hub.requests).toHaveLength(1); // not retried by the AI SDK
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("an error before any chunk: generateText rejects with APICallError, sent once despite the AI SDK's maxRetries", async () => {
    const error = await within(
      generateText({ model: onHub(ctx.hub)("org/does-not-exist"), prompt: QUESTION, maxRetries: 3 }).catch(
        (e: unknown) => e,
      ),
    );
    expect(APICallError.isInstance(error)).toBe(true);
    const e = error as APICallError;
    expect(e.statusCode).toBe(404);
    expect(e.isRetryable).toBe(false);
    expect(e.responseBody).toContain("does-not-exist");
    expect(e.requestBodyValues).toMatchObject({
      model: "org/does-not-exist",
      messages: [{ role: "user", content: QUESTION }],
    });
    expect(ctx.hub.requests).toHaveLength(1);
  });

  it("a 429 our retries gave up on is not retried by the AI SDK either", async () => {
    ctx.hub.inject({ type: "rateLimit", retryAfter: 0 }, { model: "hfkit/tgi-3.2" });
    const result = streamText({
      model: onHub(ctx.hub, { maxRetries: 1 })("hfkit/tgi-3.2"),
      prompt: QUESTION,
      maxRetries: 2,
      ...quiet,
    });
    const { error } = await within(run(result), 10_000);
    expect((error as APICallError).statusCode).toBe(429);
    expect((error as APICallError).cause).toBeInstanceOf(RateLimitError);
    expect(ctx.hub.requests).toHaveLength(2); // our first try and our one retry, nothing more
  });

  it("an overloaded error as the stream's first event is retried by hfkit, and the answer arrives", async () => {
    ctx.hub.inject({ type: "overloadedInStream", times: 1 }, { model: "hfkit/tgi-3.2" });
    const { text, error } = await within(
      run(streamText({ model: onHub(ctx.hub, { maxRetries: 2 })("hfkit/tgi-3.2"), prompt: QUESTION, ...quiet })),
      10_000,
    );
    expect(error).toBeUndefined();
    expect(text).toBe(TEXT);
    expect(ctx.hub.requests).toHaveLength(2);
  });

  it("a timeout is an APICallError whose cause is our TimeoutError", async () => {
    ctx.hub.inject({ type: "headersDelay", delayMs: 3000 }, { model: "hfkit/tgi-3.2" });
    const error = await within(
      generateText({ model: onHub(ctx.hub, { timeout: 300 })("hfkit/tgi-3.2"), prompt: QUESTION }).catch(
        (e: unknown) => e,
      ),
    );
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).cause).toBeInstanceOf(TimeoutError);
    expect((error as APICallError).statusCode).toBeUndefined();
    expect((error as APICallError).isRetryable).toBe(false);
  });

  it("a stream cut short (no finish_reason) ends with an error part, finish reason error", async () => {
    ctx.hub.inject({ type: "truncate", afterChunks: 2 }, { model: "hfkit/tgi-3.2" });
    const result = streamText({ model: onHub(ctx.hub)("hfkit/tgi-3.2"), prompt: QUESTION, ...quiet });
    const { error, types } = await within(run(result));
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/ended|incomplete|finish/i);
    expect(types.at(-1)).toBe("finish");
  });

  it("bad arguments are an InvalidArgumentError naming the argument, before any request", async () => {
    const error = await generateText({ model: onHub(ctx.hub)("hfkit/tgi-3.2"), prompt: QUESTION, topP: 7 }).catch(
      (e: unknown) => e,
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe("top_p");
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("aborting mid-stream ends the run and closes the socket (openStreams back to 0)", async () => {
    const model = "hfkit/tgi-3.2";
    ctx.hub.inject({ type: "slow", delayMs: 150 }, { model });
    const controller = new AbortController();
    let aborted = false;
    const result = streamText({
      model: onHub(ctx.hub)(model),
      prompt: QUESTION,
      abortSignal: controller.signal,
      onAbort: () => void (aborted = true),
      ...quiet,
    });
    let text = "";
    const reading = (async () => {
      for await (const part of result.fullStream) {
        if (part.type === "text-delta") {
          text += part.text;
          if (!controller.signal.aborted) controller.abort(new Error("the user left"));
        }
      }
    })();
    await within(reading);
    expect(aborted).toBe(true);
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(TEXT.length);
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("an abort before the answer rejects generateText with our AbortError, the signal's reason as cause", async () => {
    ctx.hub.inject({ type: "headersDelay", delayMs: 60_000 }, { model: "hfkit/tgi-3.2" });
    const controller = new AbortController();
    const call = generateText({
      model: onHub(ctx.hub)("hfkit/tgi-3.2"),
      prompt: QUESTION,
      abortSignal: controller.signal,
    }).catch((e: unknown) => e);
    // aborted once the hub holds the request (its headers a minute away), whenever that is
    await within(until(() => chatRequests(ctx.hub).length === 1));
    controller.abort();
    const error = await within(call);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).name).toBe("AbortError"); // how the AI SDK knows an abort
    expect((error as Error).cause).toBe(controller.signal.reason);
  });
});
