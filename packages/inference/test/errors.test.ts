import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as src from "../src/index";
import {
  AuthenticationError,
  chatCompletion,
  HttpError,
  InferenceClientError,
  InferenceClientHubApiError,
  InferenceClientInputError,
  InferenceClientProviderApiError,
  InferenceClientProviderOutputError,
  InferenceClientRoutingError,
  InferenceError,
  InputError,
  MalformedEventError,
  ModelLoadingError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  ValidationError,
} from "../src/index";
import { toHttpError } from "../src/core/errorTable";
import { json, messages, recordingFetch } from "./helpers";

const TOKEN = "hf_sEcReT_token_123";

const table: Array<[string, number, unknown, Function, boolean?]> = [
  ["TGI validation 422", 422, { error: "Input validation error: x", error_type: "validation" }, ValidationError],
  [
    "template error",
    422,
    { error: "Template error: template not found", error_type: "template_error" },
    ValidationError,
  ],
  ["tool error", 422, { error: "Tool error: x", error_type: "tool_error" }, ValidationError],
  ["missing template variable", 422, { error: "x", error_type: "missing_template_variable" }, ValidationError],
  ["overloaded labelled 422", 422, { error: "Model is overloaded", error_type: "overloaded" }, RateLimitError],
  ["overloaded by message only", 422, { error: "Model is overloaded" }, RateLimitError],
  ["generation 424", 424, { error: "Request failed during generation", error_type: "generation" }, ServerError],
  ["incomplete generation", 500, { error: "x", error_type: "incomplete_generation" }, ServerError],
  ["loading 503", 503, { error: "Model o/m is currently loading", estimated_time: 39.5 }, ModelLoadingError],
  ["plain 503", 503, { error: "Service Unavailable" }, ServerError],
  ["400", 400, { error: "bad" }, ValidationError],
  ["401", 401, { error: "Invalid credentials in Authorization header" }, AuthenticationError],
  ["403", 403, { error: "forbidden" }, PermissionError],
  ["404", 404, { error: "Model o/m does not exist" }, NotFoundError],
  ["422 text/plain", 422, "Failed to deserialize the JSON body into the target type", ValidationError],
  ["429", 429, { error: "Rate limit reached." }, RateLimitError],
  ["502", 502, "<html>Bad gateway</html>", ServerError],
  ["418", 418, { error: "teapot" }, HttpError],
  ["FastAPI 422", 422, { detail: [{ loc: ["body", "top_p"], msg: "must be <= 1" }] }, ValidationError],
  ["unknown in-stream", 200, { error: "something" }, ServerError, true],
  ["OpenAI-shaped in-stream", 200, { error: { message: "x", http_status_code: 422 } }, ValidationError, true],
];

describe("one table maps HTTP answers and in-stream errors", () => {
  it.each(table)("%s", (_name, status, body, Cls, inStream) => {
    const e = toHttpError({ status, body, url: "http://x.test", requestId: "r1", inStream });
    expect(e).toBeInstanceOf(Cls);
    expect(e.constructor).toBe(Cls);
    expect(e.body).toEqual(body);
    expect(e.requestId).toBe("r1");
    expect(e.httpResponse).toEqual({ status: inStream ? 200 : e.status, requestId: "r1", body });
  });

  it("FastAPI's detail becomes the message", () => {
    const e = toHttpError({
      status: 422,
      body: { detail: [{ loc: ["body", "top_p"], msg: "must be <= 1" }] },
      url: "u",
    });
    expect(e.message).toContain("body.top_p: must be <= 1");
  });

  it("an error inside a 200 stream: status is what it stands for, httpResponse.status the 200 it came with", () => {
    const e = toHttpError({
      status: 200,
      body: { error: "Input validation error: x", error_type: "validation" },
      url: "u",
      inStream: true,
    });
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.status).toBe(422);
    expect(e.httpResponse.status).toBe(200);
    const plain = toHttpError({ status: 404, body: { error: "Model o/m does not exist" }, url: "u" });
    expect([plain.status, plain.httpResponse.status]).toEqual([404, 404]);
  });

  it("a loading error keeps estimatedTime in seconds", () => {
    const e = toHttpError({
      status: 503,
      body: { error: "Model o/m is currently loading", estimated_time: 39.5 },
      url: "u",
    });
    expect((e as ModelLoadingError).estimatedTime).toBe(39.5);
  });

  it("a 403 'too large' says it is final", () => {
    const e = toHttpError({
      status: 403,
      body: { error: "The model o/m is too large to be loaded automatically (145GB > 10GB)." },
      url: "u",
    });
    expect(e.message).toMatch(/too large.*dedicated Inference Endpoint/);
  });
});

