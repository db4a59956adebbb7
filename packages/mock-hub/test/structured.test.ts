/** Structured output on the wire: each server's way of asking for a schema, the JSON answered, whole, streamed and cut, and its faults. */
import { describe, expect, it } from "vitest";
import { DEFAULT_TEXT } from "../src/index.js";
import { QUESTION, chatUrl, contentOf, dataPayloads, jsonEvents, postJson, useHub } from "./helpers.js";
import { schemaErrors } from "./schema-check.js";

const hub = useHub({ models: { "acme/tgi-3.3": { tgiVersion: "3.3.0" } } });

const PLACE = {
  type: "object",
  properties: {
    city: { type: "string" },
    country: { type: "string" },
    population: { type: "integer", minimum: 0 },
    tags: { type: "array", items: { type: "string" }, minItems: 2 },
    founded: { type: "string", format: "date" },
  },
  required: ["city", "country", "population"],
  additionalProperties: false,
};
/** What the mock model answers for PLACE, everywhere. */
const EXPECTED =
  '{"city":"Paris","country":"France","population":2102650,"tags":["travel","travel 2"],"founded":"2025-06-14"}';
const TGI_FORMAT = { type: "json", value: PLACE };
const OPENAI_FORMAT = { type: "json_schema", json_schema: { name: "place", schema: PLACE, strict: true } };

type Json = Record<string, any>;
const chat = async (url: string, body: Json): Promise<Json> =>
  (await postJson(url, { messages: QUESTION, ...body })).json() as Promise<Json>;
const messageOf = (answer: Json) => answer.choices[0].message;
const streamed = async (url: string, body: Json): Promise<string> =>
  (await postJson(url, { messages: QUESTION, stream: true, ...body })).text();
/** The content of each chunk that has some. */
const contentPieces = (text: string): string[] =>
  jsonEvents(text).flatMap((event) => (event.choices?.[0]?.delta?.content ? [event.choices[0].delta.content] : []));
