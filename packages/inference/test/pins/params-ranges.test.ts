/**
 * The ranges a parameter must be in, for chat (OpenAI's words) and for text generation (TGI's), through the
 * public API over loopback: every value inside a range, both ends included, is accepted and reaches the
 * server as it was given (where a mapping changes it, as the mapping says); every value outside, the first
 * one past each end included, is an InputError naming the field with its exact message, and nothing is sent.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/index";
import { whole } from "../faults/raw-server";
import { answerJson, clientOn, QUESTION, useRawServer } from "./stream-support";

const raw = useRawServer();
const RUNS = { numRuns: 40 };

/** The double next to `x` towards +∞ (dir 1) or −∞ (dir −1). */
function next(x: number, dir: 1 | -1): number {
  if (x === 0) return dir * Number.MIN_VALUE;
  const bits = new BigInt64Array(new Float64Array([x]).buffer);
  bits[0] = (bits[0] as bigint) + BigInt(x > 0 ? dir : -dir);
  return new Float64Array(bits.buffer)[0] as number;
}

/** How a refused value is quoted in the message: strings as JSON, the rest as String() shows them. */
const shown = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : String(v));
/** What JSON makes of a number (-0 is sent as 0). */
const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;
const NOT_NUMBERS = fc.constantFrom<unknown>("0.5", "1", true, false, [], {}, [1]);

/** A chat call with `args`: what the server got as the body, or the error, and how many requests were made. */
async function chat(
  args: Record<string, unknown>,
): Promise<{ body?: Record<string, unknown>; error?: unknown; sent: number }> {
  raw().requests.length = 0;
  raw().handle((_req, reply) => whole(reply, 200, "application/json", answerJson("ok")));
  const error = await clientOn(raw())
    .chatCompletion({ messages: QUESTION, ...args } as never)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  const req = raw().requests[0];
  return {
    body: req ? (JSON.parse(req.body) as Record<string, unknown>) : undefined,
    error,
    sent: raw().requests.length,
  };
}

/** A text generation on a TGI endpoint with `parameters`: the parameters the server got, or the error. */
async function generate(
  parameters: unknown,
  inputs: unknown = "Once upon",
): Promise<{ parameters?: Record<string, unknown>; error?: unknown; sent: number }> {
  raw().requests.length = 0;
  raw().handle((_req, reply) => whole(reply, 200, "application/json", JSON.stringify([{ generated_text: " a time" }])));
  const c = clientOn(raw(), { backend: "tgi" });
  const error = await c.textGeneration({ inputs, parameters } as never).then(
    () => undefined,
    (e: unknown) => e,
  );
  const req = raw().requests[0];
  return {
    parameters: req ? (JSON.parse(req.body) as { parameters: Record<string, unknown> }).parameters : undefined,
    error,
    sent: raw().requests.length,
  };
}

function expectRefused(out: { error?: unknown; sent: number }, field: string, message: string): void {
  expect(out.error).toBeInstanceOf(InputError);
  expect((out.error as InputError).field).toBe(field);
  expect((out.error as Error).message).toBe(message);
  expect(out.sent).toBe(0);
}

/** A range [min, max] (max may be ∞); `above`: min itself excluded. */
interface Range {
  field: string;
  min: number;
  max: number;
  above?: boolean;
}

const rangeText = ({ min, max, above }: Range): string =>
  max === Infinity ? `a finite number ${above ? ">" : ">="} ${min}` : `a number between ${min} and ${max}`;

function inside(r: Range): fc.Arbitrary<number> {
  const low = r.above ? next(r.min, 1) : r.min;
  const high = r.max === Infinity ? Number.MAX_VALUE : r.max;
  return fc.oneof(
    fc.constantFrom(low, high, (low + Math.min(high, 1e6)) / 2),
    fc.double({ min: low, max: high, noNaN: true }),
  );
}

