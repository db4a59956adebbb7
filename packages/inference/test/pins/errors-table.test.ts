/**
 * The one error table, row by row, through real HTTP on loopback: each `error_type` and known message
 * before the status, each status after; the status an in-stream error stands for; the message as the server
 * said it (every body shape read), its hints, and where it came from: `(HTTP 503 from provider P, request id
 * R)` or `(inside the stream…)`; the provider and request id headers kept, cut and redacted.
 */
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  HttpError,
  InferenceClientRoutingError,
  ModelLoadingError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  ValidationError,
} from "../../src/index";
import { toHttpError } from "../../src/core/errorTable";
import { whole } from "../faults/raw-server";
import { consume, within } from "../faults/support";
import { clientOn, QUESTION, SECRET, useRawServer } from "./stream-support";

const raw = useRawServer();
type Cls = abstract new (...a: never[]) => HttpError;

/** The error of a chat call answered `status` with `body` (JSON unless a string), no retry. */
async function overHttp(status: number, body: unknown, headers: Array<[string, string]> = []): Promise<HttpError> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  raw().handle((_req, reply) =>
    whole(reply, status, typeof body === "string" ? "text/plain" : "application/json", text, headers),
  );
  const error = await clientOn(raw(), { retry_on_error: false })
    .chatCompletion({ messages: QUESTION })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

/** The error of a chat stream whose one event is `body`, no retry. */
async function inStream(body: unknown, headers: Array<[string, string]> = []): Promise<HttpError> {
  raw().handle((_req, reply) => whole(reply, 200, "text/event-stream", `data: ${JSON.stringify(body)}\n\n`, headers));
  const run = await within(
    consume(clientOn(raw(), { retry_on_error: false }).chatCompletionStream({ messages: QUESTION })),
  );
  expect(run.error).toBeInstanceOf(HttpError);
  return run.error as HttpError;
}

const expectExactly = (error: HttpError, Class: Cls, status: number): void => {
  expect(error.constructor).toBe(Class);
  expect(error.status).toBe(status);
};

describe("classes over HTTP: error_type and known messages first, whatever the status", () => {
  it.each<[string, number, unknown, Cls]>([
    ["validation labelled 500", 500, { error: "x", error_type: "validation" }, ValidationError],
    ["template_error labelled 500", 500, { error: "x", error_type: "template_error" }, ValidationError],
    ["tool_error labelled 500", 500, { error: "x", error_type: "tool_error" }, ValidationError],
    [
      "missing_template_variable labelled 500",
      500,
      { error: "x", error_type: "missing_template_variable" },
      ValidationError,
    ],
    ["overloaded labelled 422", 422, { error: "x", error_type: "overloaded" }, RateLimitError],
    ["generation labelled 400", 400, { error: "x", error_type: "generation" }, ServerError],
    ["incomplete_generation labelled 400", 400, { error: "x", error_type: "incomplete_generation" }, ServerError],
    [
      "incomplete_generation_stream labelled 400",
      400,
      { error: "x", error_type: "incomplete_generation_stream" },
      ServerError,
    ],
    ["OpenAI's error.type", 400, { error: { message: "x", type: "overloaded" } }, RateLimitError],
    [
      "the root error_type over error.type",
      500,
      { error: { message: "x", type: "overloaded" }, error_type: "validation" },
      ValidationError,
    ],
    ["an unknown error_type: by status", 429, { error: "x", error_type: "weird" }, RateLimitError],
    [
      "an error.type that is not a string: by status",
      500,
      { error: { message: "x", type: ["validation"] } },
      ServerError,
    ],
    ["'Model is overloaded' labelled 500", 500, { error: "Model is overloaded" }, RateLimitError],
    ["'MODEL IS OVERLOADED' labelled 422", 422, { error: "MODEL IS OVERLOADED" }, RateLimitError],
    [
      "'currently loading' labelled 500, no estimate",
      500,
      { error: "Model o/m is Currently Loading" },
      ModelLoadingError,
    ],
    ["503 with estimated_time 0", 503, { error: "x", estimated_time: 0 }, ModelLoadingError],
    ["503 with a negative estimated_time", 503, { error: "x", estimated_time: -1 }, ServerError],
    ["503 with estimated_time as a string", 503, { error: "x", estimated_time: "20" }, ServerError],
    ["404 with estimated_time", 404, { error: "x", estimated_time: 5 }, NotFoundError],
  ])("%s", async (_name, status, body, Class) => {
    expectExactly(await overHttp(status, body), Class, status);
  });

  it("a loading error keeps estimatedTime in seconds, 0 included", async () => {
    expect(
      ((await overHttp(503, { error: "Model o/m is currently loading", estimated_time: 39.5 })) as ModelLoadingError)
        .estimatedTime,
    ).toBe(39.5);
    expect(((await overHttp(503, { error: "x", estimated_time: 0 })) as ModelLoadingError).estimatedTime).toBe(0);
  });
});

