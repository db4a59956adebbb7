import { describe, expect, it } from "vitest";
import { chatCompletion, chatCompletionStream, type HttpError, InferenceClient, InputError } from "../../dist/index.js";
import { entries, title } from "./catalog";
import { type Exchange, requestJson } from "./fixtures";
import { argsFrom, expectRequest, planCall, quietLogger, TOKEN } from "./plan";
import { parseLoose, serverMessage } from "./reference";
import { drain, expectHttpError, expectNoToken, recordedRequestId, within } from "./run";
import { recordedReply, type ReplayServer, withServer } from "./server";

/**
 * Every recorded error answer: the typed error of the table, with the status, body and request id
 * as recorded, never retried (4xx), and no trace of the access token anywhere in it.
 */

/** The call the recorded client made: a stream when its request asked for one. */
const wantsStream = (ex: Exchange): boolean => requestJson(ex)?.stream === true;

/**
 * Runs the planned call against the recorded error and returns what it threw. 5xx answers would be
 * retried: one try is enough here. `backend: "tgi"` keeps the chat route (the recorded 500 is the
 * first step of the non-TGI fallback, which an explicit backend turns off).
 */
async function failingCall(
  server: ReplayServer,
  ex: Exchange,
): Promise<{ error: unknown; path: string; body: unknown; pipelinePath: string }> {
  const stream = wantsStream(ex);
  const plan = planCall(ex, server, stream);
  const options = {
    ...plan.route.options,
    logger: quietLogger(),
    ...(ex.status >= 500 ? { maxRetries: 0, backend: "tgi" as const } : {}),
  };
  let error: unknown;
  if (stream) {
    const got = await within(
      drain(chatCompletionStream({ ...plan.args, accessToken: TOKEN }, options)),
      10_000,
      title(ex),
    );
    expect(got.chunks).toStrictEqual([]);
    error = got.error;
  } else {
    error = await within(
      new InferenceClient(TOKEN, options).chatCompletion(plan.args).then(
        (answer) => new Error(`expected an error, got an answer: ${JSON.stringify(answer).slice(0, 200)}`),
        (e: unknown) => e,
      ),
      10_000,
      title(ex),
    );
  }
  // Where the pipeline answers: `{base}/models/{id}`, or an endpoint's root (ARCHITECTURE.md, "Backends").
  const pipelinePath = plan.route.path.replace(/(\/v1)?\/chat\/completions$/, "") || "/";
  return { error, path: plan.route.path, body: plan.body, pipelinePath };
}

/**
 * The recorded "not TGI" answers of a chat route (BACKENDS.md): a 500 `unknown error` with
 * `warnings` and no `error_type`, a 400 "wrong format" / "not supported", a 404 that is not
 * "Model X does not exist". On those the SDK tries the transformers pipeline once.
 */
function isNotTgiAnswer(ex: Exchange): boolean {
  const body = parseLoose(ex.body) as { error?: unknown; error_type?: unknown; warnings?: unknown } | string;
  const message = serverMessage(body) ?? "";
  if (ex.status === 500)
    return (
      typeof body === "object" &&
      body.error_type === undefined &&
      /unknown error/i.test(message) &&
      Array.isArray(body.warnings)
    );
  if (ex.status === 400) return /wrong format|not supported/i.test(message);
  if (ex.status === 404) return !/does not exist/i.test(message);
  return false;
}

async function expectRecordedError(ex: Exchange): Promise<void> {
  await withServer(async (server) => {
    server.reply(recordedReply(ex));
    const { error, path, body, pipelinePath } = await failingCall(server, ex);
    expectHttpError(error, { status: ex.status, body: parseLoose(ex.body), requestId: recordedRequestId(ex) });
    // The error names the URL that answered it (the last request), and the request it answered.
    const last = server.requests[server.requests.length - 1];
    expect(new URL((error as HttpError).url).href).toBe(new URL(last?.path ?? "", server.origin).href);
    expect((error as HttpError).httpRequest.method).toBe("POST");
    expectRequest(server.requests[0], path, body as Record<string, unknown>);
    const [, ...more] = server.requests;
    if (ex.status < 500 && isNotTgiAnswer(ex)) {
      // Detection: the pipeline was tried once (it answered the same bytes), and the error says so.
      expect(more).toHaveLength(1);
      expect(more[0]?.path).toBe(pipelinePath);
      const sent = JSON.parse(more[0]?.body ?? "{}") as { inputs?: unknown };
      expect(sent.inputs).toStrictEqual((body as { messages?: unknown } | undefined)?.messages);
      expect((error as Error).message).toMatch(/chat route had answered HTTP \d+/);
    } else if (ex.status === 421) {
      // Node's fetch (undici) itself re-sends a request answered 421 Misdirected Request, once.
      expect(more.length).toBeLessThanOrEqual(1);
      for (const again of more) expect(again.body).toBe(server.requests[0]?.body);
    } else {
      expect(more, "an error that must not be retried was retried").toHaveLength(0);
    }
  });
}

const CHAT_ERRORS = entries("chat-error");

describe.concurrent("recorded error answers to chat requests", { timeout: 20_000 }, () => {
  it.each(CHAT_ERRORS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    await expectRecordedError(ex);
  });
});

/**
 * Some recorded requests are not valid chat requests (no `messages`, or `messages` a string): the
 * SDK refuses them with an InputError before sending anything. Their recorded answers are replayed
 * above to the nearest valid request.
 */
const REFUSED = CHAT_ERRORS.filter((ex) => !Array.isArray(requestJson(ex)?.messages));

describe.concurrent(
  "recorded requests the server rejected for their `messages`: refused before sending",
  { timeout: 20_000 },
  () => {
    it("there are some", () => {
      expect(REFUSED.length).toBeGreaterThan(0);
    });

    it.each(REFUSED.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
      await withServer(async (server) => {
        server.reply(recordedReply(ex));
        const plan = planCall(ex, server, wantsStream(ex));
        expect(plan.rewritten).toBe(true);
        const recorded = requestJson(ex) ?? {};
        const args = { ...argsFrom(recorded, true), accessToken: TOKEN };
        const options = { ...plan.route.options, logger: quietLogger() };
        const error = wantsStream(ex)
          ? (await drain(chatCompletionStream(args, options))).error
          : await chatCompletion(args, options).then(
              () => undefined,
              (e: unknown) => e,
            );
        expect(error).toBeInstanceOf(InputError);
        expect((error as InputError).field).toBe("messages");
        expectNoToken(error);
        expect(server.requests).toHaveLength(0);
      });
    });
  },
);

/**
 * Error answers recorded on other routes (TGI's generate 422 with `error_type: validation`, an
 * OpenAI-compatible 400): the same bytes answering a chat request must map the same way.
 */
describe.concurrent("recorded error answers of other routes, to a chat request", { timeout: 20_000 }, () => {
  it.each(entries("route-error").map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    await expectRecordedError(ex);
  });
});
