/**
 * `textGeneration` on OpenAI-protocol endpoints (vLLM, SGLang, llama.cpp's server), which have no
 * `generate` route: asked on `/v1/completions`, answered as TGI's `generate` is; through loopback
 * HTTP against @hfkit/mock-hub.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpError, InferenceClient, type TextGenerationStreamOutput } from "../src/index";
import { backendMemory } from "../src/targets/endpoints/detect";

const TEXT = "The capital of France is Paris.";
const PROMPT = "What is the capital of France?";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => {
  hub.reset();
  backendMemory.clear();
});

const endpointOf = (model: string): string => `${hub.url}/endpoints/${model}`;
const client = new InferenceClient("hf_completions", { maxRetries: 0 });
const paths = (): string[] => hub.requests.filter((r) => r.method === "POST").map((r) => r.path);

async function events(stream: AsyncIterable<TextGenerationStreamOutput>): Promise<TextGenerationStreamOutput[]> {
  const out: TextGenerationStreamOutput[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

describe.each(["hfkit/vllm", "hfkit/sglang", "hfkit/llamacpp"])("textGeneration on %s", (model) => {
  it("finds the completions route once (its `/` answers 404), then goes there directly", async () => {
    const first = await client.textGeneration({ endpointUrl: endpointOf(model), inputs: PROMPT });
    expect(first.generated_text).toBe(TEXT);
    expect(paths()).toEqual([`/endpoints/${model}`, `/endpoints/${model}/v1/completions`]);
    const second = await client.textGeneration({ endpointUrl: endpointOf(model), inputs: PROMPT });
    expect(second.generated_text).toBe(TEXT);
    expect(paths().slice(2)).toEqual([`/endpoints/${model}/v1/completions`]);
  });

  it("sends TGI's parameters in OpenAI's words, and the prompt before the text with return_full_text", async () => {
    const out = await client.textGeneration(
      {
        endpointUrl: endpointOf(model),
        inputs: PROMPT,
        parameters: { max_new_tokens: 3, do_sample: false, stop: ["\n"], return_full_text: true },
      },
      { backend: "openai" },
    );
    expect(out.generated_text).toBe(`${PROMPT}The capital of`);
    expect(hub.requests.at(-1)?.body).toEqual({
      model: "tgi",
      prompt: PROMPT,
      max_tokens: 3,
      temperature: 0,
      stop: ["\n"],
    });
  });

  it("streams one event per token, the whole text in the last one only, and ends without waiting for the socket", async () => {
    const out = await events(client.textGenerationStream({ endpointUrl: endpointOf(model), inputs: PROMPT }));
    expect(out.map((e) => e.token.text).join("")).toBe(TEXT);
    expect(out.map((e) => e.index)).toEqual(out.map((_, i) => i + 1));
    expect(out.at(-1)?.generated_text).toBe(TEXT);
    expect(out.slice(0, -1).every((e) => e.generated_text === null)).toBe(true);
  });
});

it("an error inside a 200 completions stream is the typed error", async () => {
  hub.inject({ type: "overloadedInStream", afterChunks: 2 }, { model: "hfkit/vllm", times: 1 });
  const stream = client.textGenerationStream(
    { endpointUrl: endpointOf("hfkit/vllm"), inputs: PROMPT },
    { backend: "openai" },
  );
  const error = await events(stream).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  expect((error as HttpError).message).toMatch(/overloaded.*inside the stream|inside the stream.*overloaded/);
});

it("a TGI endpoint still answers on `/` (generate), never on the completions route", async () => {
  const out = await client.textGeneration({ endpointUrl: endpointOf("hfkit/tgi-3.2"), inputs: PROMPT });
  expect(out.generated_text).toBe(TEXT);
  expect(paths()).toEqual(["/endpoints/hfkit/tgi-3.2"]);
});

it.each([false, true])(
  "the same text from TGI's `/`, the pipeline and a completions route (return_full_text %s)",
  async (full) => {
    const ask = (model: string) =>
      client.textGeneration({
        endpointUrl: endpointOf(model),
        inputs: PROMPT,
        parameters: { return_full_text: full, max_new_tokens: 4 },
      });
    const texts = await Promise.all(
      ["hfkit/tgi-3.2", "hfkit/tgi-2.0", "hfkit/transformers-chat", "hfkit/vllm"].map(
        async (m) => (await ask(m)).generated_text,
      ),
    );
    expect(new Set(texts)).toEqual(new Set([`${full ? PROMPT : ""}The capital of France`]));
  },
);