describe("classes over HTTP by status", () => {
  it.each<[number, Cls]>([
    [400, ValidationError],
    [401, AuthenticationError],
    [402, HttpError],
    [403, PermissionError],
    [404, NotFoundError],
    [418, HttpError],
    [422, ValidationError],
    [429, RateLimitError],
    [499, HttpError],
    [500, ServerError],
    [503, ServerError],
    [599, ServerError],
  ])("%i", async (status, Class) => {
    expectExactly(await overHttp(status, { error: "x" }), Class, status);
  });
});

describe("inside a stream: the status each error stands for", () => {
  it.each<[string, unknown, Cls, number]>([
    ["validation", { error: "x", error_type: "validation" }, ValidationError, 422],
    ["template_error", { error: "x", error_type: "template_error" }, ValidationError, 422],
    ["tool_error", { error: "x", error_type: "tool_error" }, ValidationError, 422],
    ["missing_template_variable", { error: "x", error_type: "missing_template_variable" }, ValidationError, 422],
    ["overloaded", { error: "x", error_type: "overloaded" }, RateLimitError, 429],
    ["generation", { error: "x", error_type: "generation" }, ServerError, 424],
    ["incomplete_generation", { error: "x", error_type: "incomplete_generation" }, ServerError, 500],
    ["incomplete_generation_stream", { error: "x", error_type: "incomplete_generation_stream" }, ServerError, 500],
    ["an unknown error_type", { error: "x", error_type: "weird" }, ServerError, 500],
    ["an unknown error", { error: "x" }, ServerError, 500],
    ["TGI's http_status_code", { error: { message: "x", http_status_code: 404 } }, NotFoundError, 404],
    ["vLLM's numeric code", { error: { message: "x", code: 429 } }, RateLimitError, 429],
    ["http_status_code over code", { error: { message: "x", http_status_code: 422, code: 500 } }, ValidationError, 422],
    ["code 400, the first error status", { error: { message: "x", code: 400 } }, ValidationError, 400],
    ["code 599, the last", { error: { message: "x", code: 599 } }, ServerError, 599],
    ["code 399: not a status", { error: { message: "x", code: 399 } }, ServerError, 500],
    ["code 600: not a status", { error: { message: "x", code: 600 } }, ServerError, 500],
    ["code as a string: not a status", { error: { message: "x", code: "429" } }, ServerError, 500],
    ["'currently loading'", { error: "Model o/m is currently loading" }, ModelLoadingError, 500],
    [
      "a status no class has: still a ServerError in a stream",
      { error: { message: "x", http_status_code: 418 } },
      ServerError,
      418,
    ],
  ])("%s", async (_name, body, Class, status) => {
    const error = await inStream(body);
    expectExactly(error, Class, status);
    expect(error.httpResponse.status).toBe(200);
    expect(error.message).toMatch(/ \(inside the stream\)$/);
  });
});

