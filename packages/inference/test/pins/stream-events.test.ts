/**
 * The event stream's rules, by the exact error each way of ending gives, through real HTTP on loopback:
 * the four IncompleteStreamError texts, a malformed or non-object event, an error inside the stream (also as
 * the body's last event without its blank line), `"error": null` as no error, [DONE] as the end wherever it
 * comes, and a Responses stream's failures (`response.failed`, `event: error`) read by its own rules.
 */
import { describe, expect, it } from "vitest";
import {
  HttpError,
  IncompleteStreamError,
  MalformedEventError,
  RateLimitError,
  responsesStream,
  ServerError,
  ValidationError,
} from "../../src/index";
import { chunked, whole } from "../faults/raw-server";
import { consume, within } from "../faults/support";
import { chunkEvent, clientOn, holdNextRequest, QUESTION, SECRET, SSE, useRawServer } from "./stream-support";

const raw = useRawServer();

/** Streams a chat answer whose body is `body`, the connection then closed. */
function streamOf(body: string) {
  raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", body));
  return within(consume(clientOn(raw()).chatCompletionStream({ messages: QUESTION })), undefined, "the stream");
}

/** Streams a chat answer whose server sends `body` and keeps the socket open; `closed` settles when it closes. */
async function heldOpen(body: string) {
  const held = holdNextRequest(raw());
  const run = consume(clientOn(raw()).chatCompletionStream({ messages: QUESTION }));
  const reply = await held;
  chunked(reply, 200, SSE).chunk(body);
  return {
    run: await within(run, undefined, "the stream"),
    closed: within(reply.closedPromise, undefined, "the socket closing"),
  };
}

/** `error` is exactly of class `Cls` (not a subclass) with exactly `message`. */
function expectError(error: unknown, Cls: abstract new (...a: never[]) => Error, message: string): void {
  expect(error).toBeInstanceOf(Cls);
  expect((error as Error).constructor).toBe(Cls);
  expect((error as Error).message).toBe(message);
}

describe("how a stream ends early: IncompleteStreamError, by its text", () => {
  it("a body that ends before any chunk (only a comment and a keep-alive)", async () => {
    const run = await streamOf(": ping\n\ndata: {}\n\n");
    expectError(run.error, IncompleteStreamError, "The stream ended before any chunk arrived");
  });

  it("a body that ends after a chunk but before any finish_reason: the chunk kept", async () => {
    const run = await streamOf(chunkEvent("A"));
    expect(run.tokens).toEqual(["A"]);
    expectError(run.error, IncompleteStreamError, "The stream ended before the answer was complete");
  });

  it("[DONE] before any chunk (a keep-alive does not count), the socket left open then closed", async () => {
    const { run, closed } = await heldOpen("data: {}\n\ndata: [DONE]\n\n");
    expectError(run.error, IncompleteStreamError, "The stream sent [DONE] before any chunk");
    await closed;
  });

  it("a body that ends inside an event", async () => {
    const run = await streamOf(`${chunkEvent("A")}data: {"id":"c1","choices":[{"ind`);
    expect(run.tokens).toEqual(["A"]);
    expectError(run.error, IncompleteStreamError, "The stream ended inside an event");
  });
});

describe("events that are not chunks: MalformedEventError, by its text, data kept", () => {
  it("JSON that does not parse, while the body goes on", async () => {
    const { run, closed } = await heldOpen(`${chunkEvent("A")}data: {not json\n\n`);
    expect(run.tokens).toEqual(["A"]);
    expectError(run.error, MalformedEventError, "Malformed event in the stream: {not json");
    expect((run.error as MalformedEventError).data).toBe("{not json");
    expect((run.error as Error).cause).toBeInstanceOf(SyntaxError);
    await closed;
  });

  it.each(["null", "42", '"text"', "true"])("data: %s is not dropped and is not a TypeError", async (data) => {
    const { run, closed } = await heldOpen(`data: ${data}\n\n`);
    expectError(run.error, MalformedEventError, `Unexpected event in the stream: ${data}`);
    expect((run.error as MalformedEventError).data).toBe(data);
    await closed;
  });

  it("data: null as the body's last event, without its blank line: still malformed, not incomplete", async () => {
    const run = await streamOf(`${chunkEvent("A")}data: null`);
    expect(run.tokens).toEqual(["A"]);
    expectError(run.error, MalformedEventError, "Unexpected event in the stream: null");
  });
});

