/** Structured output: the AI SDK's JSON response format as TGI's grammar or OpenAI's json_schema. */
import { generateText, type JSONSchema7, jsonSchema, Output, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { createHfkit, jsonSchemaFormatFor } from "../src/index";
import { lastBody, onHub, useHub, within } from "./helpers";

const ANSWER = '{"city": "Paris", "country": "France"}';
const ctx = useHub({
  models: {
    "hfkit/json-tgi": { tgiVersion: "3.2.0", text: ANSWER },
    "hfkit/json-vllm": { backend: "vllm", text: ANSWER },
  },
});

const SCHEMA: JSONSchema7 = {
  type: "object",
  properties: { city: { type: "string" }, country: { type: "string" } },
  required: ["city", "country"],
  additionalProperties: false,
};
const schema = jsonSchema<{ city: string; country: string }>(SCHEMA);

describe("structured output", () => {
  it("TGI (a baseUrl route, backend detected): the schema sent as TGI's {type: json, value: schema}", async () => {
    const result = await within(
      generateText({
        model: onHub(ctx.hub)("hfkit/json-tgi"),
        prompt: "Where is the Eiffel tower?",
        output: Output.object({ schema }),
      }),
    );
    expect(result.output).toEqual({ city: "Paris", country: "France" });
    expect(lastBody(ctx.hub).response_format).toEqual({
      type: "json",
      value: expect.objectContaining({ properties: SCHEMA.properties, required: SCHEMA.required }),
    });
  });

  it("an OpenAI-protocol server (backend: openai): OpenAI's {type: json_schema, json_schema: {name, schema}}", async () => {
    const model = onHub(ctx.hub, { backend: "openai" })("hfkit/json-vllm");
    const result = await within(
      generateText({
        model,
        prompt: "Where?",
        output: Output.object({ schema, name: "place", description: "A place" }),
      }),
    );
    expect(result.output).toEqual({ city: "Paris", country: "France" });
    expect(lastBody(ctx.hub).response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "place",
        description: "A place",
        schema: expect.objectContaining({ required: SCHEMA.required }),
      },
    });
  });

  it("streamText with an object output: the object assembled from the stream", async () => {
    const result = streamText({
      model: onHub(ctx.hub)("hfkit/json-tgi"),
      prompt: "Where?",
      output: Output.object({ schema }),
    });
    expect(await within(result.output)).toEqual({ city: "Paris", country: "France" });
    expect(lastBody(ctx.hub)).toMatchObject({ stream: true, response_format: { type: "json" } });
  });

  it("JSON without a schema: json_object (OpenAI), any JSON object (TGI)", async () => {
    await within(
      generateText({
        model: onHub(ctx.hub, { backend: "openai" })("hfkit/json-vllm"),
        prompt: "Where?",
        output: Output.json(),
      }),
    );
    expect(lastBody(ctx.hub).response_format).toEqual({ type: "json_object" });
    await within(generateText({ model: onHub(ctx.hub)("hfkit/json-tgi"), prompt: "Where?", output: Output.json() }));
    expect(lastBody(ctx.hub).response_format).toEqual({ type: "json", value: { type: "object" } });
  });

  it("jsonSchemaFormat openai on a TGI server: the core still sends TGI its own form of the schema", async () => {
    const model = onHub(ctx.hub)("hfkit/json-tgi", { jsonSchemaFormat: "openai" });
    const result = await within(generateText({ model, prompt: "Where?", output: Output.object({ schema }) }));
    expect(result.output).toEqual({ city: "Paris", country: "France" });
    expect(lastBody(ctx.hub).response_format).toMatchObject({ type: "json", value: { type: "object" } });
  });

  it("the rule: TGI's form for backend tgi or a route detected TGI-first, OpenAI's otherwise", () => {
    expect(jsonSchemaFormatFor({ backend: "tgi" })).toBe("tgi");
    expect(jsonSchemaFormatFor({ backend: "openai", endpointUrl: "https://x.example" })).toBe("openai");
    expect(jsonSchemaFormatFor({ backend: "transformers" })).toBe("openai");
    expect(jsonSchemaFormatFor({ endpointUrl: "https://x.example" })).toBe("tgi");
    expect(jsonSchemaFormatFor({ baseUrl: "https://x.example" })).toBe("tgi");
    expect(jsonSchemaFormatFor({ provider: "hf-inference" })).toBe("tgi");
    expect(jsonSchemaFormatFor({})).toBe("openai");
    expect(jsonSchemaFormatFor({ provider: "together" })).toBe("openai");
  });

  it("on the HF router (the default route) the OpenAI form is sent", async () => {
    const hf = createHfkit({
      accessToken: "hf_x",
      maxRetries: 0,
      fetch: (url, init) => fetch(url.replace("https://router.huggingface.co", ctx.hub.url), init),
    });
    const result = await within(
      generateText({ model: hf("hfkit/json-vllm"), prompt: "Where?", output: Output.object({ schema }) }),
    );
    expect(result.output).toEqual({ city: "Paris", country: "France" });
    expect(lastBody(ctx.hub).response_format).toMatchObject({ type: "json_schema" });
  });
});
