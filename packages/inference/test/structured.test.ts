/**
 * Structured output over loopback: the `json_schema` response format as each server takes it on the wire (OpenAI's
 * shape for vLLM-style servers and the router, TGI's `json` grammar, none for the transformers pipeline), a schema
 * given as JSON Schema or as a Zod, ArkType or Valibot validator, and the answer parsed and checked — whole and streamed.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import {
  type ChatCompletionStreamOutput,
  chatCompletion,
  chatCompletionStream,
  InferenceClient,
  InputError,
  type Options,
  StructuredOutputError,
  textGeneration,
} from "../src/index";
import { chunked, type RawServer, startRawServer, whole } from "./faults/raw-server";
import { grows } from "./helpers";

const TOKEN = "hf_structured_secret_token";
const place = z.object({ city: z.string(), visitors: z.number().int().min(0), tags: z.array(z.string()) });
const ANSWER = { city: "Paris", visitors: 12, tags: ["river", "museum"] };
const JSON_SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string" },
    visitors: { type: "integer", minimum: 0 },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["city", "visitors", "tags"],
  additionalProperties: false,
};
const arkPlace = type({ city: "string", visitors: "number.integer >= 0", tags: "string[]" });
const messages = [{ role: "user", content: "Where?" }];

let raw: RawServer;
/** What the server answers: the message's text, its finish reason, and the piece size of a stream. */
let reply = { content: JSON.stringify(ANSWER), finish: "stop", piece: 5 };

beforeAll(async () => {
  raw = await startRawServer((req, out) => {
    const body = JSON.parse(req.body) as { stream?: boolean };
    const base = { id: "x", created: 1, model: "m", system_fingerprint: "" };
    if (!body.stream) {
      const answer = {
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: reply.content }, finish_reason: reply.finish }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      };
      whole(out, 200, "application/json", JSON.stringify(answer));
      return;
    }
    const stream = chunked(out, 200, [["Content-Type", "text/event-stream"]]);
    const pieces: string[] = [];
    for (let i = 0; i < reply.content.length; i += reply.piece) pieces.push(reply.content.slice(i, i + reply.piece));
    pieces.forEach((p, i) => {
      const finish = i === pieces.length - 1 ? reply.finish : null;
      stream.chunk(
        `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: p }, finish_reason: finish }] })}\n\n`,
      );
    });
    stream.chunk("data: [DONE]\n\n");
    stream.end();
  });
});
afterAll(() => raw.close());
beforeEach(() => {
  raw.requests.length = 0;
  reply = { content: JSON.stringify(ANSWER), finish: "stop", piece: 5 };
});

const endpoint = (backend: Options["backend"]): Options => ({
  endpointUrl: raw.url,
  backend,
  maxRetries: 0,
  logger: { warn() {} },
});
/** The `response_format` each request carried on the wire. */
const sentFormats = () =>
  raw.requests.map((r) => (JSON.parse(r.body) as { response_format?: unknown }).response_format);
const format = <T>(schema: unknown, extra: Record<string, unknown> = {}) => ({
  type: "json_schema" as const,
  json_schema: { name: "place", schema: schema as z.ZodType<T>, ...extra },
});

