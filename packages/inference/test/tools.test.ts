/**
 * The tool runner over loopback, against a model that calls the tools it is given and then answers from their
 * results: two steps with two concurrent tools, a tool that throws, one that hangs past its limit, a refused call,
 * an abort mid-tool, `maxSteps`, arguments streamed over many chunks (OpenAI's form and TGI's), and bad input.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AbortError,
  InferenceClient,
  InputError,
  type RunToolsOptions,
  runTools,
  runToolsStream,
  TimeoutError,
  type Tool,
  ToolError,
  type ToolRunEvent,
} from "../src/index";
import { chunked, type RawHandler, type RawServer, startRawServer, whole } from "./faults/raw-server";

const TOKEN = "hf_tools_secret_token";
interface Message {
  role: string;
  content?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}
interface Body {
  stream?: boolean;
  messages: Message[];
  tools?: Array<{ function: { name: string; parameters: unknown } }>;
}

let raw: RawServer;
/** The model's behaviour: `calls` asks for every tool each time it is asked by the user (or always, with `always`). */
let model = { always: false, dialect: "openai" as "openai" | "tgi-object", ids: true };
const bodies = (): Body[] => raw.requests.map((r) => JSON.parse(r.body) as Body);

/** The arguments the model writes for a tool. */
const ARGS: Record<string, unknown> = { weather: { city: "Paris" }, time: { zone: "Europe/Paris" } };

