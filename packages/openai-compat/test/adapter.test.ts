import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createHfFetch } from "../src/index";
import { messages, settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const versions = [
  "hfkit/tgi-2.0",
  "hfkit/tgi-2.1",
  "hfkit/tgi-2.2",
  "hfkit/tgi-2.4.1",
  "hfkit/tgi-3.1",
  "hfkit/tgi-3.2",
];

/** The official client, unchanged but for its fetch; the model URL form. */
function clientFor(model: string, extra: ConstructorParameters<typeof OpenAI>[0] = {}) {
  return new OpenAI({
    baseURL: `${ctx.hub.url}/models/${model}/v1`,
    apiKey: "hf_test",
    fetch: createHfFetch({ maxRetries: 0 }),
    ...extra,
  });
}

async function streamText(client: OpenAI, model: string, extra: Record<string, unknown> = {}): Promise<string> {
  const stream = await client.chat.completions.create({ model, messages, stream: true, ...extra });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
  return text;
}

describe("the openai package through createHfFetch", () => {
  it.each(versions)("streams %s to the end, even with the socket left open", async (model) => {
    ctx.hub.inject({ type: "linger" }, { model });
    const text = await within(streamText(clientFor(model), model));
    expect(text).toBe(TEXT);
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("the base form: {base}/v1 with the model in the body", async () => {
    const client = new OpenAI({ baseURL: `${ctx.hub.url}/v1`, apiKey: "hf_test", fetch: createHfFetch() });
    expect(await within(streamText(client, "hfkit/tgi-2.0"))).toBe(TEXT);
    expect(ctx.hub.requests.at(-1)?.path).toBe("/models/hfkit/tgi-2.0/v1/chat/completions");
    expect(ctx.hub.requests.at(-1)?.headers.authorization).toBe("Bearer hf_test");
  });

  it("an in-stream validation error is thrown as the client's own 422 APIError", async () => {
    const model = "hfkit/tgi-2.0";
    ctx.hub.inject({ type: "linger" }, { model });
    const error = await within(streamText(clientFor(model), model, { max_tokens: 5000 }).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(422);
    expect((error as Error).message).toContain("must be <= 4096");
  });

  it("top_p 0 and 1 work", async () => {
    for (const top_p of [0, 1])
      expect(await within(streamText(clientFor("hfkit/tgi-3.2"), "hfkit/tgi-3.2", { top_p }))).toBe(TEXT);
  });

  it("a transformers-served model answers through the same calls", async () => {
    const model = "hfkit/transformers-chat";
    expect(await within(streamText(clientFor(model), model))).toBe(TEXT);
    const out = await clientFor(model).chat.completions.create({ model, messages });
    expect(out.choices[0]?.message.content).toBe(TEXT);
  });

  it("a truncated stream makes the client's iterator throw after the tokens", async () => {
    const model = "hfkit/tgi-3.2";
    ctx.hub.inject({ type: "truncate", afterChunks: 2 }, { model });
    let text = "";
    const error = await within(
      (async () => {
        const stream = await clientFor(model).chat.completions.create({ model, messages, stream: true });
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
      })().catch((e: unknown) => e),
    );
    expect(text).toBe("The capital");
    expect(error).toBeInstanceOf(Error);
  });

  it("non-streaming calls", async () => {
    const out = await clientFor("hfkit/tgi-2.0").chat.completions.create({
      model: "hfkit/tgi-2.0",
      messages,
      max_tokens: 2,
    });
    expect(out.choices[0]?.message.content).toBe("The capital");
    expect(out.choices[0]?.finish_reason).toBe("length");
  });

  it("a 404 is the client's NotFoundError, and the client does not retry it", async () => {
    const model = "org/does-not-exist";
    const error = await clientFor(model)
      .chat.completions.create({ model, messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(ctx.hub.requests).toHaveLength(1);
  });

  it("the request's signal is honoured", async () => {
    const model = "hfkit/tgi-3.2";
    ctx.hub.inject({ type: "stall", afterChunks: 1 }, { model });
    const controller = new AbortController();
    const stream = await clientFor(model).chat.completions.create(
      { model, messages, stream: true },
      { signal: controller.signal },
    );
    let chunks = 0;
    // The server stalls after one chunk: only the abort can end this loop (the client ends it quietly).
    await within(
      (async () => {
        for await (const _ of stream) {
          chunks++;
          controller.abort();
        }
      })().catch(() => {}),
    );
    expect(chunks).toBe(1);
    expect(await settled(ctx.hub)).toBe(0);
  });

  it("every other request passes through untouched", async () => {
    const seen: string[] = [];
    const inner = async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify({ object: "list", data: [] }), {
        headers: { "content-type": "application/json" },
      });
    };
    const client = new OpenAI({
      baseURL: "http://upstream.test/v1",
      apiKey: "k",
      fetch: createHfFetch({ fetch: inner }),
    });
    await client.models.list();
    expect(seen).toEqual(["http://upstream.test/v1/models"]);
  });
});
