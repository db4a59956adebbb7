import { describe, expect, it } from "vitest";
import { InferenceClient, TimeoutError, textGeneration, textGenerationStream } from "../../dist/index.js";
import { entries, title } from "./catalog";
import type { Exchange } from "./fixtures";
import {
  expectedGenerateBody,
  expectedGenerateOutput,
  expectGenerateRequest,
  generateArgs,
  generateRoute,
  recordedGenerateRequest,
  recordedOutput,
  ROUTE_KINDS,
} from "./generate";
import { quietLogger, TOKEN } from "./plan";
import { drain, recordedRequestId, within } from "./run";
import { Pacer, pacedFetch, recordedReply, withServer } from "./server";
import { awkwardCuts, cut, utf8 } from "./splits";

/**
 * Every recorded `generate` answer (`[{generated_text, details?}]`, TGI's or the transformers
 * pipeline's): `textGeneration` sends the recorded request to the recorded path and resolves to the
 * first element of the recorded array, exactly; `textGenerationStream` given the same JSON answer
 * yields it as one final event.
 */

type Json = Record<string, unknown>;

const ANSWERS = entries("generate-answer");
const cases = ANSWERS.map((ex) => [title(ex), ex] as const);

/**
 * A call not settled by then waits on the default idleTimeout (60 s): it hangs. Everything right ends within
 * a grace (2 s at most) or the short idleTimeout a test sets; how much sooner is the machine's speed, not checked.
 */
const HANG_BOUND_MS = 15_000;

describe.concurrent("recorded generate answers through textGeneration", { timeout: 20_000 }, () => {
  it.each(cases)("%s", async (_, ex) => {
    const { request } = recordedGenerateRequest(ex);
    await withServer(async (server) => {
      server.reply(recordedReply(ex));
      // The hf-inference route (`baseUrl` + `model`), then the same root as a dedicated endpoint.
      for (const kind of ROUTE_KINDS) {
        const route = generateRoute(ex, server.origin, kind);
        const before = server.requests.length;
        const ids: Array<string | undefined> = [];
        const client = new InferenceClient(TOKEN, {
          ...route.options,
          logger: quietLogger(),
          onResponse: (info) => void ids.push(info.requestId),
        });
        const answer = await within(
          client.textGeneration(generateArgs(request, route, true)),
          10_000,
          `${title(ex)} (${kind})`,
        );

        expect(answer, kind).toStrictEqual(expectedGenerateOutput(ex, request));
        expect(ids).toStrictEqual([recordedRequestId(ex)]);
        expect(server.requests).toHaveLength(before + 1);
        expectGenerateRequest(server.requests[before], route.path, expectedGenerateBody(request, false, true));
      }
    });
  });
});

/**
 * huggingface_hub sends every unset parameter as `null`, and the servers took those requests (the
 * answers are 2xx). Code that passes such arguments on gets the same answers: a null parameter is an
 * unset one, never an InputError.
 */
const WITH_NULLS = ANSWERS.filter((ex) => {
  const { request, recorded } = recordedGenerateRequest(ex);
  return recorded && Object.values((request.parameters ?? {}) as Json).some((v) => v === null);
});

describe.concurrent(
  "recorded generate requests with null parameters (huggingface_hub), sent as recorded",
  { timeout: 20_000 },
  () => {
    it("there are some", () => {
      expect(WITH_NULLS.length).toBeGreaterThan(0);
    });

    it.each(WITH_NULLS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
      const { request } = recordedGenerateRequest(ex);
      await withServer(async (server) => {
        server.reply(recordedReply(ex));
        const route = generateRoute(ex, server.origin, "baseUrl");
        const args = generateArgs(request, route, false);
        const answer = await within(
          textGeneration({ ...args, accessToken: TOKEN }, { ...route.options, logger: quietLogger() }),
          10_000,
          title(ex),
        );
        expect(answer).toStrictEqual(expectedGenerateOutput(ex, request));
        expect(server.requests).toHaveLength(1);
        expectGenerateRequest(server.requests[0], route.path, expectedGenerateBody(request, false, false), true);
      });
    });
  },
);

