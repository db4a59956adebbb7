import { describe, expect, it } from "vitest";

import { cassette, tape, type Interaction } from "./fixtures.js";
import { useHub } from "../helpers.js";

/** The mock's answers against real recorded ones: same framing, same JSON shapes, same error bytes. */

const hub = useHub({
  models: {
    "google/gemma-2b": { chatTemplate: false },
    "microsoft/DialoGPT-small": { backend: "transformers", unusedModelKwargs: ["stop"] },
    gpt2: { backend: "transformers", unusedModelKwargs: ["watermark", "stop", "decoder_input_details"] },
  },
});

function replay(url: string, body: string | null | undefined, headers: Record<string, string> = {}): Promise<Response> {
  const { pathname } = new URL(url);
  return fetch(hub().url + pathname, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: body ?? "",
  });
}

function replayTape(key: string, version?: string): Promise<Response> {
  const recorded = tape(key);
  if (version) hub().setModel(modelOf(recorded.url), { tgiVersion: version });
  return replay(recorded.url, recorded.init.body);
}

function modelOf(url: string): string {
  return new URL(url).pathname.replace(/^\/(hf-inference\/)?models\//, "").replace(/\/v1\/chat\/completions$/, "");
}

/** A JSON value with its leaves replaced by their types; keys keep their order, arrays keep one element. */
function signature(value: unknown): string {
  const shape = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.length > 0 ? [shape(item[0])] : [];
    if (item !== null && typeof item === "object")
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, shape(v)]));
    return item === null ? null : typeof item;
  };
  return JSON.stringify(shape(value));
}

interface Framing {
  prefix: string;
  done: boolean;
  endsWithBlankLine: boolean;
  first: string;
  last: string;
  lastEvent: Record<string, any>;
}

/** How an event-stream body is framed, and the shapes of its first and last JSON events. */
function framing(body: string): Framing {
  const blocks = body.split("\n\n").filter((block) => block !== "");
  const prefixes = new Set(
    blocks.map((block) => (block.startsWith("data: ") ? "data: " : block.startsWith("data:") ? "data:" : block)),
  );
  expect(prefixes.size).toBe(1);
  const events = blocks
    .map((block) => block.replace(/^data: ?/, ""))
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data));
  return {
    prefix: [...prefixes][0] ?? "",
    done: /data: ?\[DONE\]\n\n$/.test(body),
    endsWithBlankLine: body.endsWith("\n\n"),
    first: signature(events[0]),
    last: signature(events.at(-1)),
    lastEvent: events.at(-1),
  };
}

const digitsAside = (text: string) => text.replace(/\d+/g, "0");

async function expectSameFraming(response: Response, recordedBody: string): Promise<Framing> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const mock = framing(await response.text());
  const real = framing(recordedBody);
  const { lastEvent: _mockLast, ...mockFraming } = mock;
  const { lastEvent: _realLast, ...realFraming } = real;
  expect(mockFraming).toEqual(realFraming);
  return mock;
}

describe("chat streams against recorded TGI streams", () => {
  it("TGI 2.0.1 (huggingface.js tape): data: without a space, the </s> chunk with eos_token, no [DONE]", async () => {
    const mock = await expectSameFraming(await replayTape("e1218ba647", "2.0.1"), tape("e1218ba647").response.body);
    expect(framing(tape("e1218ba647").response.body).lastEvent.choices[0]).toMatchObject({
      delta: { content: "</s>" },
      finish_reason: "eos_token",
    });
    expect(mock.lastEvent.choices[0]).toMatchObject({ delta: { content: "</s>" }, finish_reason: "eos_token" });
  });

  it("TGI 3.0.1 (huggingface.js tape): object first, usage null, an empty EOS chunk with stop, [DONE]", async () => {
    const mock = await expectSameFraming(await replayTape("39c32cbc7b", "3.0.1"), tape("39c32cbc7b").response.body);
    expect(mock.lastEvent.choices[0]).toMatchObject({
      delta: { role: "assistant", content: "" },
      finish_reason: "stop",
    });
  });

  it("TGI 3.2.1 (huggingface_hub cassette, hf-inference)", async () => {
    const [recorded] = cassette("TestInferenceClient.test_chat_completion_with_stream[hf-inference,conversational]");
    hub().setModel(modelOf(recorded!.uri), { tgiVersion: "3.2.1" });
    await expectSameFraming(await replay(recorded!.uri, recorded!.requestBody), recorded!.body);
  });
});

describe("non-streamed chat against recorded answers", () => {
  it.each([
    ["5644ae1291", "2.0.1"],
    ["b09342278d", "3.0.1"],
  ])("tape %s (TGI %s): same keys in the same order", async (key, version) => {
    const response = await replayTape(key, version);
    expect(response.status).toBe(200);
    expect(signature(await response.json())).toBe(signature(JSON.parse(tape(key).response.body)));
  });
});

