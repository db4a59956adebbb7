import { describe, expect, it } from "vitest";
import { QUESTION, chatUrl, postJson, useHub } from "./helpers.js";

const hub = useHub({ models: { "acme/custom": { text: "Hello there, friend.", tgiVersion: "3.1.0" } } });

describe("non-streamed TGI chat", () => {
  it("answers a ChatCompletionOutput (3.x shape: object first)", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), { model: "tgi", messages: QUESTION });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith('{"object":"chat.completion","id":"","created":1735689600,"model":"hfkit/tgi-3.2"')).toBe(
      true,
    );
    expect(JSON.parse(text)).toMatchObject({
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "The capital of France is Paris." },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
    });
  });

  it("2.0.x answers id first, object text_completion, finish eos_token", async () => {
    const text = await (await postJson(chatUrl(hub(), "hfkit/tgi-2.0"), { model: "tgi", messages: QUESTION })).text();
    expect(text.startsWith('{"id":"","object":"text_completion",')).toBe(true);
    expect(JSON.parse(text).choices[0].finish_reason).toBe("eos_token");
  });

  it("max_tokens caps the answer with finish_reason length", async () => {
    const body = await (await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), { messages: QUESTION, max_tokens: 3 })).json();
    expect(body.choices[0]).toMatchObject({ message: { content: "The capital of" }, finish_reason: "length" });
    expect(body.usage.completion_tokens).toBe(3);
  });

  it("serves a configured model's text under its own id", async () => {
    const body = await (await postJson(chatUrl(hub(), "acme/custom"), { messages: QUESTION })).json();
    expect(body.model).toBe("acme/custom");
    expect(body.system_fingerprint).toMatch(/^3\.1\.0-sha-[0-9a-f]{7}$/);
    expect(body.choices[0].message.content).toBe("Hello there, friend.");
  });

  it("answers a tool call with the arguments built from the schema", async () => {
    const tools = [
      {
        type: "function",
        function: { name: "pick", parameters: { type: "object", properties: { n: { type: "integer" } } } },
      },
    ];
    const body = await (
      await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), {
        messages: QUESTION,
        tools,
        tool_choice: { type: "function", function: { name: "pick" } },
      })
    ).json();
    expect(body.choices[0].message.tool_calls).toEqual([
      { id: "0", type: "function", function: { description: null, name: "pick", arguments: '{"n":3}' } },
    ]);
  });

  it("an unknown tool in tool_choice is a 422 tool_error", async () => {
    const tools = [{ type: "function", function: { name: "pick", parameters: {} } }];
    const response = await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), {
      messages: QUESTION,
      tools,
      tool_choice: "other",
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: "Tool error: Tool with name other not found",
      error_type: "tool_error",
    });
  });
});

describe("routes and models", () => {
  it("router style: model from the body, `tgi` or none means the default model", async () => {
    const named = await (
      await postJson(`${hub().url}/v1/chat/completions`, { model: "hfkit/tgi-2.0", messages: QUESTION })
    ).json();
    expect(named.model).toBe("hfkit/tgi-2.0");
    const tgi = await (await postJson(`${hub().url}/v1/chat/completions`, { model: "tgi", messages: QUESTION })).json();
    expect(tgi.model).toBe("hfkit/tgi-3.2");
    const provider = await (
      await postJson(`${hub().url}/v1/chat/completions`, { model: "acme/custom:hf-inference", messages: QUESTION })
    ).json();
    expect(provider.model).toBe("acme/custom");
  });

  it("a dedicated endpoint serves the model named in its path", async () => {
    const body = await (
      await postJson(`${hub().url}/endpoints/my-endpoint/v1/chat/completions`, { messages: QUESTION })
    ).json();
    expect(body.model).toBe("my-endpoint");
    const info = await (await fetch(`${hub().url}/endpoints/my-endpoint/info`)).json();
    expect(info).toMatchObject({ model_id: "my-endpoint", router: "text-generation-router", version: "3.2.0" });
  });

  it("GET /info describes the default TGI model; a pipeline model has none", async () => {
    expect(await (await fetch(`${hub().url}/info`)).json()).toMatchObject({
      model_id: "hfkit/tgi-3.2",
      version: "3.2.0",
    });
    expect((await fetch(`${hub().url}/models/hfkit/transformers-chat/info`)).status).toBe(404);
  });

  it("the /hf-inference prefix of the router is accepted", async () => {
    const response = await postJson(`${hub().url}/hf-inference/models/hfkit/tgi-3.2/v1/chat/completions`, {
      messages: QUESTION,
    });
    expect(response.status).toBe(200);
  });

  it("unknown routes are a 404 JSON", async () => {
    const response = await fetch(`${hub().url}/nothing/here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not Found" });
  });

  it("setModel changes a model at runtime", async () => {
    hub().setModel("acme/custom", { text: "Changed." });
    const body = await (await postJson(chatUrl(hub(), "acme/custom"), { messages: QUESTION })).json();
    expect(body.choices[0].message.content).toBe("Changed.");
  });
});

describe("request log", () => {
  it("records method, path, lower-cased headers, parsed body and request id", async () => {
    const before = Date.now();
    await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), { messages: QUESTION }, { "X-Custom": "yes" });
    await fetch(`${hub().url}/info?x=1`);
    const [chat, info] = hub().requests;
    expect(chat).toMatchObject({
      method: "POST",
      path: "/models/hfkit/tgi-3.2/v1/chat/completions",
      body: { messages: QUESTION },
      requestId: "mock-1",
    });
    expect(chat?.headers["x-custom"]).toBe("yes");
    expect(chat?.headers["content-type"]).toBe("application/json");
    expect(chat?.time).toBeGreaterThanOrEqual(before);
    expect(info).toMatchObject({ method: "GET", path: "/info?x=1", body: undefined });
  });

  it("keeps a body that is not JSON as text; reset() clears the log", async () => {
    await fetch(`${hub().url}/models/hfkit/tgi-3.2`, { method: "POST", body: "plain words" });
    expect(hub().requests[0]?.body).toBe("plain words");
    hub().reset();
    expect(hub().requests).toEqual([]);
  });
});
