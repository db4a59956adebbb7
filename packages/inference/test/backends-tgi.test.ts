import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collectStream, InferenceClient, ValidationError } from "../src/index";
import { messages, within } from "./helpers";

// Every TGI version's framing (BACKENDS.md), over real loopback HTTP.
const versions = ["hfkit/tgi-2.0", "hfkit/tgi-2.1", "hfkit/tgi-2.2", "hfkit/tgi-2.4.0", "hfkit/tgi-2.4.1", "hfkit/tgi-3.1", "hfkit/tgi-3.2"];
const TEXT = "The capital of France is Paris.";

let hub: MockHub;
let client: InferenceClient;

beforeAll(async () => {
  hub = await startMockHub();
  client = new InferenceClient("hf_test", { baseUrl: hub.url, maxRetries: 0 });
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());

async function openStreamsSettle(): Promise<number> {
  for (let i = 0; i < 50 && hub.openStreams() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return hub.openStreams();
}

describe.each(versions)("%s", (model) => {
  // (TGI 2.0 streams its EOS token's text, "</s>", with `eos_token`: it is not part of the answer.)
  it("streams the whole answer and completes", async () => {
    const out = await within(collectStream(client.chatCompletionStream({ model, messages })));
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(out.choices[0]?.finish_reason).toBe("stop");
    expect(await openStreamsSettle()).toBe(0);
  });

  it("completes promptly when the server keeps the socket open after the answer", async () => {
    hub.inject({ type: "linger" }, { model });
    const out = await within(collectStream(client.chatCompletionStream({ model, messages, max_tokens: 3 })));
    expect(out.choices[0]?.message.content).toBe("The capital of");
    expect(out.choices[0]?.finish_reason).toBe("length");
    expect(await openStreamsSettle()).toBe(0);
  });

  it("raises a validation error sent inside the 200 stream, even on a socket left open", async () => {
    hub.inject({ type: "linger" }, { model });
    const error = await within(
      collectStream(client.chatCompletionStream({ model, messages, max_tokens: 5000 })).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(422);
    expect((error as Error).message).toContain("must be <= 4096");
    expect(await openStreamsSettle()).toBe(0);
  });

  it("accepts OpenAI's top_p 0 and 1 and presence_penalty 0 (TGI rejects them as sent)", async () => {
    for (const p of [{ top_p: 0 }, { top_p: 1 }, { presence_penalty: 0 }]) {
      const out = await within(collectStream(client.chatCompletionStream({ model, messages, ...p })));
      expect(out.choices[0]?.message.content).toBe(TEXT);
    }
  });

  it("answers a non-streamed call", async () => {
    const out = await client.chatCompletion({ model, messages, max_tokens: 2, top_p: 1 });
    expect(out.choices[0]?.message).toMatchObject({ role: "assistant", content: "The capital" });
    expect(out.choices[0]?.finish_reason).toBe("length");
  });
});

it("usage chunks (TGI >= 2.3) arrive before completion", async () => {
  const chunks = [];
  for await (const c of client.chatCompletionStream({ model: "hfkit/tgi-3.2", messages, stream_options: { include_usage: true } })) {
    chunks.push(c);
  }
  const last = chunks.at(-1)!;
  expect(last.choices).toEqual([]);
  expect(last.usage?.completion_tokens).toBeGreaterThan(0);
});

it("the server receives the payload TGI accepts", async () => {
  await collectStream(client.chatCompletionStream({ model: "hfkit/tgi-3.2", messages, top_p: 1, presence_penalty: 0, seed: 7 }));
  const req = hub.requests.at(-1)!;
  expect(req.path).toBe("/models/hfkit/tgi-3.2/v1/chat/completions");
  expect(req.body).toEqual({ model: "hfkit/tgi-3.2", messages, seed: 7, stream: true });
  expect(req.headers.authorization).toBe("Bearer hf_test");
});