describe("errors inside the stream", () => {
  it("an error as the body's last event, without its blank line: the typed error, not incomplete", async () => {
    const run = await streamOf('data: {"error":"Input validation error: x","error_type":"validation"}');
    expectError(run.error, ValidationError, "Input validation error: x (inside the stream)");
    expect(run.error).toMatchObject({ status: 422, httpResponse: { status: 200 } });
  });

  it('an "error": null field is no error: the chunk is yielded', async () => {
    const event = JSON.parse(chunkEvent("A", "stop").slice("data: ".length)) as Record<string, unknown>;
    const run = await streamOf(`data: ${JSON.stringify({ ...event, error: null })}\n\ndata: [DONE]\n\n`);
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["A"]);
  });

  it("an `event: error` frame in TGI's shape: its class and status", async () => {
    const run = await streamOf(
      `${chunkEvent("A")}event: error\ndata: {"error":"Template error: bad","error_type":"template_error"}\n\n`,
    );
    expectError(run.error, ValidationError, "Template error: bad (inside the stream)");
    expect((run.error as HttpError).status).toBe(422);
  });

  it("an `event: error` frame whose data is not JSON: a ServerError quoting it", async () => {
    const { run, closed } = await heldOpen(`${chunkEvent("A")}event: error\ndata: upstream died\n\n`);
    expect(run.tokens).toEqual(["A"]);
    expectError(run.error, ServerError, "upstream died (inside the stream)");
    expect((run.error as HttpError).body).toBe("upstream died");
    await closed;
  });
});

describe("[DONE]", () => {
  it("[DONE] with blanks around it ends the stream", async () => {
    const run = await streamOf(`${chunkEvent("A", "stop")}data:   [DONE]  \n\n${chunkEvent("B")}`);
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["A"]);
  });

  it("[DONE] as the body's last line ends the stream even before a finish_reason", async () => {
    const run = await streamOf(`${chunkEvent("A")}data: [DONE]`);
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["A"]);
  });

  it("a chunk whose text holds [DONE] is a chunk, not the end (only data that is [DONE] and nothing else ends it)", async () => {
    const run = await streamOf(`${chunkEvent("[DONE]")}${chunkEvent(" then more", "stop")}data: [DONE]\n\n`);
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["[DONE]", " then more"]);
  });

  it("nothing after [DONE] is read: a later event, even an error, is not seen", async () => {
    const run = await streamOf(
      `${chunkEvent("A", "stop")}data: [DONE]\n\n${chunkEvent("B")}data: {"error":"late"}\n\n`,
    );
    expect(run.error).toBeUndefined();
    expect(run.tokens).toEqual(["A"]);
  });
});

describe("a Responses stream's failures, read by its rules", () => {
  /** What a Responses stream whose body is `body` threw. */
  async function responsesError(body: string): Promise<unknown> {
    raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", body));
    const stream = responsesStream(
      { model: "m", input: "hi", accessToken: SECRET },
      { endpointUrl: raw().url, backend: "openai", maxRetries: 0 },
    );
    const run = (async () => {
      for await (const _ of stream);
    })();
    return within(
      run.catch((e: unknown) => e),
      undefined,
      "the Responses stream",
    );
  }
  const created = `data: ${JSON.stringify({ type: "response.created", response: { id: "r1", object: "response", status: "in_progress", model: "m", output: [] } })}\n\n`;

  it("a response.failed event (no `event:` line) is the error it carries", async () => {
    const failed = {
      type: "response.failed",
      response: { id: "r1", status: "failed", error: { code: "server_error", message: "boom" } },
    };
    const error = await responsesError(`${created}data: ${JSON.stringify(failed)}\n\n`);
    expectError(error, ServerError, "boom (inside the stream)");
    expect((error as HttpError).status).toBe(500);
  });

  it("an `event: error` frame whose data is null: a typed error quoting it, not a TypeError of our own", async () => {
    const error = await responsesError(`${created}event: error\ndata: null\n\n`);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toContain("inside the stream");
  });

  it("an `event: error` frame is read by the rules: its code's class and status", async () => {
    const frame = { type: "error", code: "rate_limit_exceeded", message: "Slow down" };
    const error = await responsesError(`${created}event: error\ndata: ${JSON.stringify(frame)}\n\n`);
    expectError(error, RateLimitError, "Slow down (inside the stream)");
    expect((error as HttpError).status).toBe(429);
  });
});