function outside(r: Range): fc.Arbitrary<unknown> {
  const below = r.above ? r.min : next(r.min, -1);
  const past: Array<fc.Arbitrary<unknown>> = [
    fc.constantFrom<unknown>(below, Number.NaN, -Infinity, Infinity),
    fc.double({ max: below, noNaN: true }),
    NOT_NUMBERS,
  ];
  if (r.max !== Infinity) past.push(fc.constant(next(r.max, 1)), fc.double({ min: next(r.max, 1), noNaN: true }));
  return fc.oneof(...past);
}

/** Integers from `min` that JSON holds exactly; the message names the kind. */
interface IntRange {
  field: string;
  min: number;
  what: string;
}

const intInside = ({ min }: IntRange): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(min, min + 1, Number.MAX_SAFE_INTEGER),
    fc.integer({ min: Math.max(min, -(2 ** 31)), max: 2 ** 31 }),
    fc.maxSafeInteger().filter((n) => n >= min),
  );

const intOutside = ({ min }: IntRange): fc.Arbitrary<unknown> =>
  fc.oneof(
    // (a fraction near -2^53 would round to an integer: 1.5 above 0 or above min, whichever is larger)
    fc.constantFrom<unknown>(
      Number.MAX_SAFE_INTEGER + 1,
      2 ** 60,
      Math.max(min, 0) + 1.5,
      Number.NaN,
      Infinity,
      -Infinity,
    ),
    ...(min > -Number.MAX_SAFE_INTEGER
      ? [fc.constant(min - 1), fc.integer({ min: -(2 ** 31), max: min - 1 })]
      : [fc.constant(-(2 ** 53))]),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
    NOT_NUMBERS,
  );

describe("chat: numbers in their ranges", () => {
  const ranges: Range[] = [
    { field: "top_p", min: 0, max: 1 },
    { field: "temperature", min: 0, max: Infinity },
    { field: "frequency_penalty", min: -2, max: 2 },
    { field: "presence_penalty", min: -2, max: 2 },
  ];
  /** What the server gets for `v`: the mappings of OpenAI's defaults and greedy aside, the value as given. */
  const sent = (field: string, v: number, body: Record<string, unknown>): void => {
    if (field === "top_p" && v === 0) return void expect([body.top_p, body.temperature]).toEqual([undefined, 0]);
    if ((field === "top_p" && v === 1) || (field === "presence_penalty" && v === 0))
      return void expect(field in body).toBe(false);
    expect(body[field]).toBe(wire(v));
  };

  for (const r of ranges) {
    it(`${r.field}: every value in [${r.min}, ${r.max}] is sent as given (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(inside(r), async (v) => {
          const out = await chat({ [r.field]: v });
          expect(out.error).toBeUndefined();
          sent(r.field, v, out.body ?? {});
        }),
        RUNS,
      );
    });

    it(`${r.field}: every value outside is refused, naming it, nothing sent (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(outside(r), async (v) => {
          expectRefused(
            await chat({ [r.field]: v }),
            r.field,
            `\`${r.field}\` must be ${rangeText(r)} (got ${shown(v)})`,
          );
        }),
        RUNS,
      );
    });
  }

  it("the messages, exactly", async () => {
    expectRefused(await chat({ top_p: 1.5 }), "top_p", "`top_p` must be a number between 0 and 1 (got 1.5)");
    expectRefused(
      await chat({ temperature: -0.1 }),
      "temperature",
      "`temperature` must be a finite number >= 0 (got -0.1)",
    );
    expectRefused(
      await chat({ frequency_penalty: -2.5 }),
      "frequency_penalty",
      "`frequency_penalty` must be a number between -2 and 2 (got -2.5)",
    );
    expectRefused(
      await chat({ presence_penalty: "1" }),
      "presence_penalty",
      '`presence_penalty` must be a number between -2 and 2 (got "1")',
    );
  });

  it("null is as good as absent", async () => {
    const out = await chat({
      top_p: null,
      temperature: null,
      frequency_penalty: null,
      presence_penalty: null,
      max_tokens: null,
      n: null,
      seed: null,
      stop: null,
      logprobs: null,
    });
    expect(out.error).toBeUndefined();
    expect(out.sent).toBe(1);
  });
});