/** The one event a whole answer gives as a stream: final (`generated_text` set), with the answer's details. */
function expectAnswerAsEvent(events: unknown[], output: Json): void {
  expect(events).toHaveLength(1);
  const event = events[0] as Json;
  expect(event.generated_text).toBe(output.generated_text);
  expect(event.details ?? null).toStrictEqual(output.details ?? null);
  expect((event.token as Json | undefined)?.text).toBe(output.generated_text);
}

describe.concurrent(
  "recorded generate answers through textGenerationStream (a JSON answer to a stream request)",
  { timeout: 20_000 },
  () => {
    it.each(cases)("%s", async (_, ex) => {
      const { request } = recordedGenerateRequest(ex);
      await withServer(async (server) => {
        server.reply(recordedReply(ex));
        const route = generateRoute(ex, server.origin, "baseUrl");
        const logger = quietLogger();
        const stream = textGenerationStream(
          { ...generateArgs(request, route, true), accessToken: TOKEN },
          { ...route.options, logger },
        );
        const got = await within(drain(stream), 10_000, title(ex));
        if (got.error) throw got.error;
        expectAnswerAsEvent(got.chunks, recordedOutput(ex));
        expect(server.requests).toHaveLength(1);
        expectGenerateRequest(server.requests[0], route.path, expectedGenerateBody(request, true, true));
        expect(logger.messages).toStrictEqual([]);
      });
    });
  },
);

describe.concurrent("recorded generate answers, the server never ending the response", { timeout: 20_000 }, () => {
  /**
   * Framed by a Content-Length and the connection left open (a keep-alive server): the body's end is
   * known, so the call answers at once, with the default limits.
   */
  it.each(cases)("%s, Content-Length, connection kept open", async (_, ex) => {
    const { request } = recordedGenerateRequest(ex);
    await withServer(async (server) => {
      server.reply({ ...recordedReply(ex), keepOpen: true, contentLength: true });
      const route = generateRoute(ex, server.origin, "baseUrl");
      const args = { ...generateArgs(request, route, true), accessToken: TOKEN };
      const options = { ...route.options, logger: quietLogger() };
      const answer = await within(
        textGeneration(args, options),
        HANG_BOUND_MS,
        `${title(ex)}, Content-Length, kept open`,
      );
      expect(answer).toStrictEqual(expectedGenerateOutput(ex, request));
      const got = await within(
        drain(textGenerationStream(args, options)),
        HANG_BOUND_MS,
        `${title(ex)} as a stream, kept open`,
      );
      if (got.error) throw got.error;
      expectAnswerAsEvent(got.chunks, recordedOutput(ex));
      expect(server.requests).toHaveLength(2);
      expectGenerateRequest(server.requests[0], route.path, expectedGenerateBody(request, false, true));
      expectGenerateRequest(server.requests[1], route.path, expectedGenerateBody(request, true, true));
    });
  });

  /**
   * Chunked and never terminated: the body has not ended, so a JSON answer is read under the idle
   * limit (as a chat answer is): with `idleTimeout` set, the call ends within it, with the recorded
   * answer or an idle TimeoutError, and lets go of the connection.
   */
  it.each(cases)("%s, chunked, never terminated", async (_, ex) => {
    const { request } = recordedGenerateRequest(ex);
    await withServer(async (server) => {
      server.reply({ ...recordedReply(ex), keepOpen: true });
      const route = generateRoute(ex, server.origin, "baseUrl");
      const result = await within(
        textGeneration(
          { ...generateArgs(request, route, true), accessToken: TOKEN },
          { ...route.options, idleTimeout: 500, logger: quietLogger() },
        ).then(
          (answer) => ({ answer }),
          (error: unknown) => ({ error }),
        ),
        HANG_BOUND_MS,
        `${title(ex)}, chunked body never ended, idleTimeout 500 ms`,
      );
      if ("error" in result) {
        expect(result.error).toBeInstanceOf(TimeoutError);
        expect((result.error as TimeoutError).kind).toBe("idle");
      } else expect(result.answer).toStrictEqual(recordedOutput(ex));
      await within(
        server.requests[0]?.closed ?? Promise.reject(new Error("no request")),
        HANG_BOUND_MS,
        "socket close",
      );
      expectGenerateRequest(server.requests[0], route.path, expectedGenerateBody(request, false, true));
    });
  });
});