describe("classes", () => {
  it("each name is its class name", () => {
    const names: string[] = [];
    for (const [exported, value] of Object.entries(src)) {
      if (typeof value === "function" && value.prototype instanceof Error && !exported.startsWith("InferenceClient")) {
        const args =
          exported === "TimeoutError"
            ? ["idle", 1]
            : exported === "FailoverError"
              ? ["m", []]
              : exported === "StructuredOutputError"
                ? ["json", { text: "x", choice: 0 }]
                : exported === "ToolError"
                  ? ["timeout", "weather", "m"]
                  : ["m", { status: 1, url: "u", body: null }];
        const made = new (value as new (...a: unknown[]) => Error)(...args);
        expect(made.name, exported).toBe(exported);
        expect(made).toBeInstanceOf(InferenceError);
        names.push(exported);
      }
    }
    expect(names).toHaveLength(18);
  });

  it("the @huggingface/inference classes: their branches taken as in their README, our typed classes kept", () => {
    expect(InferenceClientError).toBe(InferenceError);
    expect(InferenceClientInputError).toBe(InputError);
    const notFound = toHttpError({ status: 404, body: { error: "Model o/m does not exist" }, url: "u" });
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toBeInstanceOf(InferenceClientProviderApiError);
    expect(notFound).not.toBeInstanceOf(InferenceClientHubApiError);
    expect(notFound).not.toBeInstanceOf(InferenceClientRoutingError);
    const hub = new InferenceClientHubApiError("Failed to fetch the provider mapping", {
      status: 500,
      body: "",
      url: "u",
    });
    expect(hub).toBeInstanceOf(HttpError);
    expect(hub).not.toBeInstanceOf(InferenceClientProviderApiError);
    for (const error of [
      "Model not supported by provider together",
      "The requested model 'o/m' is not supported by any provider you have enabled.",
    ]) {
      const routing = toHttpError({ status: 400, body: { error }, url: "u", provider: "together" });
      expect(routing).toBeInstanceOf(ValidationError);
      expect(routing).toBeInstanceOf(InferenceClientRoutingError);
      expect(routing).toBeInstanceOf(InferenceClientProviderApiError);
    }
    const output = new MalformedEventError("Expected a chat completion", "<html>");
    expect(output).toBeInstanceOf(InferenceClientProviderOutputError);
    expect(new InputError("x")).not.toBeInstanceOf(InferenceClientProviderApiError);
  });

  it("instanceof works across the ESM and CommonJS copies of the package", async () => {
    const require = createRequire(import.meta.url);
    const cjs = require("../dist/index.cjs") as typeof src;
    const esm = (await import("../dist/index.js")) as unknown as typeof src;
    const fromCjs = new cjs.ValidationError("x", { status: 422, body: null, url: "u" });
    expect(fromCjs).toBeInstanceOf(esm.ValidationError);
    expect(fromCjs).toBeInstanceOf(esm.HttpError);
    expect(fromCjs).toBeInstanceOf(esm.InferenceError);
    expect(fromCjs).toBeInstanceOf(src.ValidationError);
    expect(fromCjs).not.toBeInstanceOf(esm.RateLimitError);
    expect(new esm.TimeoutError("idle", 5)).toBeInstanceOf(cjs.TimeoutError);
    expect(new esm.InputError("x")).not.toBeInstanceOf(cjs.HttpError);
    expect({ name: "ValidationError" }).not.toBeInstanceOf(esm.ValidationError);
  });
});

describe("the token never leaks", () => {
  it("in an HTTP error's message, string, JSON, request info or cause chain", async () => {
    const { fetch } = recordingFetch(() =>
      json({ error: "Invalid username or password." }, 401, { "x-request-id": "rid-9" }),
    );
    const error = (await chatCompletion(
      { model: "o/m", messages, accessToken: TOKEN },
      { baseUrl: "https://hub.test", fetch },
    ).catch((e: unknown) => e)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.requestId).toBe("rid-9");
    expect(error.httpRequest.headers?.Authorization).toBe("Bearer [redacted]");
    expect(error.url).toBe("https://hub.test/models/o/m/v1/chat/completions");
    const forms = [
      error.message,
      String(error),
      JSON.stringify(error),
      JSON.stringify(error.httpRequest),
      error.stack ?? "",
    ];
    for (let c: unknown = error.cause; c; c = (c as Error).cause) forms.push(String(c), JSON.stringify(c));
    for (const form of forms) {
      expect(form).not.toContain(TOKEN);
    }
  });
});