const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("TGI's response_format on the chat route", () => {
  it.each([
    ["hfkit/tgi-2.1", "json"],
    ["hfkit/tgi-2.2", "json_object"],
    ["hfkit/tgi-2.4.1", "json"],
    ["hfkit/tgi-3.1", "json_object"],
    ["hfkit/tgi-3.2", "json"],
    ["hfkit/tgi-3.2", "json_object"],
  ])("%s takes {type: %s, value: schema}: the whole answer is JSON valid for the schema", async (model, type) => {
    const answer = await chat(chatUrl(hub(), model), { model: "tgi", response_format: { type, value: PLACE } });
    expect(messageOf(answer).content).toBe(EXPECTED);
    expect(schemaErrors(PLACE, JSON.parse(messageOf(answer).content))).toEqual([]);
    expect(answer.choices[0].finish_reason).toBe("stop");
  });

  it("the schema may come as a JSON string, as TGI takes it", async () => {
    const answer = await chat(chatUrl(hub(), "hfkit/tgi-3.2"), {
      response_format: { type: "json", value: JSON.stringify(PLACE) },
    });
    expect(messageOf(answer).content).toBe(EXPECTED);
  });

  it("TGI 2.0 has no response_format on its chat route: it answers its text", async () => {
    const answer = await chat(chatUrl(hub(), "hfkit/tgi-2.0"), { model: "tgi", response_format: TGI_FORMAT });
    expect(messageOf(answer).content).toBe(DEFAULT_TEXT);
  });

  it("OpenAI's json_schema shape: axum's plain-text 422 for an unknown variant, on every route, streamed or not", async () => {
    const body = JSON.stringify({ messages: QUESTION, response_format: OPENAI_FORMAT });
    const column = body.indexOf('"json_schema"') + '"json_schema"'.length;
    const expected = `Failed to deserialize the JSON body into the target type: response_format.type: unknown variant \`json_schema\`, expected one of \`json\`, \`json_object\`, \`regex\` at line 1 column ${column}`;
    for (const url of [
      chatUrl(hub(), "hfkit/tgi-3.2"),
      `${hub().url}/endpoints/hfkit/tgi-3.1/v1/chat/completions`,
      `${hub().url}/hf-inference/models/hfkit/tgi-2.2/v1/chat/completions`,
    ]) {
      const response = await postJson(url, body);
      expect([response.status, response.headers.get("content-type")]).toEqual([422, "text/plain; charset=utf-8"]);
      expect(await response.text()).toBe(expected);
    }
    const viaRouter = await postJson(`${hub().url}/v1/chat/completions`, {
      model: "hfkit/tgi-3.2",
      messages: QUESTION,
      stream: true,
      response_format: OPENAI_FORMAT,
    });
    expect(viaRouter.status).toBe(422);
    expect(await viaRouter.text()).toMatch(/^Failed to deserialize .*unknown variant `json_schema`/);
  });

  it("TGI 3.3 takes {type: json_schema, value: {name, schema}}; OpenAI's shape lacks `value`", async () => {
    const answer = await chat(chatUrl(hub(), "acme/tgi-3.3"), {
      response_format: { type: "json_schema", value: { name: "place", schema: PLACE } },
    });
    expect(messageOf(answer).content).toBe(EXPECTED);
    const body = JSON.stringify({ messages: QUESTION, response_format: OPENAI_FORMAT });
    const response = await postJson(chatUrl(hub(), "acme/tgi-3.3"), body);
    expect(response.status).toBe(422);
    expect(await response.text()).toBe(
      `Failed to deserialize the JSON body into the target type: response_format: missing field \`value\` at line 1 column ${body.length - 1}`,
    );
  });

  it("a grammar beside tools is refused: its own error type before 2.4.1, a tool error after", async () => {
    const tools = [{ type: "function", function: { name: "weather", parameters: PLACE } }];
    const old = await postJson(chatUrl(hub(), "hfkit/tgi-2.2"), {
      messages: QUESTION,
      response_format: TGI_FORMAT,
      tools,
    });
    expect([old.status, await old.json()]).toEqual([
      422,
      { error: "Grammar and tools are mutually exclusive", error_type: "grammar and tools" },
    ]);
    const recent = await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), {
      messages: QUESTION,
      response_format: TGI_FORMAT,
      tools,
    });
    expect([recent.status, await recent.json()]).toEqual([
      422,
      { error: "Tool error: Grammar and tools are mutually exclusive", error_type: "tool_error" },
    ]);
  });

  it.each(["hfkit/tgi-2.2", "hfkit/tgi-3.2"])(
    "%s streams the JSON over many chunks; reassembled, the whole answer",
    async (model) => {
      const text = await streamed(chatUrl(hub(), model), { response_format: TGI_FORMAT });
      const pieces = contentPieces(text);
      expect(pieces.join("")).toBe(EXPECTED);
      expect(pieces.length).toBeGreaterThanOrEqual(20);
      expect(pieces.slice(0, -1).some((_, i) => parses(pieces.slice(0, i + 1).join("")))).toBe(false);
      expect(dataPayloads(text).at(-1)).toBe("[DONE]");
    },
  );

  it("max_tokens cuts the JSON text, whole and streamed: finish_reason length, not JSON", async () => {
    const whole = await chat(chatUrl(hub(), "hfkit/tgi-3.2"), { response_format: TGI_FORMAT, max_tokens: 5 });
    expect(messageOf(whole).content).toBe('{"city":"Paris","');
    expect([whole.choices[0].finish_reason, whole.usage.completion_tokens]).toEqual(["length", 5]);
    const text = await streamed(chatUrl(hub(), "hfkit/tgi-3.2"), { response_format: TGI_FORMAT, max_tokens: 5 });
    expect(contentOf(text)).toBe('{"city":"Paris","');
    expect(jsonEvents(text).at(-1)?.choices[0].finish_reason).toBe("length");
  });

  it("the same request always gets the same bytes", async () => {
    const send = async () =>
      (await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), { messages: QUESTION, response_format: TGI_FORMAT })).text();
    expect(await send()).toBe(await send());
  });
});

