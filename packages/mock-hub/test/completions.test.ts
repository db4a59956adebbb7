import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { dataPayloads, jsonEvents, postJson, useHub } from "./helpers.js";

const hub = useHub();
const completionsUrl = (model: string) => `${hub().url}/models/${model}/v1/completions`;
const textOf = (text: string) =>
  jsonEvents(text)
    .map((event) => event.choices[0].text)
    .join("");

describe("TGI /v1/completions (OpenAI's completions API)", () => {
  it("answers a text_completion with choices[].text, finish_reason and usage", async () => {
    const response = await postJson(completionsUrl("hfkit/tgi-3.2"), {
      model: "hfkit/tgi-3.2",
      prompt: "The capital of France is",
      max_tokens: 3,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: "",
      object: "text_completion",
      created: 1735689600,
      model: "hfkit/tgi-3.2",
      system_fingerprint: expect.stringMatching(/^3\.2\.0-sha-/),
      choices: [{ index: 0, text: "The capital of", logprobs: null, finish_reason: "length" }],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
  });

  it("POST /v1/completions takes the model from the body; a list of prompts gets one choice each", async () => {
    const answer = await (
      await postJson(`${hub().url}/v1/completions`, { model: "hfkit/tgi-2.0", prompt: ["a", "b"] })
    ).json();
    expect(answer.model).toBe("hfkit/tgi-2.0");
    expect(answer.choices).toEqual([
      { index: 0, text: "The capital of France is Paris.", logprobs: null, finish_reason: "eos_token" },
      { index: 1, text: "The capital of France is Paris.", logprobs: null, finish_reason: "eos_token" },
    ]);
  });

  it("stream: true → one `data: {choices:[{text}]}` chunk per token, the finish reason last, then [DONE]", async () => {
    const response = await postJson(completionsUrl("hfkit/tgi-3.2"), { prompt: "Q:", stream: true });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    const events = jsonEvents(text);
    expect(textOf(text)).toBe("The capital of France is Paris.");
    expect(events.every((event) => event.object === "text_completion")).toBe(true);
    expect(events.map((event) => event.choices[0].finish_reason)).toEqual([null, null, null, null, null, null, "stop"]);
    expect(dataPayloads(text).at(-1)).toBe("[DONE]");
  });

  it("TGI 2.0: `data:` without a space, eos_token, `</s>` streamed, no [DONE]", async () => {
    const text = await (await postJson(completionsUrl("hfkit/tgi-2.0"), { prompt: "Q:", stream: true })).text();
    expect(text.startsWith('data:{"id"')).toBe(true);
    expect(jsonEvents(text).at(-1)?.choices[0]).toMatchObject({ text: "</s>", finish_reason: "eos_token" });
    expect(text).not.toContain("[DONE]");
  });

  it("validates like TGI: 422 before a stream, an in-stream error inside one", async () => {
    const rejected = await postJson(completionsUrl("hfkit/tgi-3.2"), { prompt: "Q:", top_p: 1 });
    expect(rejected.status).toBe(422);
    expect(await rejected.json()).toEqual({
      error: "Input validation error: `top_p` must be > 0.0 and < 1.0",
      error_type: "validation",
    });
    const streamed = await postJson(completionsUrl("hfkit/tgi-3.2"), { prompt: "Q:", top_p: 1, stream: true });
    expect(streamed.status).toBe(200);
    expect(await streamed.text()).toContain(
      '{"error":{"message":"Input validation error: `top_p` must be > 0.0 and < 1.0","http_status_code":422}}',
    );
    const missing = await postJson(completionsUrl("hfkit/tgi-3.2"), { inputs: "Q:" });
    expect(missing.status).toBe(422);
    expect(await missing.text()).toMatch(/missing field `prompt`/);
  });

  it("a transformers-pipeline model has no such route: 404", async () => {
    expect((await postJson(completionsUrl("hfkit/transformers-chat"), { prompt: "Q:" })).status).toBe(404);
  });

  it("@huggingface/inference 4.13's textGeneration on hf-inference (which posts here) gets its generated_text", async () => {
    // The workspace's copy, installed for the benchmarks.
    const require = createRequire(new URL("../../bench/package.json", import.meta.url));
    type Client = { textGeneration(args: Record<string, unknown>): Promise<{ generated_text: string }> };
    const { InferenceClient } = (await import(require.resolve("@huggingface/inference"))) as {
      InferenceClient: new (token: string, options: { endpointUrl: string }) => Client;
    };
    const client = new InferenceClient("hf_mock", { endpointUrl: `${hub().url}/models/hfkit/tgi-3.2` });
    const out = await client.textGeneration({
      model: "hfkit/tgi-3.2",
      inputs: "The capital of France is",
      parameters: { max_new_tokens: 2 },
    });
    expect(out).toEqual({ generated_text: "The capital" });
    expect(hub().requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/models/hfkit/tgi-3.2/v1/completions",
      body: { prompt: "The capital of France is", max_tokens: 2 },
    });
  });
});
