/**
 * One rule of greedy decoding and of OpenAI's defaults, read off what each route puts on the wire (real HTTP
 * on loopback): `temperature: 0`, `top_p: 0` or `typical_p: 0` mean "the likeliest token", said as each server
 * says it (`temperature: 0` on OpenAI-protocol routes and TGI's chat, `do_sample: false` with no temperature on
 * `generate` and the pipeline); `top_p: 1`, `typical_p: 1`, `presence_penalty: 0` and `n: 1` are defaults, not
 * sent; everything else is sent as given.
 */
import { afterEach, describe, expect, it } from "vitest";
import { InputError, type Options } from "../../src/index";
import { mappingMemory } from "../../src/targets/providers/mapping";
import { type RawRequest, whole } from "../faults/raw-server";
import { routedFetch } from "../hardening/support";
import { answerJson, clientOn, QUESTION, useRawServer } from "./stream-support";

const raw = useRawServer();
afterEach(() => {
  mappingMemory.clear();
  mappingMemory.lookups.clear();
});

const JSON_TYPE = "application/json";
const GENERATED = JSON.stringify([{ generated_text: " a time" }]);
const COMPLETION = JSON.stringify({
  id: "c",
  object: "text_completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, text: " a time", finish_reason: "stop" }],
});

/** Every route's answer, by where the request went. */
function answerAll(): void {
  raw().handle((req, reply) => {
    if (req.target.startsWith("/api/models/")) {
      const mapping = { groq: { providerId: "groq/llama", task: "text-generation", status: "live" } };
      return whole(reply, 200, JSON_TYPE, JSON.stringify({ inferenceProviderMapping: mapping }));
    }
    if (req.target.endsWith("/chat/completions")) return whole(reply, 200, JSON_TYPE, answerJson("ok"));
    if (req.target.endsWith("/v1/completions")) return whole(reply, 200, JSON_TYPE, COMPLETION);
    whole(reply, 200, JSON_TYPE, GENERATED);
  });
}

const bodyOf = (req: RawRequest | undefined): Record<string, unknown> =>
  JSON.parse(req?.body ?? "null") as Record<string, unknown>;
const lastPost = (): RawRequest | undefined =>
  raw()
    .requests.filter((r) => r.method === "POST")
    .at(-1);

/** The body a chat call on `backend` sent. */
async function chatSent(backend: Options["backend"], args: Record<string, unknown>): Promise<Record<string, unknown>> {
  answerAll();
  await clientOn(raw(), { backend }).chatCompletion({ messages: QUESTION, ...args });
  return bodyOf(lastPost());
}

/** The body a text generation on `backend` sent. */
async function generateSent(
  backend: Options["backend"],
  parameters: Record<string, unknown> | undefined,
): Promise<Record<string, unknown>> {
  answerAll();
  await clientOn(raw(), { backend }).textGeneration({ inputs: "Once upon", parameters });
  return bodyOf(lastPost());
}

const pick = (body: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((k) => k in body).map((k) => [k, body[k]]));
const SAMPLING = ["temperature", "top_p", "presence_penalty", "n", "do_sample"];

describe("chat on the OpenAI protocol and on TGI (the same body)", () => {
  it.each<[Record<string, unknown>, Record<string, unknown>]>([
    [{ top_p: 0 }, { temperature: 0 }],
    [{ top_p: 0, temperature: 0.7 }, { temperature: 0 }],
    [{ temperature: 0 }, { temperature: 0 }],
    [
      { temperature: 0, top_p: 0.5 },
      { temperature: 0, top_p: 0.5 },
    ],
    [{ temperature: 0, top_p: 1 }, { temperature: 0 }],
    // TGI's own word for it, passed through on chat: greedy all the same (one rule, `isGreedy`).
    [{ typical_p: 0, temperature: 0.7 }, { temperature: 0 }],
    [{ top_p: 1, temperature: 0.7 }, { temperature: 0.7 }],
    [{ top_p: 0.5 }, { top_p: 0.5 }],
    [{ presence_penalty: 0 }, {}],
    [{ presence_penalty: 0.5 }, { presence_penalty: 0.5 }],
    [{ presence_penalty: -1 }, { presence_penalty: -1 }],
    [{ n: 1 }, {}],
    [{}, {}],
  ])("%o → %o", async (args, expected) => {
    for (const backend of ["openai", "tgi"] as const)
      expect(pick(await chatSent(backend, args), SAMPLING), backend).toEqual(expected);
  });

  it("n: 2 is sent to an OpenAI-protocol server, refused for TGI (which ignores it)", async () => {
    expect((await chatSent("openai", { n: 2 })).n).toBe(2);
    raw().requests.length = 0;
    const error = await clientOn(raw(), { backend: "tgi" })
      .chatCompletion({ messages: QUESTION, n: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ field: "n", message: "`n` must be 1 for a TGI-served model (got 2)" });
    expect(raw().requests).toHaveLength(0);
  });

  it("presence_penalty -2 is refused for TGI (its repetition penalty would be 0); just above is sent", async () => {
    const error = await clientOn(raw(), { backend: "tgi" })
      .chatCompletion({ messages: QUESTION, presence_penalty: -2 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      field: "presence_penalty",
      message: "`presence_penalty` must be > -2 and <= 2 for a TGI-served model (got -2)",
    });
    expect(raw().requests).toHaveLength(0);
    expect((await chatSent("tgi", { presence_penalty: -1.99 })).presence_penalty).toBe(-1.99);
    expect((await chatSent("openai", { presence_penalty: -2 })).presence_penalty).toBe(-2);
  });
});

