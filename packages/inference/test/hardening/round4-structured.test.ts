/**
 * Round four on structured output, through real HTTP on loopback (a raw `node:net` server): a streamed answer's
 * partial values cost its length, not its square (the work counted, never timed: each character read once, a value
 * once whole built once, the copying of what is still open bounded per character); and a StructuredOutputError
 * keeps bounded, redacted content whatever the answer or the validator gives it.
 */
import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ChatCompletionStreamOutput,
  InferenceClient,
  MalformedEventError,
  type StandardSchemaV1,
  StructuredOutputError,
} from "../../src/index";
import { COPIES_PER_CHAR, PartialJson, parsePartialJson, partialJsonWork } from "../../src/core/partialJson";
import { structuredStream } from "../../src/features/structured";
import { chunked, whole } from "../faults/raw-server";
import { grows } from "../helpers";
import { expectNoSecret, HF_SECRET, useRawServer } from "./support";

const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];
const QUESTION = [{ role: "user" as const, content: "a recipe" }];
const hub = useRawServer(() => {});
const BASE = { id: "c", object: "chat.completion.chunk", created: 1, model: "m", system_fingerprint: "" };

/** The server streams `text` as the content of chunks of the sizes given (in turn), the last with finish "stop". */
function serveStream(text: string, sizes: readonly number[]): number {
  const pieces: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const size = sizes[k % sizes.length] ?? 1;
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  hub.server.handle((_req, reply) => {
    const body = chunked(reply, 200, SSE);
    const events = pieces.map((p, i) => {
      const finish = i === pieces.length - 1 ? "stop" : null;
      const choice = { index: 0, delta: { role: "assistant", content: p }, finish_reason: finish };
      return `data: ${JSON.stringify({ ...BASE, choices: [choice] })}\n\n`;
    });
    for (let i = 0; i < events.length; i += 500) body.chunk(events.slice(i, i + 500).join(""));
    body.chunk("data: [DONE]\n\n");
    body.end();
  });
  return pieces.length;
}

const client = (): InferenceClient =>
  new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai", maxRetries: 0 });
const anyObject = { type: "json_schema", json_schema: { name: "recipe", schema: {} } } as const;

/** Streams the structured answer: each chunk's text piece and the partial it carried (absent: not there). */
async function streamed(format: unknown = anyObject) {
  const seen: Array<{ piece: string; partial?: unknown; has: boolean }> = [];
  let parsed: unknown;
  const stream = client().chatCompletionStream({ messages: QUESTION, response_format: format as typeof anyObject });
  for await (const chunk of stream as AsyncIterable<ChatCompletionStreamOutput>) {
    const c = chunk.choices[0];
    if (c === undefined) continue;
    seen.push({ piece: c.delta?.content ?? "", partial: c.partial, has: "partial" in c });
    if (c.parsed !== undefined) parsed = c.parsed;
  }
  return { seen, parsed };
}

/** A recipe of `steps` steps: about 65 characters a step. */
const recipe = (steps: number): string =>
  JSON.stringify({
    title: "Pancakes",
    steps: Array.from({ length: steps }, (_, n) => ({
      n,
      text: `Step ${n}: whisk the eggs and milk.`,
      done: n % 2 > 0,
    })),
  });

