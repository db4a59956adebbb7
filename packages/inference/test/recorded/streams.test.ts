import { describe, expect, it } from "vitest";
import { chatCompletionStream, InferenceClient, TimeoutError } from "../../dist/index.js";
import { entries, title } from "./catalog";
import { expectRequest, planCall, quietLogger, TOKEN } from "./plan";
import { expectedStream } from "./reference";
import { drain, expectOutcome, recordedRequestId, within } from "./run";
import { recordedReply, withServer } from "./server";

/**
 * Every recorded chat stream, replayed byte for byte from a loopback server: the client yields the
 * recorded chunks (normalised as documented), in order, and ends as the termination rules say.
 */

/**
 * Chat streams, and TGI's in-stream validation errors. Those were recorded on `generate_stream`; TGI
 * sends the same event on its chat route (BACKENDS.md), so they are replayed to the nearest chat
 * request (`max_new_tokens` as `max_tokens`, the prompt as the user message).
 */
const STREAMS = [...entries("chat-stream"), ...entries("stream-error")];
const FROM_GENERATE = new Set(entries("stream-error"));

/**
 * A call not settled by then waits on the default idleTimeout (60 s): it hangs. Everything right ends within
 * a grace (2 s at most) or the short idleTimeout a test sets; how much sooner is the machine's speed, not checked.
 */
const HANG_BOUND_MS = 15_000;

describe.concurrent("recorded chat streams, replayed as recorded", { timeout: 20_000 }, () => {
  it.each(STREAMS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    const expected = expectedStream(ex.body);
    await withServer(async (server) => {
      server.reply(recordedReply(ex));
      const plan = planCall(ex, server, true);
      expect(plan.rewritten).toBe(FROM_GENERATE.has(ex));
      const logger = quietLogger();
      const client = new InferenceClient(TOKEN, { ...plan.route.options, logger });
      const got = await within(drain(client.chatCompletionStream(plan.args)), 10_000, title(ex));

      expect(got.chunks).toStrictEqual(expected.chunks);
      expectOutcome(got, expected.outcome, recordedRequestId(ex));
      expect(server.requests).toHaveLength(1);
      expectRequest(server.requests[0], plan.route.path, plan.body);
      expect(logger.messages).toStrictEqual([]);
    });
  });
});

describe.concurrent("recorded chat streams, the server never closing the response", { timeout: 20_000 }, () => {
  it.each(STREAMS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    const expected = expectedStream(ex.body);
    // A stream that never finishes and never ends can only stop on the idle limit: make it short.
    const idleTimeout = expected.outcome.kind === "incomplete" ? 1000 : undefined;
    await withServer(async (server) => {
      server.reply({ ...recordedReply(ex), keepOpen: true });
      const plan = planCall(ex, server, true);
      const stream = chatCompletionStream(
        { ...plan.args, accessToken: TOKEN },
        { ...plan.route.options, idleTimeout, logger: quietLogger() },
      );
      const got = await within(drain(stream), HANG_BOUND_MS, `${title(ex)} with the socket kept open`);

      expect(got.chunks).toStrictEqual(expected.chunks);
      if (expected.outcome.kind === "incomplete") {
        expect(got.error).toBeInstanceOf(TimeoutError);
        expect((got.error as TimeoutError).kind).toBe("idle");
      } else {
        expectOutcome(got, expected.outcome, recordedRequestId(ex));
      }
      // The client lets go of the connection: the body is cancelled, the socket closed.
      await within(
        server.requests[0]?.closed ?? Promise.reject(new Error("no request")),
        HANG_BOUND_MS,
        "socket close",
      );
      expectRequest(server.requests[0], plan.route.path, plan.body);
    });
  });
});
