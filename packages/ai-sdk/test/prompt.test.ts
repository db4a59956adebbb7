/** The AI SDK's prompt as chat messages (images, tool results), and the error mapping on its own. */
import {
  APICallError,
  InvalidArgumentError,
  InvalidPromptError,
  UnsupportedFunctionalityError,
} from "@ai-sdk/provider";
import { ConnectionError, InputError, MalformedEventError, ModelLoadingError } from "@hfkit/inference";
import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { toAiSdkError } from "../src/index";
import { toolOutputText } from "../src/prompt";
import { lastBody, onHub, QUESTION, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the prompt", () => {
  it("image parts: a URL as it is, bytes as a data: URL; text parts alongside", async () => {
    const result = await within(
      generateText({
        model: onHub(ctx.hub)("hfkit/tgi-3.2"),
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "What is in these?" },
              { type: "image", image: new URL("https://example.com/cat.png") },
              { type: "file", data: PNG, mediaType: "image/png" },
            ],
          },
        ],
      }),
    );
    expect(result.text).toBe(TEXT);
    expect((lastBody(ctx.hub).messages as unknown[])[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is in these?" },
        { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
        { type: "image_url", image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString("base64")}` } },
      ],
    });
  });

  it("text parts alone are sent as one string", async () => {
    await within(
      generateText({
        model: onHub(ctx.hub)("hfkit/tgi-3.2"),
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "One." },
              { type: "text", text: "Two." },
            ],
          },
        ],
      }),
    );
    expect(lastBody(ctx.hub).messages).toEqual([{ role: "user", content: "One.\nTwo." }]);
  });

  it("a file that is not an image is refused before any request", async () => {
    const error = await generateText({
      model: onHub(ctx.hub)("hfkit/tgi-3.2"),
      messages: [
        {
          role: "user",
          content: [{ type: "file", data: new Uint8Array([37, 80, 68, 70]), mediaType: "application/pdf" }],
        },
      ],
    }).catch((e: unknown) => e);
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("tool outputs of every kind as the text of the tool message", () => {
    expect(toolOutputText({ type: "text", value: "21 °C" })).toBe("21 °C");
    expect(toolOutputText({ type: "json", value: { c: 21 } })).toBe('{"c":21}');
    expect(toolOutputText({ type: "error-text", value: "no such city" })).toBe("no such city");
    expect(toolOutputText({ type: "error-json", value: { error: "x" } })).toBe('{"error":"x"}');
    expect(toolOutputText({ type: "execution-denied", reason: "not allowed" })).toBe("not allowed");
    expect(
      toolOutputText({
        type: "content",
        value: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toBe("a\nb");
  });
});

describe("toAiSdkError", () => {
  const info = {
    url: "https://host/v1/chat/completions",
    body: { messages: [] },
    prompt: [{ role: "user", content: [] }],
  };

  it("an InputError on messages is an InvalidPromptError; on another field, an InvalidArgumentError", () => {
    const prompt = toAiSdkError(new InputError("`messages[0].role` must be a string", "messages[0].role"), info);
    expect(InvalidPromptError.isInstance(prompt)).toBe(true);
    expect((prompt as InvalidPromptError).prompt).toBe(info.prompt);
    const argument = toAiSdkError(new InputError("`top_p` must be between 0 and 1", "top_p"), info);
    expect(InvalidArgumentError.isInstance(argument)).toBe(true);
    expect((argument as InvalidArgumentError).argument).toBe("top_p");
    expect((argument as Error).cause).toBeInstanceOf(InputError);
  });

  it("an HttpError keeps status, bodies, URL and request id; never retryable", () => {
    const original = new ModelLoadingError("Model x is currently loading (HTTP 503)", {
      status: 503,
      body: { error: "Model x is currently loading", estimated_time: 20 },
      url: "https://host/models/x",
      requestId: "req-1",
      requestBody: { inputs: "hi" },
      estimatedTime: 20,
    });
    const error = toAiSdkError(original, info) as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 503,
      url: "https://host/models/x",
      isRetryable: false,
      requestBodyValues: { inputs: "hi" },
    });
    expect(JSON.parse(error.responseBody!)).toEqual({ error: "Model x is currently loading", estimated_time: 20 });
    expect(error.responseHeaders).toEqual({ "x-request-id": "req-1" });
    expect(error.data).toMatchObject({ estimatedTime: 20 });
    expect(error.cause).toBe(original);
  });

  it("a connection failure and a malformed event are APICallErrors without a status", () => {
    const dropped = toAiSdkError(
      new ConnectionError("connection reset by host", { url: "https://other/v1/chat/completions" }),
      info,
    ) as APICallError;
    expect(dropped).toMatchObject({
      statusCode: undefined,
      url: "https://other/v1/chat/completions",
      isRetryable: false,
      requestBodyValues: info.body,
    });
    const malformed = toAiSdkError(
      new MalformedEventError("an event is not JSON", "data: {oops"),
      info,
    ) as APICallError;
    expect(malformed).toMatchObject({ url: info.url, responseBody: "data: {oops", isRetryable: false });
  });

  it("errors that are not ours pass unchanged", () => {
    const other = new TypeError("x");
    expect(toAiSdkError(other, info)).toBe(other);
  });
});

it("a system prompt and a multi-turn conversation keep their order and roles", async () => {
  await within(
    generateText({
      model: onHub(ctx.hub)("hfkit/tgi-3.2"),
      system: "Be brief.",
      messages: [
        { role: "user", content: QUESTION },
        { role: "assistant", content: "Paris." },
        { role: "user", content: "And Italy?" },
      ],
    }),
  );
  expect((lastBody(ctx.hub).messages as Array<{ role: string }>).map((m) => m.role)).toEqual([
    "system",
    "user",
    "assistant",
    "user",
  ]);
});
