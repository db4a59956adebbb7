import { describe, expect, it } from "vitest";
import { InferenceClient, textGenerationStream } from "../../dist/index.js";
import { entries, title } from "./catalog";
import type { Exchange } from "./fixtures";
import {
  type ExpectedEvents,
  expectedEvents,
  expectedGenerateBody,
  expectGenerateRequest,
  generateArgs,
  generateRoute,
  recordedGenerateRequest,
  ROUTE_KINDS,
} from "./generate";
import { quietLogger, TOKEN } from "./plan";
import { drain, expectOutcome, recordedRequestId, within } from "./run";
import { Pacer, pacedFetch, recordedReply, type ReplayServer, withServer } from "./server";
import { awkwardCuts, cut, expectCutsSeen, MULTI_BYTE, prng, randomCuts, sample, utf8 } from "./splits";

/**
 * Every recorded `generate_stream` token stream, replayed byte for byte: `textGenerationStream`
 * yields the recorded events in order, as sent, and completes at the event whose `generated_text`
 * is a string, also when the server never ends the response. TGI's in-stream errors, recorded on
 * `generate_stream` (the `stream-error` group, also replayed on the chat route), are replayed here
 * on their own route.
 */

const STREAMS = entries("generate-stream");
const IN_STREAM_ERRORS = entries("stream-error");

/**
 * A call not settled by then waits on the default idleTimeout (60 s): it hangs. Everything right ends within
 * a grace (2 s at most) or the short idleTimeout a test sets; how much sooner is the machine's speed, not checked.
 */
const HANG_BOUND_MS = 15_000;

describe("the recorded generate streams", () => {
  it("all end with a final event, with and without `index`, `data:` with and without a space", () => {
    for (const ex of STREAMS) expect(expectedEvents(ex.body).outcome, title(ex)).toStrictEqual({ kind: "complete" });
    const recorded = STREAMS.flatMap((ex) => ex.body.split("\n").filter((l) => l.startsWith("data:")));
    expect(recorded.some((e) => e.includes('"index"'))).toBe(true);
    expect(recorded.some((e) => !e.includes('"index"'))).toBe(true);
    expect(STREAMS.some((ex) => /^data:[^ ]/m.test(ex.body))).toBe(true);
    expect(STREAMS.some((ex) => /^data: /m.test(ex.body))).toBe(true);
    for (const ex of IN_STREAM_ERRORS) expect(expectedEvents(ex.body).outcome.kind, title(ex)).toBe("error");
  });
});

describe.concurrent("recorded generate streams through textGenerationStream, as recorded", { timeout: 20_000 }, () => {
  it.each([...STREAMS, ...IN_STREAM_ERRORS].map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    const expected = expectedEvents(ex.body);
    const { request } = recordedGenerateRequest(ex);
    await withServer(async (server) => {
      server.reply(recordedReply(ex));
      for (const kind of ROUTE_KINDS) {
        const route = generateRoute(ex, server.origin, kind);
        const before = server.requests.length;
        const logger = quietLogger();
        const client = new InferenceClient(TOKEN, { ...route.options, logger });
        const got = await within(
          drain(client.textGenerationStream(generateArgs(request, route, true))),
          10_000,
          `${title(ex)} (${kind})`,
        );

        expect(got.chunks, kind).toStrictEqual(expected.events);
        expectOutcome(got, expected.outcome, recordedRequestId(ex));
        // An error before any event is final (a validation error is never retried, nor a reason to fall back).
        expect(server.requests).toHaveLength(before + 1);
        expectGenerateRequest(server.requests[before], route.path, expectedGenerateBody(request, true, true));
        expect(logger.messages).toStrictEqual([]);
      }
    });
  });
});

describe.concurrent("recorded generate streams, the server never ending the response", { timeout: 20_000 }, () => {
  it.each([...STREAMS, ...IN_STREAM_ERRORS].map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    const expected = expectedEvents(ex.body);
    const { request } = recordedGenerateRequest(ex);
    await withServer(async (server) => {
      server.reply({ ...recordedReply(ex), keepOpen: true });
      const route = generateRoute(ex, server.origin, "baseUrl");
      // The default limits: completion must come from the final event (or the error), not from a timer.
      const stream = textGenerationStream(
        { ...generateArgs(request, route, true), accessToken: TOKEN },
        { ...route.options, logger: quietLogger() },
      );
      const got = await within(drain(stream), HANG_BOUND_MS, `${title(ex)} with the response never ended`);

      expect(got.chunks).toStrictEqual(expected.events);
      expectOutcome(got, expected.outcome, recordedRequestId(ex));
      // The client lets go of the connection: the body is cancelled, the socket closed.
      await within(
        server.requests[0]?.closed ?? Promise.reject(new Error("no request")),
        HANG_BOUND_MS,
        "socket close",
      );
      expectGenerateRequest(server.requests[0], route.path, expectedGenerateBody(request, true, true));
    });
  });

  it("a stream left right after its final event: nothing more is read", async () => {
    const ex = [...STREAMS].sort((a, b) => b.body.length - a.body.length)[0] as Exchange;
    const expected = expectedEvents(ex.body);
    const { request } = recordedGenerateRequest(ex);
    // More events after the final one (a misbehaving proxy repeating itself) are never yielded.
    const body = ex.body + ex.body;
    await withServer(async (server) => {
      server.reply({ ...recordedReply(ex, body), keepOpen: true });
      const route = generateRoute(ex, server.origin, "baseUrl");
      const stream = textGenerationStream(
        { ...generateArgs(request, route, true), accessToken: TOKEN },
        { ...route.options, logger: quietLogger() },
      );
      const got = await within(drain(stream), HANG_BOUND_MS, title(ex));
      if (got.error) throw got.error;
      expect(got.chunks).toStrictEqual(expected.events);
    });
  });
});

