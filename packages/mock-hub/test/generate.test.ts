import { describe, expect, it } from "vitest";
import { dataPayloads, jsonEvents, postJson, useHub } from "./helpers.js";

const hub = useHub();
const modelUrl = (model: string) => `${hub().url}/models/${model}`;

describe("TGI generate (POST /models/{id})", () => {
  it("answers [{generated_text}] with the prompt unless return_full_text is false", async () => {
    const full = await (
      await postJson(modelUrl("hfkit/tgi-3.2"), { inputs: "Q:", parameters: { max_new_tokens: 2 } })
    ).json();
    expect(full).toEqual([{ generated_text: "Q:The capital" }]);
    const bare = await (
      await postJson(modelUrl("hfkit/tgi-3.2"), { inputs: "Q:", parameters: { return_full_text: false } })
    ).json();
    expect(bare).toEqual([{ generated_text: "The capital of France is Paris." }]);
  });

  it("details: finish reason, token count, tokens (EOS included), prefill when asked", async () => {
    const [answer] = await (
      await postJson(modelUrl("hfkit/tgi-3.2"), {
        inputs: "Q:",
        parameters: { details: true, decoder_input_details: true, return_full_text: false },
      })
    ).json();
    expect(answer.details).toMatchObject({
      finish_reason: "eos_token",
      generated_tokens: 7,
      seed: null,
      prefill: [{ id: 0, text: "<s>", logprob: null }],
    });
    expect(answer.details.tokens.map((token: { text: string }) => token.text)).toEqual([
      "The",
      " capital",
      " of",
      " France",
      " is",
      " Paris.",
      "</s>",
    ]);
    expect(answer.details.tokens.at(-1)).toMatchObject({ id: 2, special: true });
  });

  it("a stop sequence gives finish_reason stop_sequence", async () => {
    const [answer] = await (
      await postJson(modelUrl("hfkit/tgi-3.2"), {
        inputs: "Q:",
        parameters: { stop: ["of"], details: true, return_full_text: false },
      })
    ).json();
    expect(answer).toMatchObject({
      generated_text: "The capital of",
      details: { finish_reason: "stop_sequence", generated_tokens: 3 },
    });
  });

  it("/generate answers one object, not an array", async () => {
    const answer = await (
      await postJson(`${hub().url}/generate`, { inputs: "Q:", parameters: { max_new_tokens: 1 } })
    ).json();
    expect(answer).toEqual({ generated_text: "The" });
  });

  it("validates like TGI: temperature 0 is rejected on generate", async () => {
    const response = await postJson(modelUrl("hfkit/tgi-3.2"), { inputs: "Q:", parameters: { temperature: 0 } });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: "Input validation error: `temperature` must be strictly positive",
      error_type: "validation",
    });
  });

  it("a body without inputs (a chat body sent to the model root): 422 text/plain", async () => {
    const body = '{"messages":[{"role":"user","content":"hi"}]}';
    const response = await postJson(modelUrl("hfkit/tgi-3.2"), body);
    expect(response.status).toBe(422);
    expect(await response.text()).toBe(
      `Failed to deserialize the JSON body into the target type: missing field \`inputs\` at line 1 column ${body.length}`,
    );
  });
});

describe("TGI generate_stream", () => {
  it("stream: true at the root streams token events, the last with generated_text; never [DONE]", async () => {
    const text = await (
      await postJson(modelUrl("hfkit/tgi-3.2"), { inputs: "Q:", parameters: { max_new_tokens: 3 }, stream: true })
    ).text();
    expect(dataPayloads(text)).not.toContain("[DONE]");
    const events = jsonEvents(text);
    expect(events.map((event) => event.index)).toEqual([1, 2, 3]);
    expect(events[0]).toEqual({
      index: 1,
      token: { id: expect.any(Number), text: "The", logprob: -0.25, special: false },
      generated_text: null,
      details: null,
    });
    expect(events.at(-1)).toMatchObject({ generated_text: "Q:The capital of", details: null });
  });

  it("frames as the chat route does for the version: `data:` on 2.0, `data: ` on 3.2", async () => {
    const old = await (await postJson(`${hub().url}/models/hfkit/tgi-2.0`, { inputs: "Q:", stream: true })).text();
    expect(old.startsWith('data:{"index":1,')).toBe(true);
    const recent = await (await postJson(`${hub().url}/generate_stream`, { inputs: "Q:" })).text();
    expect(recent.startsWith('data: {"index":1,')).toBe(true);
    expect(jsonEvents(recent).at(-1)?.token).toMatchObject({ text: "</s>", special: true });
  });

  it("details on the last event (input_length from 2.3)", async () => {
    const request = { inputs: "Q: now", parameters: { details: true, max_new_tokens: 1 }, stream: true };
    const recent = jsonEvents(await (await postJson(modelUrl("hfkit/tgi-3.2"), request)).text());
    expect(recent.at(-1)?.details).toEqual({
      finish_reason: "length",
      generated_tokens: 1,
      seed: null,
      input_length: 2,
    });
    const old = jsonEvents(await (await postJson(modelUrl("hfkit/tgi-2.2"), request)).text());
    expect(old.at(-1)?.details).toEqual({ finish_reason: "length", generated_tokens: 1, seed: null });
  });

  it("in-stream errors keep the old shape and no [DONE], whatever the version", async () => {
    const text = await (
      await postJson(modelUrl("hfkit/tgi-3.2"), { inputs: "Q:", parameters: { top_p: 1 }, stream: true })
    ).text();
    expect(text).toBe(
      'data: {"error":"Input validation error: `top_p` must be > 0.0 and < 1.0","error_type":"validation"}\n\n',
    );
  });

  it("best_of is refused when streaming", async () => {
    const text = await (
      await postJson(modelUrl("hfkit/tgi-2.0"), {
        inputs: "Q:",
        parameters: { best_of: 2, do_sample: true },
        stream: true,
      })
    ).text();
    expect(text).toBe(
      'data:{"error":"Input validation error: `best_of` != 1 is not supported when streaming tokens","error_type":"validation"}\n\n',
    );
  });
});