/** The answers with multi-byte text, cut inside each of their characters. */
const MULTI_BYTE: Exchange[] = ANSWERS.filter((ex) => awkwardCuts(utf8(ex.body)).length > 0);

describe("recorded generate answers with multi-byte text, cut inside every character", { timeout: 20_000 }, () => {
  it("there are some", () => {
    expect(MULTI_BYTE.length).toBeGreaterThan(0);
  });

  it.each(MULTI_BYTE.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    const bytes = utf8(ex.body);
    const { request } = recordedGenerateRequest(ex);
    await withServer(async (server) => {
      for (const at of awkwardCuts(bytes)) {
        const pacer = new Pacer();
        server.reply({ ...recordedReply(ex), pieces: cut(bytes, [at]), pacer });
        const route = generateRoute(ex, server.origin, "baseUrl");
        const options = { ...route.options, fetch: pacedFetch(pacer), logger: quietLogger() };
        const answer = await within(
          textGeneration({ ...generateArgs(request, route, true), accessToken: TOKEN }, options),
          10_000,
          `${title(ex)} cut at ${at}`,
        );
        expect(answer).toStrictEqual(recordedOutput(ex));
        expect(pacer.reads[0]).toBe(at);
      }
    });
  });
});

/**
 * No recorded generate request has a parameter the SDK maps; the mappings are checked on a recorded
 * request and answer with those parameters added: what goes on the wire, and the answer unchanged.
 */
describe("documented generate parameter mappings, on a recorded request", { timeout: 20_000 }, () => {
  const ex = ANSWERS.find((e) => {
    const { request, recorded } = recordedGenerateRequest(e);
    return recorded && request.parameters !== undefined;
  });
  /** Added to the recorded parameters, and what must go on the wire instead (besides the recorded ones). */
  const added: Array<[string, Json, Json]> = [
    ["temperature: 0 -> do_sample: false, no temperature", { temperature: 0 }, { do_sample: false }],
    ["top_p: 0 -> do_sample: false, no top_p", { top_p: 0 }, { do_sample: false }],
    ["top_p: 1 -> not sent", { top_p: 1 }, {}],
    ["temperature: 0, top_p: 1 -> do_sample: false only", { temperature: 0, top_p: 1 }, { do_sample: false }],
    [
      "temperature: 0.7, top_p: 0.9 -> sent as given",
      { temperature: 0.7, top_p: 0.9 },
      { temperature: 0.7, top_p: 0.9 },
    ],
  ];

  it("has a recorded request with parameters", () => {
    expect(ex).toBeDefined();
  });

  it.each(added)("%s", async (_, extra, wire) => {
    const recorded = ex as Exchange;
    const { request } = recordedGenerateRequest(recorded);
    const changed = { ...request, parameters: { ...(request.parameters as Json), ...extra } };
    // The recorded parameters (nulls left out) with the documented result of the added ones.
    const recordedParameters = Object.fromEntries(
      Object.entries(request.parameters as Json).filter(([, v]) => v !== null),
    );
    const onWire = { ...recordedParameters, ...wire };
    await withServer(async (server) => {
      server.reply(recordedReply(recorded));
      const route = generateRoute(recorded, server.origin, "baseUrl");
      for (const stream of [false, true]) {
        const before = server.requests.length;
        const args = { ...generateArgs(changed, route, true), accessToken: TOKEN };
        const options = { ...route.options, logger: quietLogger() };
        if (stream) {
          const got = await within(drain(textGenerationStream(args, options)), 10_000, title(recorded));
          if (got.error) throw got.error;
          expectAnswerAsEvent(got.chunks, recordedOutput(recorded));
        } else {
          expect(await within(textGeneration(args, options), 10_000, title(recorded))).toStrictEqual(
            recordedOutput(recorded),
          );
        }
        expectGenerateRequest(server.requests[before], route.path, expectedGenerateBody(changed, stream, true));
        expect(
          (JSON.parse(server.requests[before]?.body ?? "{}") as { parameters?: unknown }).parameters,
        ).toStrictEqual(onWire);
      }
    });
  });
});