describe("generate and generate_stream against recorded answers", () => {
  it.each([
    ["2cc5a8d9d9", "2.0.1"],
    ["5a02b89bab", "3.0.1"],
  ])("token events of tape %s (TGI %s)", async (key, version) => {
    const mock = await expectSameFraming(await replayTape(key, version), tape(key).response.body);
    const inputs = JSON.parse(tape(key).init.body ?? "{}").inputs as string;
    expect(mock.lastEvent.generated_text.startsWith(inputs)).toBe(true);
  });

  it.each([
    ["e9fc55386e", "2.0.1"],
    ["55d57dc676", "3.0.1"],
  ])("an in-stream validation error, tape %s (TGI %s): same bytes but for the numbers", async (key, version) => {
    const response = await replayTape(key, version);
    expect(response.status).toBe(200);
    expect(digitsAside(await response.text())).toBe(digitsAside(tape(key).response.body));
  });

  it.each([
    ["TestTextGenerationClientVCR.test_generate_with_details", 0],
    ["TestTextGenerationClientVCR.test_generate_no_details", 0],
  ])("%s: the same answer shape", async (name, index) => {
    const recorded = cassette(name)[index] as Interaction;
    hub().setModel(modelOf(recorded.uri), { tgiVersion: "2.0.4" });
    const response = await replay(recorded.uri, recorded.requestBody);
    expect(signature(await response.json())).toBe(signature(JSON.parse(recorded.body)));
  });

  it("generate_stream with details (cassette): the same last event", async () => {
    const [recorded] = cassette("TestTextGenerationClientVCR.test_generate_stream_with_details");
    hub().setModel(modelOf(recorded!.uri), { tgiVersion: "2.0.4" });
    await expectSameFraming(await replay(recorded!.uri, recorded!.requestBody), recorded!.body);
  });

  it("a 422 validation answer (cassette): the same bytes but for the numbers", async () => {
    const [recorded] = cassette("TestTextGenerationClientVCR.test_generate_validation_error");
    const response = await replay(recorded!.uri, recorded!.requestBody);
    expect(response.status).toBe(recorded!.status);
    expect(digitsAside(await response.text())).toBe(digitsAside(recorded!.body));
  });
});

describe("error answers byte for byte", () => {
  async function expectSameAnswer(
    response: Response,
    status: number,
    contentType: string | undefined,
    body: string,
  ): Promise<void> {
    expect(response.status).toBe(status);
    if (contentType) expect(response.headers.get("content-type")).toBe(contentType);
    expect(await response.text()).toBe(body);
  }

  it.each(["3bc1c8fa82", "2e0134943b", "6599cf0a52"])("tape %s", async (key) => {
    const recorded = tape(key);
    await expectSameAnswer(
      await replayTape(key),
      recorded.response.status,
      recorded.response.headers["content-type"],
      recorded.response.body,
    );
  });

  it("messages of the wrong type (cassette, TGI 2.0)", async () => {
    const [recorded] = cassette("2024-07_InferenceClientVCRTest.test_chat_completion_unprocessable_entity");
    hub().setModel(modelOf(recorded!.uri), { tgiVersion: "2.0.1" });
    await expectSameAnswer(
      await replay(recorded!.uri, recorded!.requestBody),
      422,
      recorded!.contentType,
      recorded!.body,
    );
  });

  it("a bad token (cassette)", async () => {
    const [recorded] = cassette("TestInferenceClient.test_chat_completion_unprocessable_entity");
    const response = await replay(recorded!.uri, recorded!.requestBody, { authorization: "Bearer hf_bad" });
    await expectSameAnswer(response, 401, undefined, recorded!.body);
  });

  it("the transformers fallback flow (DialoGPT cassette): 500 on chat, 400 model_kwargs, then the answer", async () => {
    const [chat, kwargs, answer] = cassette("2024-07_InferenceClientVCRTest.test_chat_completion_with_non_tgi") as [
      Interaction,
      Interaction,
      Interaction,
    ];
    await expectSameAnswer(await replay(chat.uri, chat.requestBody), 500, chat.contentType, chat.body);
    await expectSameAnswer(await replay(kwargs.uri, kwargs.requestBody), 400, kwargs.contentType, kwargs.body);
    const response = await replay(answer.uri, answer.requestBody);
    expect(response.status).toBe(200);
    expect(signature(await response.json())).toBe(signature(JSON.parse(answer.body)));
  });

  it("unused model_kwargs in the model's order (gpt2 cassette)", async () => {
    const [recorded] = cassette("2024-07_TestTextGenerationClientVCR.test_generate_non_tgi_endpoint");
    await expectSameAnswer(
      await replay(recorded!.uri, recorded!.requestBody),
      400,
      recorded!.contentType,
      recorded!.body,
    );
  });
});