describe("chat on the transformers pipeline", () => {
  it.each<[Record<string, unknown>, Record<string, unknown>]>([
    [
      { temperature: 0, top_p: 0.9 },
      { do_sample: false, return_full_text: false },
    ],
    [
      { top_p: 0, temperature: 0.7 },
      { do_sample: false, return_full_text: false },
    ],
    [
      { temperature: 0.5, top_p: 1 },
      { temperature: 0.5, return_full_text: false },
    ],
    [
      { temperature: 0.5, top_p: 0.5, max_tokens: 7, stop: "\n" },
      { max_new_tokens: 7, temperature: 0.5, top_p: 0.5, return_full_text: false, stop: ["\n"] },
    ],
    [{}, { return_full_text: false }],
  ])("%o → parameters %o", async (args, parameters) => {
    const body = await chatSent("transformers", args);
    expect(body).toEqual({ inputs: QUESTION, parameters });
  });
});

describe("generate on TGI and the pipeline", () => {
  it.each<[Record<string, unknown> | undefined, Record<string, unknown>]>([
    [{ temperature: 0 }, { do_sample: false }],
    [{ top_p: 0 }, { do_sample: false }],
    [{ typical_p: 0 }, { do_sample: false }],
    [
      { temperature: 0, top_p: 0.5, typical_p: 0.4 },
      { do_sample: false, top_p: 0.5, typical_p: 0.4 },
    ],
    [
      { top_p: 0, typical_p: 0.4, temperature: 0.7 },
      { do_sample: false, typical_p: 0.4 },
    ],
    [
      { typical_p: 0, top_p: 0.5, temperature: 0.7 },
      { do_sample: false, top_p: 0.5 },
    ],
    [{ do_sample: true, temperature: 0 }, { do_sample: false }],
    [{ top_p: 1, typical_p: 1, temperature: 0.7 }, { temperature: 0.7 }],
    [
      { top_p: 0.3, typical_p: 0.3, temperature: 0.7, do_sample: true },
      { top_p: 0.3, typical_p: 0.3, temperature: 0.7, do_sample: true },
    ],
    [
      { return_full_text: true, max_new_tokens: 3 },
      { return_full_text: true, max_new_tokens: 3 },
    ],
    [undefined, {}],
  ])("%o → parameters %o (return_full_text false unless asked)", async (parameters, expected) => {
    for (const backend of ["tgi", "transformers"] as const) {
      expect(await generateSent(backend, parameters), backend).toEqual({
        inputs: "Once upon",
        parameters: { return_full_text: false, ...expected },
      });
    }
  });
});

describe("generate on an OpenAI-protocol server (its completions route)", () => {
  it.each<[Record<string, unknown>, Record<string, unknown>]>([
    [{ temperature: 0 }, { temperature: 0 }],
    [{ top_p: 0, temperature: 0.7 }, { temperature: 0 }],
    [{ typical_p: 0, top_p: 0.5, temperature: 0.7 }, { temperature: 0 }],
    [{ do_sample: false, top_p: 0.5, temperature: 0.7 }, { temperature: 0 }],
    [
      { top_p: 0.5, temperature: 0.7 },
      { top_p: 0.5, temperature: 0.7 },
    ],
  ])("%o → %o", async (parameters, expected) => {
    expect(pick(await generateSent("openai", parameters), SAMPLING)).toEqual(expected);
  });
});

describe("generate on a provider's chat route (Groq)", () => {
  it.each<[Record<string, unknown>, Record<string, unknown>]>([
    [{ typical_p: 0, temperature: 0.7 }, { temperature: 0 }],
    [{ top_p: 0, temperature: 0.7 }, { temperature: 0 }],
    [{ temperature: 0, top_p: 0.5 }, { temperature: 0 }],
    [
      { temperature: 0.7, top_p: 0.5 },
      { temperature: 0.7, top_p: 0.5 },
    ],
  ])("%o → %o", async (parameters, expected) => {
    answerAll();
    const c = clientOn(raw(), { endpointUrl: undefined, backend: undefined, fetch: routedFetch(raw()) });
    await c.textGeneration({ model: "org/text-model", provider: "groq", inputs: "Once upon", parameters });
    expect(lastPost()?.target).toBe("/groq/openai/v1/chat/completions");
    expect(pick(bodyOf(lastPost()), SAMPLING)).toEqual(expected);
  });
});