describe("the message: what the server said, and where from", () => {
  it.each<[string, number, unknown, string]>([
    ["a string error", 500, { error: "boom" }, "boom (HTTP 500)"],
    ["a list of errors", 400, { error: ["a", "b"] }, "a; b (HTTP 400)"],
    ["an error object without a message", 500, { error: { code: "E1" } }, '{"code":"E1"} (HTTP 500)'],
    ["error before message", 500, { error: "e", message: "m" }, "e (HTTP 500)"],
    ["a message", 500, { message: "plain" }, "plain (HTTP 500)"],
    ["a message beside a null error", 500, { error: null, message: "plain" }, "plain (HTTP 500)"],
    ["FastAPI's detail as a string", 404, { detail: "Not Found" }, "Not Found (HTTP 404)"],
    ["FastAPI's detail as an object", 422, { detail: { a: 1 } }, '{"a":1} (HTTP 422)'],
    [
      "FastAPI's detail as a list",
      422,
      { detail: [{ loc: ["body", "top_p"], msg: "bad" }, { msg: "other" }, { x: 1 }, null] },
      'body.top_p: bad; other; {"x":1}; null (HTTP 422)',
    ],
    ["text, trimmed", 502, "  upstream timeout \n", "upstream timeout (HTTP 502)"],
    ["nothing", 500, "", "The server answered HTTP 500 (HTTP 500)"],
    ["an empty object", 429, {}, "The server answered HTTP 429 (HTTP 429)"],
  ])("%s", async (_name, status, body, message) => {
    expect((await overHttp(status, body)).message).toBe(message);
  });

  it("text is cut to its first 500 characters", async () => {
    const error = await overHttp(502, `${"a".repeat(500)}TAIL`);
    expect(error.message).toBe(`${"a".repeat(500)} (HTTP 502)`);
  });

  it("the request id and the provider: `(HTTP 503 from provider P, request id R)`", async () => {
    const headers: Array<[string, string]> = [
      ["X-Request-Id", "rid-1"],
      ["X-Inference-Provider", "together"],
    ];
    const error = await overHttp(503, { error: "down" }, headers);
    expect(error.message).toBe("down (HTTP 503 from provider together, request id rid-1)");
    expect([error.requestId, error.provider, error.httpResponse.requestId]).toEqual(["rid-1", "together", "rid-1"]);
    expect((await overHttp(503, { error: "down" }, headers.slice(0, 1))).message).toBe(
      "down (HTTP 503, request id rid-1)",
    );
    expect((await overHttp(503, { error: "down" }, headers.slice(1))).message).toBe(
      "down (HTTP 503 from provider together)",
    );
    expect((await inStream({ error: "late" }, headers)).message).toBe(
      "late (inside the stream from provider together, request id rid-1)",
    );
  });

  it("a provider header is cut to 64 characters and redacted; a request id is redacted", async () => {
    const long = await overHttp(500, { error: "x" }, [["X-Inference-Provider", "p".repeat(100)]]);
    expect(long.provider).toBe("p".repeat(64));
    expect(long.message).toBe(`x (HTTP 500 from provider ${"p".repeat(64)})`);
    const echo = await overHttp(500, { error: "x" }, [
      ["X-Inference-Provider", `p-${SECRET}`],
      ["X-Request-Id", `r-${SECRET}`],
    ]);
    expect([echo.provider, echo.requestId]).toEqual(["p-[redacted]", "r-[redacted]"]);
    expect(echo.message).toBe("x (HTTP 500 from provider p-[redacted], request id r-[redacted])");
  });

  it("the URL kept on the error has its credential parameters redacted", async () => {
    raw().handle((_req, reply) => whole(reply, 500, "application/json", JSON.stringify({ error: "x" })));
    const c = clientOn(raw(), { endpointUrl: `${raw().url}/v1?api_key=${SECRET}`, retry_on_error: false });
    const error = (await c.chatCompletion({ messages: QUESTION }).catch((e: unknown) => e)) as HttpError;
    expect(raw().requests[0]?.target).toContain(SECRET);
    expect(error.url).toContain("?api_key=[redacted]");
    expect(error.url).not.toContain(SECRET);
    expect(error.httpRequest.url).toBe(error.url);
  });

  it("the request body kept on the error has the token redacted", async () => {
    raw().handle((_req, reply) => whole(reply, 400, "application/json", JSON.stringify({ error: "x" })));
    const messages = [{ role: "user", content: `my token is ${SECRET}` }];
    const error = (await clientOn(raw())
      .chatCompletion({ messages })
      .catch((e: unknown) => e)) as HttpError;
    expect(raw().requests[0]?.body).toContain(SECRET);
    expect(JSON.stringify(error.httpRequest.body)).not.toContain(SECRET);
    expect(error.httpRequest.body).toMatchObject({ messages: [{ role: "user", content: "my token is [redacted]" }] });
  });
});

