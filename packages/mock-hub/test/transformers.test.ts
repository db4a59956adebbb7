import { describe, expect, it } from "vitest";
import { QUESTION, chatUrl, postJson, useHub } from "./helpers.js";

const hub = useHub({
  models: { "acme/gpt2": { backend: "transformers", unusedModelKwargs: ["watermark", "stop", "details"] } },
});
const modelUrl = (model: string) => `${hub().url}/models/${model}`;
const KWARGS_NOTE = "(note: typos in the generate arguments will also show up in this list)";

describe("transformers pipeline: the chat route", () => {
  it("500 unknown error with warnings and no error_type", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/transformers-chat"), { model: "tgi", messages: QUESTION });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe(
      '{"error":"unknown error","warnings":["There was an inference error: unknown error: can only concatenate str (not \\"dict\\") to str"]}',
    );
  });

  it("400 wrong format", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/transformers-wrong-format"), {
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(
      "`args[0]`: {'messages': [{'role': 'user', 'content': 'hi'}]} have the wrong format. The should be either of type `str` or type `list`",
    );
  });

  it("404", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/transformers-not-found"), { messages: QUESTION });
    expect([response.status, await response.json()]).toEqual([404, { error: "Not Found" }]);
  });

  it("has no /info", async () => {
    expect((await fetch(`${modelUrl("hfkit/transformers-chat")}/info`)).status).toBe(404);
  });
});

describe("transformers pipeline: POST /models/{id}", () => {
  it("messages in, the assistant's text out with return_full_text: false", async () => {
    const body = { inputs: QUESTION, parameters: { max_new_tokens: 20, do_sample: false, return_full_text: false } };
    expect(await (await postJson(modelUrl("hfkit/transformers-chat"), body)).json()).toEqual([
      { generated_text: "The capital of France is Paris." },
    ]);
  });

  it("without return_full_text: false, the conversation with the answer appended", async () => {
    const body = { inputs: QUESTION, parameters: { max_new_tokens: 2 } };
    expect(await (await postJson(modelUrl("hfkit/transformers-chat"), body)).json()).toEqual([
      { generated_text: [...QUESTION, { role: "assistant", content: "The capital" }] },
    ]);
  });

  it("a text input is continued", async () => {
    const body = { inputs: "Q:", parameters: { max_new_tokens: 1 } };
    expect(await (await postJson(modelUrl("hfkit/transformers-chat"), body)).json()).toEqual([
      { generated_text: "Q:The" },
    ]);
  });

  it("parameters the model does not take: 400 model_kwargs, listed in the model's order; nulls pass", async () => {
    const body = { inputs: "Q:", parameters: { details: false, stop: [], watermark: false, seed: null } };
    const response = await postJson(modelUrl("acme/gpt2"), body);
    expect(response.status).toBe(400);
    const message = `The following \`model_kwargs\` are not used by the model: ['watermark', 'stop', 'details'] ${KWARGS_NOTE}`;
    expect(await response.json()).toEqual({ error: message, warnings: [`There was an inference error: ${message}`] });
    expect((await postJson(modelUrl("acme/gpt2"), { inputs: "Q:", parameters: { stop: null } })).status).toBe(200);
  });

  it("stream: true is refused", async () => {
    const response = await postJson(modelUrl("hfkit/transformers-chat"), { inputs: QUESTION, stream: true });
    expect([response.status, await response.json()]).toEqual([
      400,
      { error: ["Error in `stream`: `stream` is not supported for this model"] },
    ]);
  });

  it("legacy conversational inputs are no longer accepted", async () => {
    const inputs = { past_user_inputs: ["Hi"], generated_responses: ["Hello"], text: "How are you?" };
    const response = await postJson(modelUrl("hfkit/transformers-chat"), { inputs });
    expect(response.status).toBe(500);
    expect((await response.json()).warnings[0]).toContain('can only concatenate str (not "dict") to str');
  });

  it("the proxy faults apply to pipeline models too", async () => {
    hub().inject({ type: "loading", estimatedTime: 3 }, { model: "hfkit/transformers-chat", times: 1 });
    expect((await postJson(modelUrl("hfkit/transformers-chat"), { inputs: "Q:" })).status).toBe(503);
    expect((await postJson(modelUrl("hfkit/transformers-chat"), { inputs: "Q:" })).status).toBe(200);
  });
});