describe("chat: integers", () => {
  const ints: IntRange[] = [
    { field: "max_tokens", min: 1, what: "a positive integer" },
    { field: "n", min: 1, what: "a positive integer" },
    { field: "top_logprobs", min: 0, what: "an integer >= 0" },
    { field: "seed", min: -Number.MAX_SAFE_INTEGER, what: "an integer" },
  ];
  for (const r of ints) {
    it(`${r.field}: every integer from ${r.min} is sent as given (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(intInside(r), async (v) => {
          const out = await chat({ [r.field]: v });
          expect(out.error).toBeUndefined();
          // n: 1 is OpenAI's default, not sent
          if (r.field === "n" && v === 1) expect("n" in (out.body ?? {})).toBe(false);
          else expect(out.body?.[r.field]).toBe(v);
        }),
        RUNS,
      );
    });

    it(`${r.field}: anything else is refused as "${r.what}", nothing sent (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(intOutside(r), async (v) => {
          expectRefused(await chat({ [r.field]: v }), r.field, `\`${r.field}\` must be ${r.what} (got ${shown(v)})`);
        }),
        RUNS,
      );
    });
  }

  it("a negative seed is a seed", async () => {
    expect((await chat({ seed: -1 })).body?.seed).toBe(-1);
  });
});

describe("chat: the other fields", () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ["logprobs 1", { logprobs: 1 }, "logprobs", "`logprobs` must be true or false (got 1)"],
    ["logprobs 'true'", { logprobs: "true" }, "logprobs", '`logprobs` must be true or false (got "true")'],
    ["stop a number", { stop: 1 }, "stop", "`stop` must be a string or an array of strings"],
    ["stop with a number in it", { stop: ["a", 1] }, "stop", "`stop` must be a string or an array of strings"],
    ["stop with null in it", { stop: ["a", null] }, "stop", "`stop` must be a string or an array of strings"],
    ["stop an object", { stop: { 0: "a" } }, "stop", "`stop` must be a string or an array of strings"],
    [
      "extra_body an array",
      { extra_body: [1] },
      "extra_body",
      "`extra_body` must be an object of fields to add to the request body",
    ],
    [
      "extra_body a string",
      { extra_body: "x" },
      "extra_body",
      "`extra_body` must be an object of fields to add to the request body",
    ],
    [
      "stream_options a string",
      { stream_options: "usage" },
      "stream_options",
      "`stream_options` must be an object such as {include_usage: true}",
    ],
    [
      "stream_options.include_usage 1",
      { stream_options: { include_usage: 1 } },
      "stream_options.include_usage",
      "`stream_options.include_usage` must be true or false (got 1)",
    ],
  ])("%s → refused", async (_name, args, field, message) => {
    expectRefused(await chat(args), field, message);
  });

  it("stop: a string is sent as a list of it; any list of strings as it is (property)", async () => {
    expect((await chat({ stop: "\n" })).body?.stop).toEqual(["\n"]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string(), { maxLength: 4 }), async (stop) => {
        expect((await chat({ stop })).body?.stop).toEqual(stop);
      }),
      { numRuns: 20 },
    );
  });

  it("logprobs true and false, extra_body, stream_options with include_usage: accepted", async () => {
    expect((await chat({ logprobs: true })).body?.logprobs).toBe(true);
    expect((await chat({ logprobs: false })).body?.logprobs).toBe(false);
    expect((await chat({ extra_body: { top_k: 5 } })).body?.top_k).toBe(5);
    expect((await chat({ stream_options: { include_usage: false } })).error).toBeUndefined();
  });
});

