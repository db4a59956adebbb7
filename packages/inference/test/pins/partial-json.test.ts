/**
 * The value of a JSON text cut anywhere (what a streamed structured answer's chunks carry): never an exception,
 * always a part of the whole value, the whole value once the text is whole. Checked over random JSON values,
 * compact and pretty-printed, at every cut.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePartialJson } from "../../src/core/partialJson";
import { grows } from "../helpers";

describe("parsePartialJson", () => {
  it("every cut of any JSON text is a part of its value, and the whole text (not a bare number) is its value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const full: unknown = JSON.parse(text);
        for (let at = 0; at < text.length; at++) {
          const partial = parsePartialJson(text.slice(0, at));
          if (partial !== undefined && !grows(partial, full))
            throw new Error(`cut at ${at} of ${text}: ${JSON.stringify(partial)}`);
        }
        // A bare number is never known whole from its text alone: a later byte could lengthen it.
        expect(parsePartialJson(text)).toEqual(typeof full === "number" ? undefined : full);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['{"a": "hel', { a: "hel" }],
    ['{"a": 12', {}],
    ['{"a": 12,', { a: 12 }],
    ['{"a": tr', {}],
    ['{"a": true', { a: true }],
    ['{"a', {}],
    ['{"a": ', {}],
    ['[1, 2, {"b": [', [1, 2, { b: [] }]],
    ['"\\u00', ""],
    ['"caf\\u00e9 \\"x\\" \\n', 'café "x" \n'],
    ["-", undefined],
    ['{"a":{},"b":[],"c":[{}]}', { a: {}, b: [], c: [{}] }],
    ["{ }", {}],
    ["[ ]", []],
    ['{\t"a" :\r\n[ 1 ,\n2 ] }', { a: [1, 2] }],
    ['["\\b\\f\\n\\r\\t\\/\\\\\\""]', ['\b\f\n\r\t/\\"']],
    ['["\\u00e9\\u00E9x"]', ["ééx"]],
    ['["a\\', ["a"]],
    ['["a\\u00', ["a"]],
    ["[1.5e+3, -0.25, 2E-2, 0]", [1500, -0.25, 0.02, 0]],
    ["[1e", []],
    ["[1.", []],
    ["[-", []],
    ['{"a": 1', {}],
    ['{"a": -1.5e3}', { a: -1500 }],
    ["[true, false, null]", [true, false, null]],
    ["[tru", []],
    ["[nul", []],
    ["", undefined],
    ["   ", undefined],
  ])("%j reads as %j", (text, expected) => {
    expect(parsePartialJson(text)).toEqual(expected);
  });

  it("text that is not JSON has no partial value", () => {
    for (const text of [
      "Sure! {",
      "{a: 1}",
      "{'a'",
      "[1 2]",
      "nul1",
      '{"a" 1}',
      "[01]",
      "[1.e5]",
      "[+1]",
      "[.5]",
      '["\\x"]',
      '["\\u12G4"]',
      '["\\uG234"]',
      "[1,]x",
      "[1}",
      '{"a":1]',
      "{,}",
      "[,1]",
    ]) {
      expect(parsePartialJson(text), text).toBeUndefined();
    }
  });

  it("a hostile nesting depth ends the value there instead of exhausting the stack", () => {
    const deep = "[".repeat(100_000);
    expect(() => parsePartialJson(deep)).not.toThrow();
    expect(JSON.stringify(parsePartialJson(deep))).toMatch(/^\[+\]+$/);
  });

  it("a key never lands on the object's prototype", () => {
    const value = parsePartialJson('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
