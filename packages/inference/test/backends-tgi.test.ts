import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collectStream, InferenceClient, ValidationError } from "../src/index";
import { messages, within } from "./helpers";

// Every TGI version's framing (BACKENDS.md), over real loopback HTTP.
const versions = [
  "hfkit/tgi-2.0",
  "hfkit/tgi-2.1",
  "hfkit/tgi-2.2",
  "hfkit/tgi-2.4.0",
  "hfkit/tgi-2.4.1",
  "hfkit/tgi-3.1",
  "hfkit/tgi-3.2",
];
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
  for await (const c of client.chatCompletionStream({
    model: "hfkit/tgi-3.2",
    messages,
    stream_options: { include_usage: true },
  })) {
    chunks.push(c);
  }
  const last = chunks.at(-1)!;
  expect(last.choices).toEqual([]);
  expect(last.usage?.completion_tokens).toBeGreaterThan(0);
});

it("the server receives the payload TGI accepts", async () => {
  await collectStream(
    client.chatCompletionStream({ model: "hfkit/tgi-3.2", messages, top_p: 1, presence_penalty: 0, seed: 7 }),
  );
  const req = hub.requests.at(-1)!;
  expect(req.path).toBe("/models/hfkit/tgi-3.2/v1/chat/completions");
  expect(req.body).toEqual({ model: "hfkit/tgi-3.2", messages, seed: 7, stream: true });
  expect(req.headers.authorization).toBe("Bearer hf_test");
});

// TGI < 2.0.2 refuses `temperature: 0` on the chat route (BACKENDS.md); greedy there is a tiny `top_p`.
describe("TGI before 2.0.2: temperature 0", () => {
  const chatBodies = () =>
    hub.requests.filter((r) => r.path.endsWith("/v1/chat/completions")).map((r) => r.body as Record<string, unknown>);
  const warnings: unknown[] = [];
  const logger = { warn: (message: unknown) => warnings.push(message) };
  const oldTgi = (name: string) => {
    const model = `acme/${name}`;
    hub.setModel(model, { tgiVersion: "2.0.1" });
    return model;
  };
  beforeEach(() => (warnings.length = 0));

  it.each([
    ["a stream, refused inside the 200 stream", "stream-temp", { temperature: 0 }],
    ["a stream asked with top_p 0", "stream-top-p", { top_p: 0 }],
  ])("%s: sent once more as greedy, then at once for later calls", async (_name, id, sampling) => {
    const model = oldTgi(id);
    for (let call = 0; call < 2; call++) {
      const out = await within(
        collectStream(client.chatCompletionStream({ model, messages, ...sampling }, { logger })),
      );
      expect(out.choices[0]?.message.content).toBe(TEXT);
    }
    const [refused, ...greedy] = chatBodies();
    expect(refused).toMatchObject({ temperature: 0, stream: true });
    expect(refused).not.toHaveProperty("top_p");
    expect(greedy).toHaveLength(2);
    for (const body of greedy) {
      expect(body).not.toHaveProperty("temperature");
      expect(body.top_p).toBe(1e-6);
    }
    expect(warnings).toEqual([expect.stringMatching(/TGI < 2\.0\.2 refuses .temperature: 0./)]);
    expect(await openStreamsSettle()).toBe(0);
  });

  it("a non-streamed call: refused with HTTP 422, sent once more as greedy, then at once", async () => {
    const model = oldTgi("json-temp");
    for (let call = 0; call < 2; call++) {
      const out = await client.chatCompletion({ model, messages, temperature: 0, max_tokens: 2 }, { logger });
      expect(out.choices[0]?.message.content).toBe("The capital");
    }
    expect(chatBodies().map((b) => [b.temperature, b.top_p])).toEqual([
      [0, undefined],
      [undefined, 1e-6],
      [undefined, 1e-6],
    ]);
  });

  it("TGI 2.0.2 and later decode temperature 0 greedily themselves: sent as is, one request", async () => {
    const out = await within(
      collectStream(client.chatCompletionStream({ model: "hfkit/tgi-2.0", messages, temperature: 0 }, { logger })),
    );
    expect(out.choices[0]?.message.content).toBe(TEXT);
    expect(chatBodies().map((b) => [b.temperature, b.top_p])).toEqual([[0, undefined]]);
    expect(warnings).toEqual([]);
  });

  it("another validation error is raised: resent at most once, and not at all by TGI >= 2.0.2", async () => {
    const model = oldTgi("other-error");
    const tooLong = { messages, temperature: 0, max_tokens: 5000 };
    const error = await within(
      collectStream(client.chatCompletionStream({ model, ...tooLong }, { logger })).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain("must be <= 4096");
    expect(chatBodies().map((b) => [b.temperature, b.top_p])).toEqual([
      [0, undefined],
      [undefined, 1e-6],
    ]);
    hub.reset();
    const refused = await client
      .chatCompletion({ model: "hfkit/tgi-2.0", ...tooLong }, { logger })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as Error).message).toContain("must be <= 4096");
    expect(chatBodies()).toHaveLength(1);
  });
});