describe("chat: messages", () => {
  it.each<[string, unknown, string, string]>([
    ["absent", undefined, "messages", "`messages` must be a non-empty array of {role, content}"],
    ["empty", [], "messages", "`messages` must be a non-empty array of {role, content}"],
    ["a string", "hi", "messages", "`messages` must be a non-empty array of {role, content}"],
    ["[null]", [null], "messages[0]", "`messages[0]` must be an object {role, content}"],
    [
      "a string in the list",
      [{ role: "user", content: "a" }, "hi"],
      "messages[1]",
      "`messages[1]` must be an object {role, content}",
    ],
    ["no role", [{ content: "a" }], "messages[0].role", "`messages[0].role` must be a non-empty string"],
    [
      "an empty role",
      [{ role: "", content: "a" }],
      "messages[0].role",
      "`messages[0].role` must be a non-empty string",
    ],
    [
      "a role that is a number",
      [{ role: 1, content: "a" }],
      "messages[0].role",
      "`messages[0].role` must be a non-empty string",
    ],
    [
      "content a number",
      [{ role: "user", content: 3 }],
      "messages[0].content",
      "`messages[0].content` must be a string or an array of content parts",
    ],
    [
      "no content and no tool_calls",
      [{ role: "assistant" }],
      "messages[0].content",
      "`messages[0].content` must be a string or an array of content parts",
    ],
    [
      "null content and no tool_calls",
      [{ role: "assistant", content: null }],
      "messages[0].content",
      "`messages[0].content` must be a string or an array of content parts",
    ],
    [
      "content a number beside tool_calls",
      [
        {
          role: "assistant",
          content: 3,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
      ],
      "messages[0].content",
      "`messages[0].content` must be a string or an array of content parts",
    ],
  ])("%s → refused", async (_name, messages, field, message) => {
    expectRefused(await chat({ messages }), field, message);
  });

  it("content null or absent beside tool_calls, content parts, any role: accepted", async () => {
    const call = [{ id: "1", type: "function", function: { name: "f", arguments: "{}" } }];
    const messages = [
      { role: "developer", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: null, tool_calls: call },
      { role: "assistant", tool_calls: call },
      { role: "tool", content: "42", tool_call_id: "1" },
    ];
    const out = await chat({ messages });
    expect(out.error).toBeUndefined();
    expect(out.body?.messages).toEqual(messages);
  });
});

describe("text generation: numbers in their ranges", () => {
  const ranges: Range[] = [
    { field: "top_p", min: 0, max: 1 },
    { field: "typical_p", min: 0, max: 1 },
    { field: "temperature", min: 0, max: Infinity },
    { field: "repetition_penalty", min: 0, max: Infinity, above: true },
    { field: "frequency_penalty", min: -2, max: 2 },
  ];
  /** What TGI gets: greedy (a 0 of temperature, top_p, typical_p) is do_sample false; a 1 of top_p or typical_p is not sent. */
  const sent = (field: string, v: number, p: Record<string, unknown>): void => {
    const greedy = v === 0 && ["top_p", "typical_p", "temperature"].includes(field);
    if (greedy) return void expect(p).toEqual({ return_full_text: false, do_sample: false });
    if (v === 1 && (field === "top_p" || field === "typical_p"))
      return void expect(p).toEqual({ return_full_text: false });
    expect(p).toEqual({ return_full_text: false, [field]: wire(v) });
  };

  for (const r of ranges) {
    it(`${r.field}: every value in ${r.above ? "(" : "["}${r.min}, ${r.max}] is sent (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(inside(r), async (v) => {
          const out = await generate({ [r.field]: v });
          expect(out.error).toBeUndefined();
          sent(r.field, v, out.parameters ?? {});
        }),
        RUNS,
      );
    });

    it(`${r.field}: every value outside is refused, naming parameters.${r.field}, nothing sent (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(outside(r), async (v) => {
          const field = `parameters.${r.field}`;
          expectRefused(
            await generate({ [r.field]: v }),
            field,
            `\`${field}\` must be ${rangeText(r)} (got ${shown(v)})`,
          );
        }),
        RUNS,
      );
    });
  }

  it("the messages, exactly", async () => {
    expectRefused(
      await generate({ repetition_penalty: 0 }),
      "parameters.repetition_penalty",
      "`parameters.repetition_penalty` must be a finite number > 0 (got 0)",
    );
    expectRefused(
      await generate({ temperature: -1 }),
      "parameters.temperature",
      "`parameters.temperature` must be a finite number >= 0 (got -1)",
    );
    expectRefused(
      await generate({ typical_p: 2 }),
      "parameters.typical_p",
      "`parameters.typical_p` must be a number between 0 and 1 (got 2)",
    );
    expectRefused(
      await generate({ frequency_penalty: 2.5 }),
      "parameters.frequency_penalty",
      "`parameters.frequency_penalty` must be a number between -2 and 2 (got 2.5)",
    );
  });

  it("frequency_penalty: its whole range is accepted, each value sent", async () => {
    for (const v of [-2, -1.5, -0.5, 0, 0.5, 1, 2])
      expect((await generate({ frequency_penalty: v })).parameters?.frequency_penalty).toBe(v);
  });
});

