import { describe, expect, it } from "vitest";
import { InferenceClient, textGenerationStream } from "../../dist/index.js";
import { entries } from "./catalog";
import { ALL_EXCHANGES, type Exchange } from "./fixtures";
import {
  expectedGenerateBody,
  expectGenerateRequest,
  generateArgs,
  generateRoute,
  recordedGenerateRequest,
  recordedOutput,
} from "./generate";
import { quietLogger, TOKEN } from "./plan";
import { parseLoose } from "./reference";
import { drain, expectHttpError, recordedRequestId, within } from "./run";
import { type Reply, recordedReply, type ReplayServer, type SeenRequest, withServer } from "./server";

/**
 * `textGenerationStream` on a model the transformers pipeline serves (huggingface_hub, gpt2, no TGI):
 * the pipeline cannot stream and answers a stream request 400 "`stream` is not supported"
 * (BACKENDS.md; no recording holds that answer, so it is the documented body). The SDK then asks
 * once more without `stream`, yields the recorded answer as one final event, and remembers the
 * backend. In a file of its own: the backend memory is per process.
 */

const CASSETTE = "TestTextGenerationClientVCR.test_generate_non_tgi_endpoint.yaml#";
const steps = ALL_EXCHANGES.filter((ex) => ex.id.startsWith(CASSETTE));

/** The pipeline's answer to a stream request, as BACKENDS.md gives it. */
const STREAM_NOT_SUPPORTED: Reply = {
  status: 400,
  statusText: "Bad Request",
  headers: [["content-type", ["application/json"]]],
  pieces: [new TextEncoder().encode('{"error":["Error in `stream`: `stream` is not supported for this model"]}')],
};

/** The pipeline: a stream request is refused; any other gets `answer`. */
function pipeline(server: ReplayServer, answer: Exchange): void {
  server.reply((req: SeenRequest) =>
    (JSON.parse(req.body) as { stream?: unknown }).stream === true ? STREAM_NOT_SUPPORTED : recordedReply(answer),
  );
}

describe("textGenerationStream on a recorded transformers-pipeline model", { timeout: 20_000 }, () => {
  const [, refused, answered] = steps as [Exchange, Exchange, Exchange];

  it("is recorded: a 400 on unused `model_kwargs`, then the answers", () => {
    expect(steps.map((ex) => ex.status)).toStrictEqual([200, 400, 200, 200, 200]);
    expect(entries("generate-error")).toContain(refused);
    expect(entries("generate-answer")).toContain(answered);
  });

  it("falls back to one non-streamed call, yields its answer as one final event, then goes straight to the pipeline", async () => {
    const { request } = recordedGenerateRequest(answered);
    const output = recordedOutput(answered);
    await withServer(async (server) => {
      pipeline(server, answered);
      const route = generateRoute(answered, server.origin, "baseUrl");
      const logger = quietLogger();
      const client = new InferenceClient(TOKEN, { ...route.options, logger });
      const args = generateArgs(request, route, true);
      for (const call of [1, 2]) {
        const got = await within(drain(client.textGenerationStream(args)), 10_000, `stream call ${call}`);
        if (got.error) throw got.error;
        expect(got.chunks).toHaveLength(1);
        const event = got.chunks[0] as Record<string, unknown>;
        expect(event.generated_text).toBe(output.generated_text);
        expect(event.details ?? null).toStrictEqual(output.details ?? null);
      }
      // The first call: the stream request, refused, then the same without `stream`; the second: the pipeline at once.
      expect(server.requests).toHaveLength(3);
      expectGenerateRequest(server.requests[0], route.path, expectedGenerateBody(request, true, true));
      expectGenerateRequest(server.requests[1], route.path, expectedGenerateBody(request, false, true));
      expectGenerateRequest(server.requests[2], route.path, expectedGenerateBody(request, false, true));
      expect(await within(client.textGeneration(args), 10_000, "textGeneration")).toStrictEqual(output);
      expect(server.requests).toHaveLength(4);
      expectGenerateRequest(server.requests[3], route.path, expectedGenerateBody(request, false, true));
    });
  });

  it("an error of the non-streamed call is the error, typed; nothing is remembered", async () => {
    const { request } = recordedGenerateRequest(refused);
    await withServer(async (server) => {
      pipeline(server, refused);
      const route = generateRoute(refused, server.origin, "baseUrl");
      const args = { ...generateArgs(request, route, true), accessToken: TOKEN };
      for (const call of [1, 2]) {
        const got = await within(
          drain(textGenerationStream(args, { ...route.options, logger: quietLogger() })),
          10_000,
          `call ${call}`,
        );
        expect(got.chunks).toStrictEqual([]);
        expectHttpError(got.error, {
          status: 400,
          body: parseLoose(refused.body),
          requestId: recordedRequestId(refused),
        });
      }
      // Each call: the stream request, then the same without `stream`; a failed fallback is not remembered.
      expect(server.requests).toHaveLength(4);
      for (const [i, stream] of [true, false, true, false].entries()) {
        expectGenerateRequest(server.requests[i], route.path, expectedGenerateBody(request, stream, true));
      }
    });
  });
});
