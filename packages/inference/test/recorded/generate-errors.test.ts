import { describe, expect, it } from "vitest";
import { type HttpError, InferenceClient } from "../../dist/index.js";
import { entries, isModelRoot, title } from "./catalog";
import type { Exchange } from "./fixtures";
import {
  expectedGenerateBody,
  expectGenerateRequest,
  generateArgs,
  generateRoute,
  recordedGenerateRequest,
  ROUTE_KINDS,
} from "./generate";
import { quietLogger, TOKEN } from "./plan";
import { parseLoose } from "./reference";
import { drain, expectHttpError, recordedRequestId, within } from "./run";
import { recordedReply, withServer } from "./server";

/**
 * Every recorded error answer to a `generate` request: the transformers pipeline's 400 on unused
 * `model_kwargs` (the `generate-error` group), and TGI's 422 validation errors of `generate` (the
 * `route-error` group, also replayed on the chat route). `textGeneration` and `textGenerationStream`
 * throw the typed error of the table, with the status, body and request id as recorded, naming the
 * URL that answered; a 4xx is never retried, and the token is nowhere in the error.
 */

const GENERATE_ERRORS = entries("generate-error");
const ON_GENERATE_ROUTE = entries("route-error").filter((ex) => isModelRoot(new URL(ex.url).pathname));

async function expectGenerateError(ex: Exchange, stream: boolean): Promise<void> {
  const { request } = recordedGenerateRequest(ex);
  await withServer(async (server) => {
    server.reply(recordedReply(ex));
    for (const kind of ROUTE_KINDS) {
      const route = generateRoute(ex, server.origin, kind);
      const before = server.requests.length;
      const client = new InferenceClient(TOKEN, { ...route.options, logger: quietLogger() });
      const args = generateArgs(request, route, true);
      let error: unknown;
      if (stream) {
        const got = await within(drain(client.textGenerationStream(args)), 10_000, `${title(ex)} (${kind})`);
        expect(got.chunks).toStrictEqual([]);
        error = got.error;
      } else {
        error = await within(
          client.textGeneration(args).then(
            (answer) => new Error(`expected an error, got an answer: ${JSON.stringify(answer).slice(0, 200)}`),
            (e: unknown) => e,
          ),
          10_000,
          `${title(ex)} (${kind})`,
        );
      }
      expectHttpError(error, { status: ex.status, body: parseLoose(ex.body), requestId: recordedRequestId(ex) });
      // Asked once: a 4xx is final, and this 400 is not the pipeline's "stream is not supported".
      expect(server.requests, "an error that must not be retried was retried").toHaveLength(before + 1);
      expectGenerateRequest(server.requests[before], route.path, expectedGenerateBody(request, stream, true));
      expect(new URL((error as HttpError).url).href).toBe(new URL(route.path, server.origin).href);
      expect((error as HttpError).httpRequest.method).toBe("POST");
    }
  });
}

describe("the recorded generate errors", () => {
  it("are the pipeline's 400s on unused `model_kwargs`, and TGI's 422s", () => {
    expect(GENERATE_ERRORS.length).toBeGreaterThan(0);
    for (const ex of GENERATE_ERRORS) {
      expect(ex.status, title(ex)).toBe(400);
      expect(ex.body, title(ex)).toMatch(/The following `model_kwargs` are not used by the model/);
    }
    expect(ON_GENERATE_ROUTE.length).toBeGreaterThan(0);
    for (const ex of ON_GENERATE_ROUTE)
      expect((parseLoose(ex.body) as { error_type?: unknown }).error_type, title(ex)).toBe("validation");
  });
});

describe.concurrent("recorded generate errors through textGeneration", { timeout: 20_000 }, () => {
  it.each([...GENERATE_ERRORS, ...ON_GENERATE_ROUTE].map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    await expectGenerateError(ex, false);
  });
});

describe.concurrent(
  "recorded generate errors through textGenerationStream (an HTTP error to a stream request)",
  { timeout: 20_000 },
  () => {
    it.each([...GENERATE_ERRORS, ...ON_GENERATE_ROUTE].map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
      await expectGenerateError(ex, true);
    });
  },
);