describe("text generation: integers, booleans, stop, inputs", () => {
  const ints: IntRange[] = [
    { field: "max_new_tokens", min: 1, what: "a positive integer" },
    { field: "top_k", min: 1, what: "a positive integer" },
    { field: "truncate", min: 1, what: "a positive integer" },
    { field: "best_of", min: 1, what: "a positive integer" },
    { field: "top_n_tokens", min: 0, what: "an integer >= 0" },
    { field: "seed", min: 0, what: "an integer >= 0" },
  ];
  for (const r of ints) {
    it(`${r.field}: every integer from ${r.min} is sent; anything else refused as "${r.what}" (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(intInside(r), async (v) => {
          expect((await generate({ [r.field]: v })).parameters?.[r.field]).toBe(v);
        }),
        { numRuns: 15 },
      );
      await fc.assert(
        fc.asyncProperty(intOutside(r), async (v) => {
          const field = `parameters.${r.field}`;
          expectRefused(await generate({ [r.field]: v }), field, `\`${field}\` must be ${r.what} (got ${shown(v)})`);
        }),
        RUNS,
      );
    });
  }

  it.each(["do_sample", "return_full_text", "details", "decoder_input_details", "watermark"])(
    "%s: true and false sent, anything else refused",
    async (field) => {
      for (const v of [true, false]) expect((await generate({ [field]: v })).parameters?.[field]).toBe(v);
      for (const v of [1, "true", 0]) {
        expectRefused(
          await generate({ [field]: v }),
          `parameters.${field}`,
          `\`parameters.${field}\` must be true or false (got ${shown(v)})`,
        );
      }
    },
  );

  it("stop: a list of strings sent; anything else refused naming parameters.stop", async () => {
    expect((await generate({ stop: ["\n", "END"] })).parameters?.stop).toEqual(["\n", "END"]);
    for (const stop of [1, ["a", 1], [null], { 0: "a" }]) {
      expectRefused(
        await generate({ stop }),
        "parameters.stop",
        "`parameters.stop` must be a string or an array of strings",
      );
    }
  });

  it("inputs must be a string; parameters, when given, an object", async () => {
    expectRefused(await generate(undefined, 42), "inputs", "`inputs` must be a string");
    expectRefused(await generate(undefined, ["a"]), "inputs", "`inputs` must be a string");
    expectRefused(await generate(null), "parameters", "`parameters` must be an object");
    expectRefused(await generate("temperature=0"), "parameters", "`parameters` must be an object");
    expect(await generate(undefined)).toMatchObject({
      error: undefined,
      parameters: { return_full_text: false },
      sent: 1,
    });
  });
});
