/** The tool-calling model: calls with arguments valid for each tool's schema in each server's dialect, whole and streamed, then an answer from the results. */
import { describe, expect, it } from "vitest";
import { DEFAULT_TEXT } from "../src/index.js";
import { QUESTION, chatUrl, contentOf, deltasOf, jsonEvents, postJson, useHub } from "./helpers.js";
import { schemaErrors } from "./schema-check.js";

const hub = useHub({ models: { "acme/fixed-args": { backend: "vllm", toolArguments: { city: "Lyon" } } } });

const WEATHER = {
  type: "object",
  properties: {
    city: { type: "string" },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    days: { type: "integer", minimum: 1, maximum: 7 },
  },
  required: ["city", "unit"],
  additionalProperties: false,
};
const TIME = { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] };
const TOOLS = [
  { type: "function", function: { name: "weather", description: "The weather in a city", parameters: WEATHER } },
  { type: "function", function: { name: "time", description: "The time in a zone", parameters: TIME } },
];
const SCHEMAS: Record<string, unknown> = { weather: WEATHER, time: TIME };
const WEATHER_ARGS = { city: "Paris", unit: "celsius", days: 3 };
const TIME_ARGS = { zone: "Europe/Paris" };

/** A conversation whose last messages are the results of both calls. */
const AFTER_TOOLS = [
  ...QUESTION,
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_a", type: "function", function: { name: "weather", arguments: JSON.stringify(WEATHER_ARGS) } },
      { id: "call_b", type: "function", function: { name: "time", arguments: JSON.stringify(TIME_ARGS) } },
    ],
  },
  { role: "tool", tool_call_id: "call_a", content: '{"sky":"clear","temperature":21}' },
  { role: "tool", tool_call_id: "call_b", content: "12:00" },
];
const FROM_TOOLS = 'From the tools: weather: {"sky":"clear","temperature":21}; time: 12:00';

type Json = Record<string, any>;
const chat = async (model: string, body: Json): Promise<Json> =>
  (await postJson(chatUrl(hub(), model), { messages: QUESTION, tools: TOOLS, ...body })).json() as Promise<Json>;
const stream = async (model: string, body: Json): Promise<string> =>
  (await postJson(chatUrl(hub(), model), { messages: QUESTION, tools: TOOLS, stream: true, ...body })).text();

/** The calls of an OpenAI-protocol stream, put together by `index` as a client does. */
function assembleCalls(text: string): Array<{ id: string; name: string; arguments: string; deltas: number }> {
  const calls: Array<{ id: string; name: string; arguments: string; deltas: number }> = [];
  for (const delta of deltasOf(jsonEvents(text))) {
    for (const piece of delta.tool_calls ?? []) {
      const call = (calls[piece.index] ??= { id: "", name: "", arguments: "", deltas: 0 });
      call.id += piece.id ?? "";
      call.name += piece.function?.name ?? "";
      call.arguments += piece.function?.arguments ?? "";
      call.deltas += 1;
    }
  }
  return calls;
}