describe("the schema on the wire, in each server's shape", () => {
  it("an OpenAI-protocol server (vLLM, SGLang, llama.cpp) gets OpenAI's json_schema, the schema as JSON Schema", async () => {
    await chatCompletion(
      {
        accessToken: TOKEN,
        messages,
        response_format: { type: "json_schema", json_schema: { name: "place", schema: JSON_SCHEMA, strict: true } },
      },
      endpoint("openai"),
    );
    expect(sentFormats()).toEqual([
      { type: "json_schema", json_schema: { name: "place", schema: JSON_SCHEMA, strict: true } },
    ]);
  });

  it("TGI gets its own json grammar: { type: json, value: schema }", async () => {
    await chatCompletion({ accessToken: TOKEN, messages, response_format: format(JSON_SCHEMA) }, endpoint("tgi"));
    expect(sentFormats()).toEqual([{ type: "json", value: JSON_SCHEMA }]);
  });

  it("the router's providers get OpenAI's json_schema", async () => {
    const client = new InferenceClient(TOKEN, { routerUrl: raw.url, maxRetries: 0 });
    await client.chatCompletion({ model: "org/m", provider: "groq", messages, response_format: format(JSON_SCHEMA) });
    expect(raw.requests.map((r) => r.target)).toEqual(["/v1/chat/completions"]);
    expect(JSON.parse(raw.requests[0]?.body ?? "{}")).toMatchObject({
      model: "org/m:groq",
      response_format: { type: "json_schema", json_schema: { name: "place", schema: JSON_SCHEMA } },
    });
  });

  it("the transformers pipeline cannot constrain its output: an InputError saying so, before any request", async () => {
    const error = await chatCompletion(
      { accessToken: TOKEN, messages, response_format: format(JSON_SCHEMA) },
      endpoint("transformers"),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/transformers pipeline.*response_format/);
    expect(raw.requests).toEqual([]);
  });

  it.each([
    ["Zod 4", place as unknown as typeof arkPlace],
    ["ArkType", arkPlace],
  ])("the %s validator is sent as the JSON Schema its library makes", async (_name, schema) => {
    await chatCompletion({ accessToken: TOKEN, messages, response_format: format(schema) }, endpoint("openai"));
    const sent = sentFormats()[0] as { json_schema: { schema: Record<string, unknown> } };
    expect(sent.json_schema.schema).toEqual(schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }));
    expect(sent.json_schema.schema.type).toBe("object");
    expect([...(sent.json_schema.schema.required as string[])].sort()).toEqual(["city", "tags", "visitors"]);
  });

  it("a Valibot validator takes its JSON Schema beside it, and checks the answer itself", async () => {
    const schema = v.object({ city: v.string(), visitors: v.number(), tags: v.array(v.string()) });
    const out = await chatCompletion(
      {
        accessToken: TOKEN,
        messages,
        response_format: {
          type: "json_schema",
          json_schema: { name: "place", schema, jsonSchema: toJsonSchema(schema) },
        },
      },
      endpoint("openai"),
    );
    expect(out.choices[0]?.message.parsed).toEqual(ANSWER);
    expect((sentFormats()[0] as { json_schema: Record<string, unknown> }).json_schema).toEqual({
      name: "place",
      schema: toJsonSchema(schema),
    });
    reply.content = JSON.stringify({ ...ANSWER, visitors: "many" });
    const error = await chatCompletion(
      {
        accessToken: TOKEN,
        messages,
        response_format: {
          type: "json_schema",
          json_schema: { name: "place", schema, jsonSchema: toJsonSchema(schema) },
        },
      },
      endpoint("openai"),
    ).catch((e: unknown) => e);
    expect((error as StructuredOutputError).reason).toBe("schema");
    expect((error as StructuredOutputError).issues[0]?.path?.map((p) => (typeof p === "object" ? p.key : p))).toEqual([
      "visitors",
    ]);
  });
});