describe("a structured stream costs its length, not its square", () => {
  it("each character is read once; every chunk of a 30 KB answer carries the value of its text so far", async () => {
    const text = recipe(460);
    const chunks = serveStream(text, [1, 4, 7, 3, 2, 5]);
    const before = partialJsonWork.chars;
    const { seen, parsed } = await streamed();
    expect(partialJsonWork.chars - before).toBe(text.length);
    expect(parsed).toEqual(JSON.parse(text));
    expect(seen.filter((s) => s.has)).toHaveLength(chunks);
    let so = "";
    for (const [i, s] of seen.entries()) {
      so += s.piece;
      if (i % 41 === 0 || i === seen.length - 1) expect(s.partial).toEqual(parsePartialJson(so));
    }
  });

  it("a value once whole is built once and shared by every later value; what is open is new each time", async () => {
    serveStream(recipe(40), [3]);
    const { seen } = await streamed();
    const values = seen.map((s) => s.partial as { steps?: object[] } | undefined);
    const from = values.findIndex((v) => (v?.steps?.length ?? 0) >= 2);
    expect(from).toBeGreaterThan(0);
    const first = values[from]?.steps?.[0];
    for (const v of values.slice(from)) expect(v?.steps?.[0]).toBe(first);
    for (let i = from + 1; i < values.length; i++) expect(values[i]).not.toBe(values[i - 1]);
  });

  it("30 000 numbers: at most COPIES_PER_CHAR members copied a character; the last chunk has the whole", async () => {
    const text = `[${Array.from({ length: 30_000 }, (_, i) => i % 10).join(",")}]`;
    const chunks = serveStream(text, [8]);
    const before = partialJsonWork.copied;
    const { seen, parsed } = await streamed();
    expect(partialJsonWork.copied - before).toBeLessThanOrEqual(COPIES_PER_CHAR * text.length);
    const partials = seen.filter((s) => s.has);
    expect(partials.length).toBeLessThan(chunks);
    expect(partials.length).toBeGreaterThan(100);
    for (const p of partials) expect(grows(p.partial, parsed)).toBe(true);
    expect(seen.at(-1)?.partial).toEqual(JSON.parse(text));
  });

  it("past 32 MB of a choice's text, a MalformedEventError (redacted), not V8's Invalid string length", async () => {
    const piece = `${HF_SECRET} `.repeat(1 << 15);
    async function* endless(): AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown> {
      const chunk = (content: string): ChatCompletionStreamOutput =>
        ({ ...BASE, choices: [{ index: 0, delta: { role: "assistant", content } }] }) as ChatCompletionStreamOutput;
      yield chunk(`["${piece}`);
      for (let i = 0; i < 40; i++) yield chunk(piece);
      return undefined;
    }
    const error = await (async () => {
      const args = { messages: QUESTION, accessToken: HF_SECRET, response_format: anyObject } as never;
      for await (const _ of structuredStream(args, {}, endless)) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toMatch(/larger than 32 MB/);
    expectNoSecret(error, HF_SECRET);
  });
});

describe("the partial reader, piece by piece", () => {
  const texts = fc.oneof(
    fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.boolean()).map(([v, pretty]) => JSON.stringify(v, null, pretty ? 2 : 0)),
    fc
      .array(fc.constantFrom(...'{}[]":,\\ \n\u00a0aeflnrstu0129.-+E', "true", "null", "\\u00e9"), { maxLength: 30 })
      .map((a) => a.join("")),
  );

  it("any cut of any text into pieces gives, after each, the value of the text so far", () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const reader = new PartialJson();
        let at = 0;
        for (const cut of [...cuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b), text.length]) {
          reader.feed(text.slice(at, Math.max(at, cut)));
          at = Math.max(at, cut);
          expect(reader.value()).toEqual(parsePartialJson(text.slice(0, at)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a value costs the members of the containers still open; it is affordable while the text has paid for it", () => {
    const reader = new PartialJson();
    reader.feed("[1,1,1,1,"); // 9 characters: 9 * COPIES_PER_CHAR members may be copied
    const before = partialJsonWork.copied;
    expect(reader.value()).toEqual([1, 1, 1, 1]);
    expect(partialJsonWork.copied - before).toBe(4);
    const times = (9 * COPIES_PER_CHAR) / 4 - 2; // with the next value, exactly what 9 characters paid for
    for (let i = 0; i < times; i++) reader.value();
    expect(reader.affordable()).toBe(true);
    reader.value();
    expect(reader.affordable()).toBe(false);
    reader.feed("[{"); // 2 characters more: 2 * COPIES_PER_CHAR, and the open containers still cost 4
    expect(reader.affordable()).toBe(true);
    reader.value();
    reader.feed("}]]"); // whole: the value is shared, it costs nothing
    expect(reader.affordable()).toBe(true);
    const after = partialJsonWork.copied;
    expect(reader.value()).toEqual([1, 1, 1, 1, [{}]]);
    expect(partialJsonWork.copied).toBe(after);
  });

  it("a `__proto__` key of an object still open stays its own key in every value", () => {
    const reader = new PartialJson();
    reader.feed('{"__proto__": {"polluted": true}, "a": "x');
    const value = reader.value() as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(value.a).toBe("x");
    reader.feed('", "__proto__": "b');
    expect(Object.getPrototypeOf(reader.value())).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

/** A whole chat answer whose text is `content`. */
function wholeAnswer(content: string): string {
  const choices = [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }];
  return JSON.stringify({ ...BASE, object: "chat.completion", choices });
}

/** A Standard Schema validator that refuses everything with `count` issues, each quoting the token at length. */
function refusing(count: number): StandardSchemaV1 {
  const message = `expected a pancake, got ${HF_SECRET} ${"x".repeat(100_000)}`;
  const path = Array.from({ length: 1000 }, (_, i) => (i % 2 ? i : { key: `${HF_SECRET}-${"k".repeat(500)}` }));
  const issue = { message, path };
  const validate = () => ({ issues: Array.from({ length: count }, () => issue) });
  return { "~standard": { version: 1, vendor: "hostile", validate } };
}

describe("a StructuredOutputError keeps bounded, redacted content", () => {
  it("200 000 issues from a validator: 100 kept (issueCount 200 000), each bounded; message bounded", async () => {
    hub.server.handle((_req, reply) => {
      whole(reply, 200, "application/json", wholeAnswer('{"a": 1}'));
    });
    const json_schema = { name: "r", schema: refusing(200_000), jsonSchema: { type: "object" } };
    const format = { type: "json_schema", json_schema };
    const error = (await client()
      .chatCompletion({ messages: QUESTION, response_format: format as never })
      .catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.reason).toBe("schema");
    expect(error.issueCount).toBe(200_000);
    expect(error.issues).toHaveLength(100);
    expect(error.message.length).toBeLessThanOrEqual(1200);
    expect(error.message).toMatch(/\(and 199995 more\)$/);
    for (const issue of error.issues) {
      expect(issue.message.length).toBeLessThanOrEqual(500);
      expect(issue.path).toHaveLength(32);
      for (const key of issue.path ?? []) {
        expect(String(typeof key === "object" ? key.key : key).length).toBeLessThanOrEqual(64);
      }
    }
    expect(error.issues[0]?.path?.[0]).toEqual({ key: expect.stringMatching(/^\[redacted\]-k+$/) as unknown });
    expect(error.issues[0]?.path?.[1]).toBe(1);
    expectNoSecret(error, HF_SECRET);
    expect(inspect(error, { depth: 6 }).length).toBeLessThan(300_000);
  });

  it("2 MB that are not JSON: message and cause bounded and redacted, the text its first 64 KiB", async () => {
    const content = `${HF_SECRET} ${"no json here ".repeat(160_000)}`;
    hub.server.handle((_req, reply) => {
      whole(reply, 200, "application/json", wholeAnswer(content));
    });
    const error = (await client()
      .chatCompletion({ messages: QUESTION, response_format: anyObject })
      .catch((e: unknown) => e)) as StructuredOutputError;
    expect(error.reason).toBe("json");
    expect(error.message.length).toBeLessThanOrEqual(250);
    expect(error.text).toHaveLength(65_536);
    expect(error.issues).toEqual([]);
    expect(error.issueCount).toBe(0);
    expectNoSecret(error, HF_SECRET);
  });
});

/** A Standard Schema validator whose `validate` is `run`. */
const validator = (run: (value: unknown) => unknown): StandardSchemaV1 =>
  ({ "~standard": { version: 1, vendor: "own", validate: run } }) as StandardSchemaV1;
/** A validator written as people write them: recursive, one frame per level of the value. */
const depthOf = (value: unknown): number => (Array.isArray(value) ? 1 + Math.max(0, ...value.map(depthOf)) : 0);
const formatOf = (schema: StandardSchemaV1) =>
  ({ type: "json_schema", json_schema: { name: "r", schema, jsonSchema: {} } }) as never;

describe("a validator's own failure is the answer's StructuredOutputError, never its own error", () => {
  it("a recursive validator overflowing its stack on a 200 000-deep answer: a schema error, the RangeError its cause", async () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    hub.server.handle((_req, reply) => {
      whole(reply, 200, "application/json", wholeAnswer(deep));
    });
    const schema = validator((value) => (depthOf(value) > 3 ? { issues: [{ message: "too deep" }] } : { value }));
    const error = (await client()
      .chatCompletion({ messages: QUESTION, response_format: formatOf(schema) })
      .catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.reason).toBe("schema");
    expect(error.issues).toEqual([
      { message: expect.stringMatching(/^The validator failed: RangeError: Maximum call stack/) as unknown },
    ]);
    expect(error.cause).toBeInstanceOf(RangeError);
    expect(error.text.length).toBe(65_536);
  });

  it("a validator throwing the token on the last chunk of a stream: the stream fails with the error, redacted", async () => {
    serveStream('{"a": 1}', [3]);
    const schema = validator(() => {
      throw new TypeError(`cannot read ${HF_SECRET} ${"x".repeat(50_000)}`);
    });
    const stream = client().chatCompletionStream({ messages: QUESTION, response_format: formatOf(schema) });
    const partials: unknown[] = [];
    const error = await (async () => {
      for await (const chunk of stream) partials.push(chunk.choices[0]?.partial);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).reason).toBe("schema");
    expect((error as StructuredOutputError).message).toMatch(
      /^The answer does not follow the schema: The validator failed: TypeError: cannot read \[redacted\] x+/,
    );
    expect((error as StructuredOutputError).message.length).toBeLessThanOrEqual(250);
    expect(partials).toEqual([{}, {}]); // the last chunk, whose check failed, is not given
    expectNoSecret(error, HF_SECRET);
  });

  it.each([
    ["undefined", undefined],
    ["a string", "fine"],
    ["issues that are no list", { issues: "bad" }],
    ["a promise of nothing", Promise.resolve(null)],
  ])("a validator answering %s: a schema error saying it gave no result", async (_name, answer) => {
    hub.server.handle((_req, reply) => {
      whole(reply, 200, "application/json", wholeAnswer('{"a": 1}'));
    });
    const error = (await client()
      .chatCompletion({ messages: QUESTION, response_format: formatOf(validator(() => answer)) })
      .catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.issues).toEqual([{ message: "The validator gave no result ({ value } or { issues })" }]);
  });

  it("a validator that rejects with a thing that cannot be printed: still the typed error", async () => {
    hub.server.handle((_req, reply) => {
      whole(reply, 200, "application/json", wholeAnswer('{"a": 1}'));
    });
    const hostile = {
      [Symbol.toPrimitive]() {
        throw new Error("no");
      },
    };
    const schema = validator(() => Promise.reject(hostile));
    const error = (await client()
      .chatCompletion({ messages: QUESTION, response_format: formatOf(schema) })
      .catch((e: unknown) => e)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.issues[0]?.message).toBe("The validator failed: an unreadable error");
  });
});