describe("hints", () => {
  const TOO_LARGE = " The serverless API will not load it: use a dedicated Inference Endpoint or another provider.";
  const NO_PROVIDER =
    " Enable a provider that serves it at https://huggingface.co/settings/inference-providers, or name one as `provider` or a `:provider` suffix.";

  it("a 403 'too large' (any case) says where to go; 'too large' with another status does not", async () => {
    expect((await overHttp(403, { error: "The model o/m is TOO LARGE to be loaded." })).message).toBe(
      `The model o/m is TOO LARGE to be loaded.${TOO_LARGE} (HTTP 403)`,
    );
    expect((await overHttp(400, { error: "Input too large" })).message).toBe("Input too large (HTTP 400)");
  });

  it("'not supported by any provider': a routing error that says how to enable one", async () => {
    const error = await overHttp(400, {
      error: "The requested model 'o/m' is not supported by any provider you have enabled.",
    });
    expect(error.message).toBe(
      `The requested model 'o/m' is not supported by any provider you have enabled.${NO_PROVIDER} (HTTP 400)`,
    );
    expect(error).toBeInstanceOf(InferenceClientRoutingError);
  });

  it("'not supported by provider X': a routing error, no hint; 'not supported' alone: neither", async () => {
    const named = await overHttp(400, { error: "Model NOT SUPPORTED BY PROVIDER together" });
    expect(named).toBeInstanceOf(InferenceClientRoutingError);
    expect(named.message).toBe("Model NOT SUPPORTED BY PROVIDER together (HTTP 400)");
    const plain = await overHttp(400, { error: "Parameter not supported" });
    expect(plain).not.toBeInstanceOf(InferenceClientRoutingError);
  });
});

describe("the table redacts on its own, before any caller seals the error", () => {
  it("the request body, the error body, the request id and the provider: no token in any", () => {
    const error = toHttpError({
      status: 400,
      body: { error: `bad key ${SECRET}` },
      url: "http://x.test/v1/chat/completions",
      requestId: `r-${SECRET}`,
      provider: `p-${SECRET}`,
      requestBody: { messages: [{ role: "user", content: `my token is ${SECRET}` }] },
      secret: SECRET,
    });
    expect(error.httpRequest.body).toEqual({ messages: [{ role: "user", content: "my token is [redacted]" }] });
    expect(error.body).toEqual({ error: "bad key [redacted]" });
    expect([error.requestId, error.provider]).toEqual(["r-[redacted]", "p-[redacted]"]);
    expect(error.message).toBe("bad key [redacted] (HTTP 400 from provider p-[redacted], request id r-[redacted])");
  });
});

describe("bodies no server answer parses to (the table is also called by provider code)", () => {
  it.each([null, undefined, 42, true])("%s: no throw, the status said", (body) => {
    const error = toHttpError({ status: 502, body, url: "http://x.test/v1/chat/completions" });
    expectExactly(error, ServerError, 502);
    expect(error.message).toBe("The server answered HTTP 502 (HTTP 502)");
  });
});