describe("TGI: one call, in each version's shape", () => {
  it.each([
    ["hfkit/tgi-2.4.1", "stop", WEATHER_ARGS],
    ["hfkit/tgi-3.1", "stop", WEATHER_ARGS],
    ["hfkit/tgi-3.2", "stop", JSON.stringify(WEATHER_ARGS)],
    ["hfkit/tgi-2.0", "eos_token", WEATHER_ARGS],
  ])('%s, whole: the first tool only, id "0", arguments %s', async (model, finish, args) => {
    const answer = await chat(model, { model: "tgi" });
    expect(answer.choices[0].message.tool_calls).toEqual([
      { id: "0", type: "function", function: { description: null, name: "weather", arguments: args } },
    ]);
    expect(answer.choices[0].finish_reason).toBe(finish);
  });

  it.each(["hfkit/tgi-2.4.1", "hfkit/tgi-3.1"])(
    '%s, streamed: delta.tool_calls one object, id "", the name in the first chunk only',
    async (model) => {
      const deltas = deltasOf(jsonEvents(await stream(model, {})));
      expect(
        deltas.every(
          (delta) => !Array.isArray(delta.tool_calls) && delta.tool_calls.id === "" && delta.tool_calls.index === 0,
        ),
      ).toBe(true);
      expect(deltas.map((delta) => delta.tool_calls.function.name)).toEqual([
        "weather",
        ...Array(deltas.length - 1).fill(null),
      ]);
      const args = deltas.map((delta) => delta.tool_calls.function.arguments).join("");
      expect(JSON.parse(args)).toEqual(WEATHER_ARGS);
      expect(deltas.length).toBeGreaterThanOrEqual(10);
    },
  );

  it('3.2, streamed: an array, id the conversation\'s next integer ("0", then "1")', async () => {
    const first = deltasOf(jsonEvents(await stream("hfkit/tgi-3.2", {})));
    expect(first.every((delta) => Array.isArray(delta.tool_calls) && delta.tool_calls[0].id === "0")).toBe(true);
    expect(JSON.parse(first.map((delta) => delta.tool_calls[0].function.arguments).join(""))).toEqual(WEATHER_ARGS);
    const earlier = [
      ...QUESTION,
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "0", type: "function", function: { name: "weather", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "0", content: "x" },
      { role: "user", content: "And tomorrow?" },
    ];
    const next = deltasOf(jsonEvents(await stream("hfkit/tgi-3.2", { messages: earlier })));
    expect(next[0]?.tool_calls[0]).toMatchObject({ id: "1", function: { name: "weather" } });
  });

  it("tool_choice: the named tool; none answers text; an unknown name is a 422 tool_error", async () => {
    const named = await chat("hfkit/tgi-3.2", { tool_choice: { type: "function", function: { name: "time" } } });
    expect(
      named.choices[0].message.tool_calls.map((call: Json) => [
        call.function.name,
        JSON.parse(call.function.arguments),
      ]),
    ).toEqual([["time", TIME_ARGS]]);
    expect((await chat("hfkit/tgi-3.2", { tool_choice: "none" })).choices[0].message.content).toBe(DEFAULT_TEXT);
    const unknown = await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), {
      messages: QUESTION,
      tools: TOOLS,
      tool_choice: { type: "function", function: { name: "nope" } },
    });
    expect([unknown.status, await unknown.json()]).toEqual([
      422,
      { error: "Tool error: Tool with name nope not found", error_type: "tool_error" },
    ]);
  });

  it.each(["hfkit/tgi-2.2", "hfkit/tgi-3.2"])(
    "%s, after the tool results: text built from them, whole and streamed",
    async (model) => {
      const answer = await chat(model, { messages: AFTER_TOOLS });
      expect(answer.choices[0].message).toEqual({ role: "assistant", content: FROM_TOOLS });
      expect(answer.choices[0].finish_reason).toBe("stop");
      expect(contentOf(await stream(model, { messages: AFTER_TOOLS }))).toBe(FROM_TOOLS);
    },
  );
});