/** The model: it calls every tool it is given when the user spoke last (or always), else answers from the tools' results. */
const modelHandler: RawHandler = (req, out) => {
  const body = JSON.parse(req.body) as Body;
  const last = body.messages.at(-1);
  const calling = model.always || last?.role === "user";
  const calls = calling
    ? (body.tools ?? []).map((t, i) => ({
        id: model.ids ? `call_${i}` : "",
        type: "function",
        function: { name: t.function.name, arguments: JSON.stringify(ARGS[t.function.name] ?? {}) },
      }))
    : [];
  const results = body.messages.filter((m) => m.role === "tool").map((m) => `${m.tool_call_id}=${m.content}`);
  const text = calling ? "" : `From the tools: ${results.join("; ")}`;
  const base = { id: "x", created: 1, model: "m", system_fingerprint: "" };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const finish = calling ? "tool_calls" : "stop";
  if (!body.stream) {
    const message = calling
      ? { role: "assistant", content: "", tool_calls: calls }
      : { role: "assistant", content: text };
    whole(
      out,
      200,
      "application/json",
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  const stream = chunked(out, 200, [["Content-Type", "text/event-stream"]]);
  const send = (delta: unknown, finishReason: string | null = null) =>
    stream.chunk(
      `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
    );
  if (!calling) for (const piece of text.match(/.{1,6}/gs) ?? []) send({ role: "assistant", content: piece });
  calls.forEach((call, index) => {
    const pieces = call.function.arguments.match(/.{1,3}/gs) ?? [];
    if (model.dialect === "tgi-object") {
      // TGI up to 3.1: one object, not an array; the name only in the first piece, `id` empty.
      pieces.forEach((p, n) =>
        send({
          role: "assistant",
          tool_calls: {
            index,
            id: "",
            type: "function",
            function: { name: n === 0 ? call.function.name : null, arguments: p },
          },
        }),
      );
    } else {
      send({
        role: "assistant",
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
      });
      for (const p of pieces) send({ tool_calls: [{ index, function: { arguments: p } }] });
    }
  });
  send({}, finish);
  stream.chunk(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`);
  stream.chunk("data: [DONE]\n\n");
  stream.end();
};

beforeAll(async () => {
  raw = await startRawServer(modelHandler);
});
afterAll(() => raw.close());
beforeEach(() => {
  raw.handle(modelHandler);
  raw.requests.length = 0;
  model = { always: false, dialect: "openai", ids: true };
});

const options = (more: RunToolsOptions = {}): RunToolsOptions => ({
  endpointUrl: raw.url,
  backend: "openai",
  maxRetries: 0,
  logger: { warn() {} },
  ...more,
});
const messages = [{ role: "user", content: "Weather and time in Paris?" }];

/** Two tools that each wait until both have started: run one after the other, they would never finish. */
function concurrentTools() {
  const started: string[] = [];
  let release: () => void = () => {};
  const both = new Promise<void>((resolve) => (release = resolve));
  const begin = async (name: string) => {
    started.push(name);
    if (started.length === 2) release();
    await both;
  };
  const weather: Tool<{ city: string }> = {
    name: "weather",
    description: "The weather in a city",
    parameters: z.object({ city: z.string() }),
    run: async ({ city }) => {
      await begin("weather");
      return { city, sky: "clear" };
    },
  };
  const time: Tool<{ zone: string }> = {
    name: "time",
    parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
    run: async ({ zone }) => {
      await begin("time");
      return `12:00 in ${zone}`;
    },
  };
  return { tools: [weather, time], started };
}

describe("a tool loop", () => {
  it("two steps: both tools run at once, their results go back with the ids the model gave, then its answer", async () => {
    const { tools, started } = concurrentTools();
    const run = await runTools({ accessToken: TOKEN, messages, tools }, options());
    expect(started.sort()).toEqual(["time", "weather"]);
    expect(run.stopReason).toBe("answer");
    expect(run.message.content).toBe(
      'From the tools: call_0={"city":"Paris","sky":"clear"}; call_1=12:00 in Europe/Paris',
    );
    expect(run.steps.map((s) => s.results.map((r) => [r.name, r.status]))).toEqual([
      [
        ["weather", "ok"],
        ["time", "ok"],
      ],
      [],
    ]);
    expect(run.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    // The model was sent the tools as JSON Schema, and in step 2 its own calls and their results.
    const [first, second] = bodies();
    expect(first?.tools?.map((t) => t.function)).toEqual([
      {
        name: "weather",
        description: "The weather in a city",
        parameters: expect.objectContaining({ type: "object", required: ["city"] }),
      },
      { name: "time", parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] } },
    ]);
    expect(
      second?.messages.slice(1).map((m) => [m.role, m.tool_call_id ?? m.tool_calls?.map((c) => c.id).join(",")]),
    ).toEqual([
      ["assistant", "call_0,call_1"],
      ["tool", "call_0"],
      ["tool", "call_1"],
    ]);
    expect(run.messages).toHaveLength(5);
  });

  it("a tool that throws: its error goes to the model as the tool's answer, and is reported", async () => {
    const tools: Tool<{ city: string }>[] = [
      {
        name: "weather",
        parameters: z.object({ city: z.string() }),
        run: () => Promise.reject(new Error(`boom ${TOKEN}`)),
      },
    ];
    const run = await runTools({ accessToken: TOKEN, messages, tools }, options());
    const [result] = run.steps[0]?.results ?? [];
    expect(result?.status).toBe("error");
    expect(result?.error).toBeInstanceOf(ToolError);
    expect(result?.content).toBe("Error: weather failed: boom [redacted]");
    expect(run.message.content).toBe("From the tools: call_0=Error: weather failed: boom [redacted]");
  });

  it("a tool that hangs past its limit: a timeout answer, its signal aborted, the loop goes on", async () => {
    let signal: AbortSignal | undefined;
    const tools: Tool<{ city: string }>[] = [
      {
        name: "weather",
        parameters: z.object({ city: z.string() }),
        timeout: 30,
        run: (_a, ctx) => ((signal = ctx.signal), new Promise(() => {})),
      },
    ];
    const run = await runTools({ accessToken: TOKEN, messages, tools }, options({ toolTimeout: 60_000 }));
    expect(run.steps[0]?.results[0]?.status).toBe("timeout");
    expect(run.steps[0]?.results[0]?.content).toBe("Error: weather did not finish within 30 ms");
    expect(signal?.aborted).toBe(true);
    expect(raw.requests).toHaveLength(2);
  });

  it("a refused call is not run; the model is told", async () => {
    let ran = false;
    const asked: unknown[] = [];
    const tools: Tool<{ city: string }>[] = [
      { name: "weather", parameters: z.object({ city: z.string() }), run: () => ((ran = true), "sunny") },
    ];
    const run = await runTools(
      { accessToken: TOKEN, messages, tools },
      options({ approve: (call) => (asked.push(call), false) }),
    );
    expect(ran).toBe(false);
    expect(asked).toEqual([{ id: "call_0", name: "weather", arguments: { city: "Paris" }, step: 1 }]);
    expect(run.steps[0]?.results[0]).toMatchObject({
      status: "refused",
      content: "Error: The call of weather was refused",
    });
  });

  it("arguments that break the tool's parameters are not run: the model is told what is wrong", async () => {
    let ran = false;
    const tools: Tool<{ city: number }>[] = [
      { name: "weather", parameters: z.object({ city: z.number() }), run: () => ((ran = true), "x") },
    ];
    const run = await runTools({ accessToken: TOKEN, messages, tools }, options());
    expect(ran).toBe(false);
    expect(run.steps[0]?.results[0]?.status).toBe("invalid-arguments");
    expect(run.steps[0]?.results[0]?.content).toMatch(
      /^Error: The arguments of weather do not follow its parameters: city: /,
    );
  });

  it("the caller's abort mid-tool ends the loop with an AbortError, tells the tool, and sends nothing more", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const tools: Tool<{ city: string }>[] = [
      {
        name: "weather",
        parameters: z.object({ city: z.string() }),
        run: (_a, ctx) => {
          signal = ctx.signal;
          queueMicrotask(() => controller.abort());
          return new Promise(() => {});
        },
      },
    ];
    const error = await runTools({ accessToken: TOKEN, messages, tools }, options({ signal: controller.signal })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(signal?.aborted).toBe(true);
    expect(raw.requests).toHaveLength(1);
  });

  it("the call's timeout covers the whole loop, a hanging tool included", async () => {
    const tools: Tool<{ city: string }>[] = [
      { name: "weather", parameters: z.object({ city: z.string() }), run: () => new Promise(() => {}) },
    ];
    const error = await runTools(
      { accessToken: TOKEN, messages, tools },
      options({ timeout: 100, toolTimeout: 60_000 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("deadline");
    expect(raw.requests).toHaveLength(1);
  });

  it("maxSteps: a model that keeps calling stops there, its last calls not run", async () => {
    model.always = true;
    let runs = 0;
    const tools: Tool<{ city: string }>[] = [
      { name: "weather", parameters: z.object({ city: z.string() }), run: () => (runs++, "sunny") },
    ];
    const run = await runTools({ accessToken: TOKEN, messages, tools }, options({ maxSteps: 2 }));
    expect(run.stopReason).toBe("max-steps");
    expect(raw.requests).toHaveLength(2);
    expect(runs).toBe(1);
    expect(run.message.tool_calls?.map((c) => c.function.name)).toEqual(["weather"]);
  });

  it("a tool the model names that does not exist: an answer saying which exist", async () => {
    const tools: Tool<{ city: string }>[] = [
      { name: "weather", parameters: z.object({ city: z.string() }), run: () => "sunny" },
    ];
    raw.handle((req, out) => {
      const body = JSON.parse(req.body) as Body;
      const calling = body.messages.at(-1)?.role === "user";
      const message = calling
        ? {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "c", type: "function", function: { name: "forecast", arguments: "{}" } }],
          }
        : { role: "assistant", content: "ok" };
      whole(
        out,
        200,
        "application/json",
        JSON.stringify({
          id: "x",
          created: 1,
          model: "m",
          system_fingerprint: "",
          choices: [{ index: 0, message, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
    const run = await runTools({ accessToken: TOKEN, messages, tools }, options());
    expect(run.steps[0]?.results[0]).toMatchObject({
      status: "unknown-tool",
      content: 'Error: There is no tool named "forecast": the tools are weather',
    });
  });
});

describe("a tool loop streamed", () => {
  async function events(stream: AsyncIterable<ToolRunEvent>) {
    const out: ToolRunEvent[] = [];
    for await (const e of stream) out.push(e);
    return out;
  }

  it.each(["openai", "tgi-object"] as const)(
    "%s: the calls as they are formed from arguments over many chunks, each result, each step, the text, the end",
    async (dialect) => {
      model = { ...model, dialect, ids: dialect === "openai" };
      const { tools } = concurrentTools();
      const seen = await events(
        new InferenceClient(TOKEN, options({ backend: dialect === "openai" ? "openai" : "tgi" })).runToolsStream({
          messages,
          tools,
        }),
      );
      const kinds = seen.map((e) => e.type);
      expect(kinds.slice(0, 4)).toEqual(["tool-call", "tool-call", "tool-result", "tool-result"]);
      expect(kinds.slice(4, 5)).toEqual(["step"]);
      expect(kinds.filter((k) => k === "text").length).toBeGreaterThan(1);
      expect(kinds.slice(-2)).toEqual(["step", "done"]);
      const calls = seen.flatMap((e) => (e.type === "tool-call" ? [e.call] : []));
      const ids = dialect === "openai" ? ["call_0", "call_1"] : ["call_1_0", "call_1_1"];
      expect(calls).toEqual([
        { id: ids[0], name: "weather", arguments: { city: "Paris" }, step: 1 },
        { id: ids[1], name: "time", arguments: { zone: "Europe/Paris" }, step: 1 },
      ]);
      const text = seen.flatMap((e) => (e.type === "text" ? [e.delta] : [])).join("");
      expect(text).toBe(`From the tools: ${ids[0]}={"city":"Paris","sky":"clear"}; ${ids[1]}=12:00 in Europe/Paris`);
      // The made-up ids are the ones sent back, on the assistant's calls and on the results.
      expect(
        bodies()[1]
          ?.messages.slice(1)
          .map((m) => m.tool_call_id ?? m.tool_calls?.map((c) => c.id).join(",")),
      ).toEqual([ids.join(","), ids[0], ids[1]]);
      const done = seen.at(-1);
      expect(done?.type === "done" && done.run.usage.total_tokens).toBe(30);
    },
  );

  it("bad input is the first event's error, before any request", async () => {
    const error = await runToolsStream({ messages, tools: [] }, options())
      .next()
      .catch((e: unknown) => e);
    expect((error as InputError).field).toBe("tools");
    expect(raw.requests).toEqual([]);
  });
});

describe("bad input: an InputError naming the field, before any request", () => {
  const ok = { name: "weather", parameters: { type: "object" }, run: () => "x" };
  it.each([
    ["no tools", { tools: [] }, {}, "tools"],
    ["two tools with one name", { tools: [ok, { ...ok }] }, {}, "tools[1].name"],
    ["a tool without run", { tools: [{ name: "weather", parameters: { type: "object" } }] }, {}, "tools[0].run"],
    ["a name chat APIs refuse", { tools: [{ ...ok, name: "the weather" }] }, {}, "tools[0].name"],
    [
      "parameters that are neither JSON Schema nor a validator",
      { tools: [{ ...ok, parameters: "city" }] },
      {},
      "tools[0].parameters",
    ],
    ["a tool's timeout that is not positive", { tools: [{ ...ok, timeout: 0 }] }, {}, "tools[0].timeout"],
    ["maxSteps below 1", { tools: [ok] }, { maxSteps: 0 }, "maxSteps"],
    ["maxSteps not an integer", { tools: [ok] }, { maxSteps: 1.5 }, "maxSteps"],
    ["toolTimeout that is not positive", { tools: [ok] }, { toolTimeout: -1 }, "toolTimeout"],
    ["approve that is not a function", { tools: [ok] }, { approve: true }, "approve"],
  ])("%s", async (_name, args, more, field) => {
    const error = await runTools({ messages, ...args } as never, options(more as RunToolsOptions)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
    expect(raw.requests).toEqual([]);
  });
});