/** Text inserted at the start of every token text and final `generated_text`: 2-, 3- and 4-byte UTF-8. */
function withMultiByte(text: string): string {
  return text.replace(/("text":\s*"|"generated_text":\s*")/g, `$1${MULTI_BYTE}`);
}

interface Variant {
  name: string;
  text: string;
}

/** The recorded text with other line ends, a BOM, and multi-byte text (no recorded stream has any). */
function variants(recorded: string): Variant[] {
  if (recorded.includes("\r")) throw new Error("a recorded body with CR: the variants assume LF line ends");
  const crlf = (t: string): string => t.replace(/\n/g, "\r\n");
  const multiByte = withMultiByte(recorded);
  return [
    { name: "as recorded (LF)", text: recorded },
    { name: "CRLF", text: crlf(recorded) },
    { name: "CR", text: recorded.replace(/\n/g, "\r") },
    { name: "BOM, CRLF", text: `\uFEFF${crlf(recorded)}` },
    { name: "multi-byte text, CRLF", text: crlf(multiByte) },
  ];
}

/** Serves `pieces` one client read at a time, runs textGenerationStream over them, and checks it all. */
async function replayGenerateCut(
  server: ReplayServer,
  ex: Exchange,
  pieces: Uint8Array[],
  expected: ExpectedEvents,
): Promise<void> {
  const pacer = new Pacer();
  server.reply({ ...recordedReply(ex), pieces, pacer });
  const { request } = recordedGenerateRequest(ex);
  const route = generateRoute(ex, server.origin, "baseUrl");
  const before = server.requests.length;
  const stream = textGenerationStream(
    { ...generateArgs(request, route, true), accessToken: TOKEN },
    { ...route.options, fetch: pacedFetch(pacer), logger: quietLogger() },
  );
  const got = await within(drain(stream), 10_000, `${title(ex)} in ${pieces.length} pieces`);
  expect(got.chunks).toStrictEqual(expected.events);
  expectOutcome(got, expected.outcome, recordedRequestId(ex));
  expectCutsSeen(pacer, pieces);
  expect(server.requests.length).toBe(before + 1);
  expectGenerateRequest(server.requests[before], route.path, expectedGenerateBody(request, true, true));
}

/** One exchange per distinct body (the two tape files share some). */
const DISTINCT: Exchange[] = [...STREAMS, ...IN_STREAM_ERRORS].filter(
  (ex, i, all) => all.findIndex((other) => other.body === ex.body) === i,
);

describe.concurrent("recorded generate streams, cut and re-framed", { timeout: 60_000 }, () => {
  it.each(DISTINCT.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    const recorded = expectedEvents(ex.body);
    const random = prng(ex.id);
    await withServer(async (server) => {
      for (const variant of variants(ex.body)) {
        const expected = variant.text.includes(MULTI_BYTE) ? expectedEvents(variant.text) : recorded;
        if (variant.text.includes(MULTI_BYTE) && recorded.events.length > 0) {
          // The inserted text is really there: the variant is not the recorded stream again.
          expect(expected.events).not.toStrictEqual(recorded.events);
          expect(expected.events).toHaveLength(recorded.events.length);
        }
        const bytes = utf8(variant.text);
        const maxPiece = Math.min(256, Math.max(4, Math.round(bytes.length / 100)));
        const awkward = awkwardCuts(bytes);
        const plans = [[...sample(awkward, 150), ...randomCuts(bytes.length, maxPiece, random)]];
        // One byte at a time for the short ones, in the framing with the most to split.
        if (bytes.length <= 400 && variant.name === "multi-byte text, CRLF")
          plans.push(Array.from({ length: bytes.length }, (_, i) => i));
        for (const cuts of plans) await replayGenerateCut(server, ex, cut(bytes, cuts), expected);
      }
    });
  });
});