describe("OpenAI-protocol servers: every tool at once", () => {
  const SERVERS: Array<[string, RegExp]> = [
    ["hfkit/vllm", /^chatcmpl-tool-[0-9a-f]{32}$/],
    ["hfkit/sglang", /^call_[0-9a-f]{24}$/],
    ["hfkit/llamacpp", /^[0-9a-f]{32}$/],
  ];

  it.each(SERVERS)(
    "%s, whole: parallel calls, arguments valid for each tool, content null, finish_reason tool_calls",
    async (model, idPattern) => {
      const answer = await chat(model, {});
      const { message, finish_reason } = answer.choices[0];
      expect([message.content, finish_reason]).toEqual([null, "tool_calls"]);
      expect(message.tool_calls.map((call: Json) => call.function.name)).toEqual(["weather", "time"]);
      for (const call of message.tool_calls) {
        expect(call.id).toMatch(idPattern);
        expect(call.type).toBe("function");
        expect(schemaErrors(SCHEMAS[call.function.name], JSON.parse(call.function.arguments))).toEqual([]);
      }
      expect(message.tool_calls[0].id).not.toBe(message.tool_calls[1].id);
      expect(JSON.parse(message.tool_calls[0].function.arguments)).toEqual(WEATHER_ARGS);
    },
  );

  it.each(SERVERS)(
    "%s, streamed: each call opened with its id and name, its arguments over many deltas; put together, the whole answer's calls",
    async (model) => {
      const text = await stream(model, {});
      const whole = (await chat(model, {})).choices[0].message.tool_calls as Json[];
      const calls = assembleCalls(text);
      expect(
        calls.map(({ id, name, arguments: args }) => ({ id, type: "function", function: { name, arguments: args } })),
      ).toEqual(whole);
      expect(calls.every((call) => call.deltas >= 5)).toBe(true);
      const pieces = deltasOf(jsonEvents(text)).flatMap((delta) => delta.tool_calls ?? []);
      expect(pieces.filter((piece: Json) => piece.id !== undefined).map((piece: Json) => piece.function)).toEqual([
        { name: "weather", arguments: "" },
        { name: "time", arguments: "" },
      ]);
      const finishes = jsonEvents(text).flatMap((event) =>
        event.choices?.[0]?.finish_reason ? [event.choices[0].finish_reason] : [],
      );
      expect(finishes).toEqual(["tool_calls"]);
    },
  );

  it.each(SERVERS)("%s, after the tool results: text built from them, whole and streamed", async (model) => {
    const answer = await chat(model, { messages: AFTER_TOOLS });
    expect([answer.choices[0].message.content, answer.choices[0].finish_reason]).toEqual([FROM_TOOLS, "stop"]);
    expect(answer.choices[0].message.tool_calls).toBeUndefined();
    const text = await stream(model, { messages: AFTER_TOOLS });
    expect(contentOf(text)).toBe(FROM_TOOLS);
  });

  it("tool_choice: a named function is the only call; required calls even after results; none answers text; an unknown name is a 400", async () => {
    const named = await chat("hfkit/vllm", { tool_choice: { type: "function", function: { name: "time" } } });
    expect(named.choices[0].message.tool_calls.map((call: Json) => call.function.name)).toEqual(["time"]);
    const required = await chat("hfkit/sglang", { messages: AFTER_TOOLS, tool_choice: "required" });
    expect(required.choices[0].message.tool_calls).toHaveLength(2);
    expect((await chat("hfkit/llamacpp", { tool_choice: "none" })).choices[0].message.content).toBe(DEFAULT_TEXT);
    const unknown = await postJson(chatUrl(hub(), "hfkit/vllm"), {
      messages: QUESTION,
      tools: TOOLS,
      tool_choice: { type: "function", function: { name: "nope" } },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { message: "The tool specified in `tool_choice` does not match any of the specified `tools`", code: 400 },
    });
  });

  it("a model's toolArguments are every call's arguments", async () => {
    const calls = (await chat("acme/fixed-args", {})).choices[0].message.tool_calls as Json[];
    expect(calls.map((call) => JSON.parse(call.function.arguments))).toEqual([{ city: "Lyon" }, { city: "Lyon" }]);
  });

  it("without tools, a conversation ending in tool results gets the model's text", async () => {
    const answer = (await (await postJson(chatUrl(hub(), "hfkit/vllm"), { messages: AFTER_TOOLS })).json()) as Json;
    expect(answer.choices[0].message.content).toBe(DEFAULT_TEXT);
  });
});

describe("the router and its providers", () => {
  it("the router's pick and a provider's suffix answer in the model's dialect, naming the provider", async () => {
    for (const model of ["hfkit/router-multi", "hfkit/router-multi:hf-inference"]) {
      const response = await postJson(`${hub().url}/v1/chat/completions`, { model, messages: QUESTION, tools: TOOLS });
      expect(response.headers.get("x-inference-provider")).toBe(model.split(":")[1] ?? "together");
      const { message } = ((await response.json()) as Json).choices[0];
      expect(message.tool_calls.map((call: Json) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual(
        [
          ["weather", WEATHER_ARGS],
          ["time", TIME_ARGS],
        ],
      );
    }
  });

  it.each(["/groq/openai/v1/chat/completions", "/novita/v3/openai/chat/completions"])(
    "%s: calls with call_ ids, then text from the results",
    async (path) => {
      const calls = (await (
        await postJson(`${hub().url}${path}`, { model: "acme/m", messages: QUESTION, tools: TOOLS })
      ).json()) as Json;
      expect(calls.choices[0].finish_reason).toBe("tool_calls");
      expect(
        calls.choices[0].message.tool_calls.map((call: Json) => [
          call.id.slice(0, 5),
          call.function.name,
          JSON.parse(call.function.arguments),
        ]),
      ).toEqual([
        ["call_", "weather", WEATHER_ARGS],
        ["call_", "time", TIME_ARGS],
      ]);
      const answer = (await (
        await postJson(`${hub().url}${path}`, { model: "acme/m", messages: AFTER_TOOLS, tools: TOOLS })
      ).json()) as Json;
      expect(answer.choices[0].message.content).toBe(FROM_TOOLS);
    },
  );
});