describe("the answer parsed and checked", () => {
  it("message.parsed holds the value, typed from the validator", async () => {
    const out = await chatCompletion(
      {
        accessToken: TOKEN,
        messages,
        response_format: { type: "json_schema", json_schema: { name: "place", schema: place } },
      },
      endpoint("openai"),
    );
    expectTypeOf(out.choices[0]?.message.parsed).toEqualTypeOf<z.infer<typeof place> | undefined>();
    expect(out.choices[0]?.message.parsed).toEqual(ANSWER);
    expect(out.choices[0]?.message.content).toBe(JSON.stringify(ANSWER));
  });

  it("a validator's output is what it gives back (a transform applies)", async () => {
    const upper = z.object({ city: z.string().transform((s) => s.toUpperCase()) });
    reply.content = '{"city": "Paris"}';
    const out = await chatCompletion(
      {
        accessToken: TOKEN,
        messages,
        response_format: { type: "json_schema", json_schema: { name: "place", schema: upper } },
      },
      endpoint("openai"),
    );
    expect(out.choices[0]?.message.parsed).toEqual({ city: "PARIS" });
  });

  it("text that is not JSON: a StructuredOutputError (json) keeping the text, the token redacted", async () => {
    reply.content = `Sure! Here it is: {"city": ${TOKEN}`;
    const error = await chatCompletion(
      { accessToken: TOKEN, messages, response_format: format(place) },
      endpoint("openai"),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputError);
    const e = error as StructuredOutputError;
    expect(e.reason).toBe("json");
    expect(e.text).toMatch(/^Sure! Here it is: \{"city": /);
    expect(JSON.stringify({ text: e.text, message: e.message })).not.toContain(TOKEN);
    expect(e.finishReason).toBe("stop");
  });

  it("JSON that breaks a validator's schema: a StructuredOutputError (schema) with the validator's issues", async () => {
    reply.content = JSON.stringify({ city: "Paris", visitors: -3, tags: "none" });
    const e = (await chatCompletion(
      { accessToken: TOKEN, messages, response_format: format(place) },
      endpoint("openai"),
    ).catch((x: unknown) => x)) as StructuredOutputError;
    expect(e.reason).toBe("schema");
    expect(e.issues.map((i) => i.path?.join("."))).toEqual(["visitors", "tags"]);
    expect(e.message).toMatch(/does not follow the schema: visitors: .*; tags: /);
  });

  it("JSON that breaks a plain JSON Schema: the SDK's own check names each issue", async () => {
    reply.content = JSON.stringify({ city: 5, visitors: 1.5, tags: [], extra: true });
    const e = (await chatCompletion(
      { accessToken: TOKEN, messages, response_format: format(JSON_SCHEMA) },
      endpoint("openai"),
    ).catch((x: unknown) => x)) as StructuredOutputError;
    expect(e.reason).toBe("schema");
    expect(e.issues).toEqual([
      { message: "expected string, got integer", path: ["city"] },
      { message: "expected integer, got number", path: ["visitors"] },
      { message: 'unexpected property "extra"', path: ["extra"] },
    ]);
  });

  it("an answer cut at max_tokens says so (length), not that the model misbehaved", async () => {
    reply = { ...reply, content: '{"city": "Par', finish: "length" };
    const e = (await chatCompletion(
      { accessToken: TOKEN, messages, max_tokens: 5, response_format: format(place) },
      endpoint("openai"),
    ).catch((x: unknown) => x)) as StructuredOutputError;
    expect(e.reason).toBe("length");
    expect(e.message).toMatch(/cut at max_tokens/);
    expect(e.text).toBe('{"city": "Par');
  });
});

describe("a streamed structured answer", () => {
  async function drain<T>(stream: AsyncIterable<ChatCompletionStreamOutput<T>>) {
    const partials: unknown[] = [];
    let parsed: unknown;
    for await (const chunk of stream) {
      for (const c of chunk.choices) {
        if (c.partial !== undefined) partials.push(c.partial);
        if (c.parsed !== undefined) parsed = c.parsed;
      }
    }
    return { partials, parsed };
  }

  it("each chunk carries the value so far; the last one the checked value, typed", async () => {
    const stream = chatCompletionStream(
      {
        accessToken: TOKEN,
        messages,
        response_format: { type: "json_schema", json_schema: { name: "place", schema: place } },
      },
      endpoint("openai"),
    );
    expectTypeOf(stream).toEqualTypeOf<
      AsyncGenerator<ChatCompletionStreamOutput<z.infer<typeof place>>, undefined, unknown>
    >();
    const { partials, parsed } = await drain(stream);
    expect(parsed).toEqual(ANSWER);
    // Pieces of 5 characters: `{"cit`, `y":"P`, `aris"`, … , `,"mus`, `eum"]`, `}`.
    expect(partials.slice(0, 3)).toEqual([{}, { city: "P" }, { city: "Paris" }]);
    expect(partials).toContainEqual({ city: "Paris", visitors: 12, tags: ["river", "mus"] });
    expect(partials.at(-1)).toEqual(ANSWER);
  });

  it("cut into pieces of any size, the partial values only grow toward the answer", async () => {
    const text = JSON.stringify(
      { note: 'say "hi"\n\u00e9', list: [1, 2.5, -3e2, true, null, { deep: ["x"] }] },
      null,
      1,
    );
    reply.content = text;
    for (const piece of [1, 2, 3, 7, 64]) {
      raw.requests.length = 0;
      reply.piece = piece;
      const { partials, parsed } = await drain(
        chatCompletionStream(
          { accessToken: TOKEN, messages, response_format: format({ type: "object" }) },
          endpoint("openai"),
        ),
      );
      expect(parsed).toEqual(JSON.parse(text));
      for (const p of partials) expect(grows(p, JSON.parse(text))).toBe(true);
    }
  });

  it("a streamed answer that breaks the schema ends in a StructuredOutputError after its last chunk", async () => {
    reply.content = JSON.stringify({ city: "Paris" });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const chunk of chatCompletionStream(
        { accessToken: TOKEN, messages, response_format: format(place) },
        endpoint("openai"),
      ))
        seen.push(chunk.choices[0]?.partial);
    })().catch((e: unknown) => e);
    expect((error as StructuredOutputError).reason).toBe("schema");
    expect(seen.length).toBeGreaterThan(0);
  });

  it("TGI streams under its json grammar too", async () => {
    const { parsed } = await drain(
      chatCompletionStream({ accessToken: TOKEN, messages, response_format: format(place) }, endpoint("tgi")),
    );
    expect(parsed).toEqual(ANSWER);
    expect(sentFormats()[0]).toEqual({
      type: "json",
      value: place["~standard"].jsonSchema.input({ target: "draft-2020-12" }),
    });
  });
});

