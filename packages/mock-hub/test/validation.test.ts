import { describe, expect, it } from "vitest";
import { QUESTION, chatUrl, postJson, streamChat, useHub } from "./helpers.js";

const hub = useHub();

const invalid = (problem: string) => `Input validation error: ${problem}`;

describe("TGI validation, not streaming: 422 JSON", () => {
  it.each([
    [{ top_p: 0 }, "`top_p` must be > 0.0 and < 1.0"],
    [{ top_p: 1 }, "`top_p` must be > 0.0 and < 1.0"],
    [{ max_tokens: 0 }, "`max_new_tokens` must be strictly positive"],
    [{ temperature: -1 }, "`temperature` must be strictly positive"],
    [{ frequency_penalty: 2.5 }, "`frequency_penalty` must be >= -2.0 and <= 2.0"],
    [{ presence_penalty: -2 }, "`repetition_penalty` must be strictly positive"],
    [{ stop: ["a", "b", "c", "d", "e"] }, "`stop` supports up to 4 stop sequences. Given: 5"],
    [{ top_logprobs: 6 }, "`top_n_tokens` must be >= 0 and <= 5. Given: 6"],
    [
      { max_tokens: 10000 },
      "`inputs` tokens + `max_new_tokens` must be <= 4096. Given: 9 `inputs` tokens and 10000 `max_new_tokens`",
    ],
  ])("%j → %s", async (parameters, problem) => {
    const response = await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), { messages: QUESTION, ...parameters });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ error: invalid(problem), error_type: "validation" });
  });

  it("accepts temperature 0 (greedy) and presence_penalty > -2 from 2.0.2 on", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/tgi-2.0"), {
      model: "tgi",
      messages: QUESTION,
      temperature: 0,
      presence_penalty: -1,
    });
    expect(response.status).toBe(200);
  });

  it("rejects temperature 0 before 2.0.2", async () => {
    hub().setModel("old/tgi", { tgiVersion: "2.0.1" });
    const response = await postJson(chatUrl(hub(), "old/tgi"), { model: "tgi", messages: QUESTION, temperature: 0 });
    expect(await response.json()).toEqual({
      error: invalid("`temperature` must be strictly positive"),
      error_type: "validation",
    });
  });
});

describe("TGI validation while streaming: 200, then the error in the stream", () => {
  const topP = invalid("`top_p` must be > 0.0 and < 1.0");
  const legacy = JSON.stringify({ error: topP, error_type: "validation" });
  const openAi = JSON.stringify({ error: { message: topP, http_status_code: 422 } });

  it.each([
    ["hfkit/tgi-2.0", `data:${legacy}\n\n`],
    ["hfkit/tgi-2.1", `data: ${legacy}\n\n`],
    ["hfkit/tgi-2.2", `data: ${legacy}\n\ndata: [DONE]\n\n`],
    ["hfkit/tgi-2.4.0", `data: ${legacy}\n\ndata: [DONE]\n\n`],
    ["hfkit/tgi-2.4.1", `data: ${openAi}\n\ndata: [DONE]\n\n`],
    ["hfkit/tgi-3.2", `data: ${openAi}\n\ndata: [DONE]\n\n`],
  ])("%s sends exactly %j", async (model, expected) => {
    const response = await streamChat(hub(), model, { top_p: 0 });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe(expected);
  });
});

describe("errors before the stream opens", () => {
  it("a model without a chat template: 422 template_error, even when streaming", async () => {
    const response = await streamChat(hub(), "hfkit/tgi-no-chat-template");
    expect(response.status).toBe(422);
    expect(await response.text()).toBe('{"error":"Template error: template not found","error_type":"template_error"}');
  });

  it("a body TGI cannot deserialize: 422 text/plain naming the missing field", async () => {
    const body = '{"model":"tgi","max_tokens":5}';
    const response = await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), body);
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe(
      "Failed to deserialize the JSON body into the target type: missing field `messages` at line 1 column 30",
    );
  });

  it("messages of the wrong type name the field and where its value ends", async () => {
    const body = '{"model": "tgi", "messages": "hello", "max_tokens": 5}';
    const text = await (await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), body)).text();
    expect(text).toBe(
      'Failed to deserialize the JSON body into the target type: messages: invalid type: string "hello", expected a sequence at line 1 column 36',
    );
  });

  it("TGI before 2.1 requires `model`", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/tgi-2.0"), { messages: QUESTION });
    expect(response.status).toBe(422);
    expect(await response.text()).toMatch(
      /^Failed to deserialize the JSON body into the target type: missing field `model` at line 1 column \d+$/,
    );
    expect((await postJson(chatUrl(hub(), "hfkit/tgi-2.1"), { messages: QUESTION })).status).toBe(200);
  });

  it("a body that is not JSON: axum's 400 text/plain", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), "{not json");
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^Failed to parse the request body as JSON: /);
  });

  it("a body without a JSON content type: 415", async () => {
    const response = await fetch(chatUrl(hub(), "hfkit/tgi-3.2"), {
      method: "POST",
      body: JSON.stringify({ messages: QUESTION }),
    });
    expect(response.status).toBe(415);
    expect(await response.text()).toBe("Expected request with `Content-Type: application/json`");
  });
});