describe("OpenAI's json_schema: vLLM, SGLang, llama.cpp, the router and its providers", () => {
  it.each(["hfkit/vllm", "hfkit/sglang", "hfkit/llamacpp"])(
    "%s answers JSON valid for the schema (after its reasoning, if any)",
    async (model) => {
      const answer = await chat(chatUrl(hub(), model), { response_format: OPENAI_FORMAT });
      expect(messageOf(answer).content).toBe(EXPECTED);
      expect(answer.choices[0].finish_reason).toBe("stop");
    },
  );

  it.each(["hfkit/vllm", "hfkit/sglang", "hfkit/llamacpp"])(
    "%s streams it in pieces; reassembled, the whole answer",
    async (model) => {
      const text = await streamed(chatUrl(hub(), model), { response_format: OPENAI_FORMAT });
      expect(contentPieces(text).join("")).toBe(EXPECTED);
      expect(contentPieces(text).length).toBeGreaterThanOrEqual(20);
      expect(jsonEvents(text).find((event) => event.choices?.[0]?.finish_reason)?.choices[0].finish_reason).toBe(
        "stop",
      );
    },
  );

  it("json_object: llama.cpp reads a schema beside it; vLLM's JSON mode answers an object", async () => {
    const llama = await chat(chatUrl(hub(), "hfkit/llamacpp"), {
      response_format: { type: "json_object", schema: PLACE },
    });
    expect(messageOf(llama).content).toBe(EXPECTED);
    const vllm = await chat(chatUrl(hub(), "hfkit/vllm"), { response_format: { type: "json_object", schema: PLACE } });
    expect(JSON.parse(messageOf(vllm).content)).toEqual({ answer: DEFAULT_TEXT });
  });

  it("max_tokens cuts it (finish_reason length)", async () => {
    const answer = await chat(chatUrl(hub(), "hfkit/sglang"), { response_format: OPENAI_FORMAT, max_tokens: 3 });
    expect([messageOf(answer).content, answer.choices[0].finish_reason]).toEqual(['{"city":"', "length"]);
  });

  it("the router, on a provider's suffix or its own pick, and on the endpoint and hf-inference routes", async () => {
    for (const model of ["hfkit/router-multi:together", "hfkit/router-multi", "hfkit/router-multi:novita"]) {
      const response = await postJson(`${hub().url}/v1/chat/completions`, {
        model,
        messages: QUESTION,
        response_format: OPENAI_FORMAT,
      });
      expect(response.headers.get("x-inference-provider")).toBe(model.split(":")[1] ?? "together");
      expect(messageOf((await response.json()) as Json).content).toBe(EXPECTED);
    }
    for (const url of [
      `${hub().url}/endpoints/hfkit/vllm/v1/chat/completions`,
      `${hub().url}/hf-inference/models/hfkit/sglang/v1/chat/completions`,
    ]) {
      expect(messageOf(await chat(url, { response_format: OPENAI_FORMAT })).content).toBe(EXPECTED);
    }
  });

  it("the router's body-model route for a model it does not list (served by the default TGI model): OpenAI's json_schema, as the router speaks it", async () => {
    const answer = await chat(`${hub().url}/v1/chat/completions`, {
      model: "meta-llama/Llama-3.1-8B-Instruct",
      response_format: OPENAI_FORMAT,
    });
    expect(messageOf(answer).content).toBe(EXPECTED);
    // `model: "tgi"` (or none) is a TGI endpoint's own route: OpenAI's shape is still TGI's 422 there.
    const own = await postJson(`${hub().url}/v1/chat/completions`, {
      model: "tgi",
      messages: QUESTION,
      response_format: OPENAI_FORMAT,
    });
    expect(own.status).toBe(422);
  });

  it.each(["/groq/openai/v1/chat/completions", "/novita/v3/openai/chat/completions"])(
    "the provider route %s answers JSON for the schema",
    async (path) => {
      const answer = await chat(`${hub().url}${path}`, { model: "acme/m", response_format: OPENAI_FORMAT });
      expect(messageOf(answer).content).toBe(EXPECTED);
    },
  );

  it("a response_format type the servers do not know is a 400", async () => {
    const response = await postJson(chatUrl(hub(), "hfkit/vllm"), {
      messages: QUESTION,
      response_format: { type: "grammar" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { type: "BadRequestError", code: 400 } });
  });
});

describe("TGI's grammar on /generate, /generate_stream and /", () => {
  const generate = (path: string, parameters: Json, extra: Json = {}) =>
    postJson(`${hub().url}${path}`, { inputs: "Where?", parameters, ...extra });

  it("/generate: generated_text is the JSON; `json_object` is the same grammar; a regex gets text it matches", async () => {
    expect(await (await generate("/generate", { grammar: TGI_FORMAT })).json()).toEqual({ generated_text: EXPECTED });
    expect(await (await generate("/generate", { grammar: { type: "json_object", value: PLACE } })).json()).toEqual({
      generated_text: EXPECTED,
    });
    const regex = (await (
      await generate("/generate", { grammar: { type: "regex", value: "^[A-Z]{2}-\\d{3}$" } })
    ).json()) as Json;
    expect(regex.generated_text).toMatch(/^[A-Z]{2}-\d{3}$/);
  });

  it("/generate_stream: one event a token, the last with the whole JSON", async () => {
    const events = jsonEvents(await (await generate("/generate_stream", { grammar: TGI_FORMAT })).text());
    expect(events.length).toBeGreaterThanOrEqual(20);
    expect(events.map((event) => (event.token.special ? "" : event.token.text)).join("")).toBe(EXPECTED);
    expect(events.at(-1)?.generated_text).toBe(EXPECTED);
  });

  it("the compat route /models/{id}: [{generated_text}] (the prompt first unless return_full_text is false)", async () => {
    expect(
      await (await generate("/models/hfkit/tgi-3.2", { grammar: TGI_FORMAT, return_full_text: false })).json(),
    ).toEqual([{ generated_text: EXPECTED }]);
    expect(await (await generate("/models/hfkit/tgi-3.2", { grammar: TGI_FORMAT })).json()).toEqual([
      { generated_text: `Where?${EXPECTED}` },
    ]);
  });

  it("max_new_tokens cuts it: finish_reason length", async () => {
    const answer = (await (
      await generate("/generate", { grammar: TGI_FORMAT, max_new_tokens: 4, details: true })
    ).json()) as Json;
    expect(answer.generated_text).toBe('{"city":"Paris');
    expect(answer.details.finish_reason).toBe("length");
  });

  it("TGI 2.0 knows `json` and `regex` only: `json_object` is axum's 422", async () => {
    const body = JSON.stringify({ inputs: "Where?", parameters: { grammar: { type: "json_object", value: PLACE } } });
    const response = await postJson(`${hub().url}/endpoints/hfkit/tgi-2.0/generate`, body);
    const column = body.indexOf('"json_object"') + '"json_object"'.length;
    expect(await response.text()).toBe(
      `Failed to deserialize the JSON body into the target type: parameters.grammar.type: unknown variant \`json_object\`, expected \`json\` or \`regex\` at line 1 column ${column}`,
    );
  });
});

describe("faults of a structured answer: badJson, schemaViolation", () => {
  const ask = async (model = "hfkit/vllm") =>
    messageOf(await chat(chatUrl(hub(), model), { response_format: OPENAI_FORMAT })).content as string;

  it("badJson: the next structured answer is not JSON; the one after is valid again", async () => {
    const rule = hub().inject({ type: "badJson" }, { model: "hfkit/vllm" });
    const broken = await ask();
    expect(parses(broken)).toBe(false);
    expect(broken).toBe(`Here is the JSON you asked for: ${EXPECTED.slice(0, -1)}`);
    expect(await ask()).toBe(EXPECTED);
    expect([rule.hits, rule.active]).toEqual([1, false]);
  });

  it("schemaViolation: valid JSON that breaks the schema (a required property missing); then valid again", async () => {
    hub().inject({ type: "schemaViolation" });
    const broken = JSON.parse(await ask("hfkit/llamacpp")) as Json;
    expect(schemaErrors(PLACE, broken)).toEqual(["$: missing city"]);
    expect(await ask("hfkit/llamacpp")).toBe(EXPECTED);
  });

  it("an answer without a schema neither sees nor uses it", async () => {
    const rule = hub().inject({ type: "badJson" }, { model: "hfkit/tgi-3.2" });
    expect(messageOf(await chat(chatUrl(hub(), "hfkit/tgi-3.2"), {})).content).toBe(DEFAULT_TEXT);
    expect(rule.hits).toBe(0);
    const text = await streamed(chatUrl(hub(), "hfkit/tgi-3.2"), { response_format: TGI_FORMAT });
    expect(parses(contentOf(text))).toBe(false);
    expect(rule.hits).toBe(1);
  });

  it("times, another model, /generate, and a model's config faults (back after reset)", async () => {
    hub().inject({ type: "schemaViolation", times: 2 }, { model: "hfkit/sglang" });
    expect(await ask("hfkit/vllm")).toBe(EXPECTED);
    expect(JSON.parse(await ask("hfkit/sglang"))).not.toHaveProperty("city");
    expect(JSON.parse(await ask("hfkit/sglang"))).not.toHaveProperty("city");
    expect(await ask("hfkit/sglang")).toBe(EXPECTED);
    hub().setModel("acme/flaky", { faults: [{ type: "badJson" }] });
    const generate = async () =>
      (
        (await (
          await postJson(`${hub().url}/endpoints/acme/flaky/generate`, {
            inputs: "x",
            parameters: { grammar: TGI_FORMAT },
          })
        ).json()) as Json
      ).generated_text as string;
    expect(parses(await generate())).toBe(false);
    expect(await generate()).toBe(EXPECTED);
    hub().reset();
    expect(parses(await generate())).toBe(false);
  });
});