describe("bad input: an InputError naming the field, before any request", () => {
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic.self = cyclic;
  it.each([
    ["json_schema not an object", { type: "json_schema", json_schema: "place" }, "response_format.json_schema"],
    [
      "a name OpenAI's protocol refuses",
      { type: "json_schema", json_schema: { name: "a place", schema: JSON_SCHEMA } },
      "response_format.json_schema.name",
    ],
    ["no name", { type: "json_schema", json_schema: { schema: JSON_SCHEMA } }, "response_format.json_schema.name"],
    [
      "a schema that is neither JSON Schema nor a validator",
      { type: "json_schema", json_schema: { name: "p", schema: 5 } },
      "response_format.json_schema.schema",
    ],
    [
      "a schema that is not JSON",
      { type: "json_schema", json_schema: { name: "p", schema: cyclic } },
      "response_format.json_schema.schema",
    ],
    [
      "a Valibot validator with no JSON Schema beside it",
      { type: "json_schema", json_schema: { name: "p", schema: v.object({ a: v.string() }) } },
      "response_format.json_schema.schema",
    ],
    [
      "strict that is not a boolean",
      { type: "json_schema", json_schema: { name: "p", schema: JSON_SCHEMA, strict: "yes" } },
      "response_format.json_schema.strict",
    ],
  ])("%s", async (_name, response_format, field) => {
    const error = await chatCompletion(
      { accessToken: TOKEN, messages, response_format } as never,
      endpoint("openai"),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
    const streamed = await chatCompletionStream(
      { accessToken: TOKEN, messages, response_format } as never,
      endpoint("openai"),
    )
      .next()
      .catch((e: unknown) => e);
    expect((streamed as InputError).field).toBe(field);
    expect(raw.requests).toEqual([]);
  });
});

describe("textGeneration with TGI's JSON grammar", () => {
  let hub: MockHub;
  beforeAll(async () => {
    hub = await startMockHub();
  });
  afterAll(() => hub.close());

  it("a validator as the grammar's value: sent as JSON Schema in parameters.grammar, the text parsed and checked into parsed", async () => {
    const out = await textGeneration(
      {
        accessToken: TOKEN,
        inputs: "Where is the Eiffel Tower?",
        parameters: { max_new_tokens: 200, grammar: { type: "json", value: place } },
      },
      { endpointUrl: `${hub.url}/models/hfkit/tgi-3.2`, backend: "tgi", maxRetries: 0 },
    );
    const sent = hub.requests.find((r) => r.method === "POST")?.body as { parameters: { grammar: unknown } };
    expect(sent.parameters.grammar).toEqual({
      type: "json",
      value: place["~standard"].jsonSchema.input({ target: "draft-2020-12" }),
    });
    expect(place.safeParse(out.parsed).success).toBe(true);
    expect(out.parsed).toEqual(JSON.parse(out.generated_text));
  });

  it("a value that is neither JSON Schema nor a validator: an InputError naming it, before any request", async () => {
    hub.reset();
    const error = await textGeneration(
      { accessToken: TOKEN, inputs: "x", parameters: { grammar: { type: "json", value: "city" } } },
      { endpointUrl: `${hub.url}/models/hfkit/tgi-3.2`, backend: "tgi" },
    ).catch((e: unknown) => e);
    expect((error as InputError).field).toBe("parameters.grammar.value");
    expect(hub.requests).toEqual([]);
  });
});
