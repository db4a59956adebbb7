/**
 * Round four on the JSON Schema checker: an MCP server's schema and a model's answer are both hostile, so a check
 * is bounded in time (steps counted, never timed), depth and issues, and never throws. A schema of nested anyOf
 * over shared references costs its size, not 2^depth; each keyword still says what it checks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkJsonSchema, jsonSchemaWork, MAX_DEPTH, MAX_ISSUES, MAX_STEPS } from "../../src/checks/jsonSchema";

/** The steps `check` takes, and its issues. */
function counted(value: unknown, schema: unknown) {
  const before = jsonSchemaWork.steps;
  const issues = checkJsonSchema(value, schema);
  return { issues, steps: jsonSchemaWork.steps - before };
}

const letter = (i: number): string => String.fromCharCode(i < 26 ? 97 + i : 65 + i - 26);

/** `levels` definitions, each `keyword` of two references to the next, the last `leaf`: 2^levels paths to it. */
function sharedLevels(levels: number, keyword = "anyOf", leaf: unknown = { type: "string" }): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/${letter(i + 1)}` };
    $defs[letter(i)] = i + 1 < levels ? { [keyword]: [next, next] } : leaf;
  }
  return { $ref: "#/$defs/a", $defs };
}

describe("a schema built to take exponential time costs its size", () => {
  it(
    "32 levels of anyOf over shared references (under 2 KB): refused in a few hundred steps",
    { timeout: 60_000 },
    () => {
      const schema = sharedLevels(32);
      expect(JSON.stringify(schema).length).toBeLessThan(2048);
      const { issues, steps } = counted(1, schema);
      expect(issues).toEqual([{ message: "matches none of anyOf", path: [] }]);
      expect(steps).toBeLessThan(500);
      expect(counted("yes", schema)).toMatchObject({ issues: [] });
    },
  );

  it("one definition of anyOf over itself (60 bytes): refused at the documented depth", { timeout: 60_000 }, () => {
    const schema = { $ref: "#/$defs/x", $defs: { x: { anyOf: [{ $ref: "#/$defs/x" }, { $ref: "#/$defs/x" }] } } };
    const { issues, steps } = counted(1, schema);
    expect(issues).toEqual([
      { message: `not checked: nested deeper than ${MAX_DEPTH} levels of the schema`, path: [] },
    ]);
    expect(steps).toBeLessThan(500);
  });

  it(
    "32 levels of allOf over shared references: at most 100 issues and the one saying the check stopped",
    { timeout: 60_000 },
    () => {
      const { issues, steps } = counted(1, sharedLevels(32, "allOf"));
      expect(issues).toHaveLength(MAX_ISSUES + 1);
      expect(issues.at(-1)?.message).toBe(`more issues not listed: a check stops at ${MAX_ISSUES}`);
      expect(steps).toBeLessThan(20_000);
    },
  );

  it("oneOf and not over shared references, and a value 32 levels deep through properties", { timeout: 60_000 }, () => {
    expect(counted(1, sharedLevels(32, "oneOf", { type: "number" })).issues[0]?.message).toBe("matches none of oneOf");
    expect(counted(1, sharedLevels(32, "oneOf")).steps).toBeLessThan(500);
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) {
      const next = { $ref: `#/$defs/${letter(i + 1)}` };
      $defs[letter(i)] = {
        type: "object",
        properties: { a: i + 1 < 20 ? { anyOf: [next, { not: { not: next } }] } : { type: "string" } },
      };
    }
    let value: unknown = 1;
    for (let i = 0; i < 20; i++) value = { a: value };
    const { issues, steps } = counted(value, { $ref: "#/$defs/a", $defs });
    expect(issues.map((i) => i.message)).toEqual(["matches none of anyOf"]);
    expect(steps).toBeLessThan(2_000);
  });
});

describe("each bound is an issue, never a throw", () => {
  it("a 100 000-deep answer against a recursive schema: refused where it passes the documented depth", () => {
    const value: unknown = JSON.parse(`${"[".repeat(100_000)}1${"]".repeat(100_000)}`);
    const schema = {
      $ref: "#/$defs/t",
      $defs: { t: { anyOf: [{ type: "number" }, { type: "array", items: { $ref: "#/$defs/t" } }] } },
    };
    const { issues } = counted(value, schema);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toBe(`not checked: nested deeper than ${MAX_DEPTH} levels of the schema`);
    expect(counted([[[1]]], schema).issues).toEqual([]);
  });

  it("an answer that needs more steps than the budget is refused at the budget", () => {
    const { issues, steps } = counted(new Array(MAX_STEPS + 10).fill(1), { items: { minimum: 0 } });
    expect(issues).toEqual([
      { message: `not checked: the check passed its bound of ${MAX_STEPS} steps`, path: [MAX_STEPS - 1] },
    ]);
    expect(steps).toBe(MAX_STEPS + 1);
  });

  it("a huge answer gives 100 issues and one saying the check stopped, each naming a key of at most 64 characters", () => {
    const { issues, steps } = counted(new Array(1_000_000).fill("x"), { items: { type: "number" } });
    expect(issues).toHaveLength(MAX_ISSUES + 1);
    expect(steps).toBeLessThan(1_000);
    const key = "k".repeat(1_000_000);
    const [extra] = checkJsonSchema({ [key]: 1 }, { additionalProperties: false });
    expect(extra?.message).toBe(`unexpected property "${"k".repeat(64)}…"`);
  });

  it("a long string is measured as characters, each 64 a step", () => {
    expect(counted("é".repeat(6400), { maxLength: 6400 })).toEqual({ issues: [], steps: 101 });
    expect(counted("😀😀", { minLength: 3 }).issues[0]?.message).toBe("shorter than 3 characters");
  });

  it("a failure of the checker's own (a getter that throws, a cycle) is an issue, never a throw", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new RangeError("Maximum call stack size exceeded");
        },
      },
    );
    expect(checkJsonSchema(hostile, { type: "object" })).toEqual([
      { message: "not checked: the check failed (Maximum call stack size exceeded)", path: [] },
    ]);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(checkJsonSchema(2, { const: cycle })[0]?.message).toMatch(/^not checked: the check failed/);
    const deep = (): unknown => JSON.parse(`${"[".repeat(5_000)}${"]".repeat(5_000)}`);
    expect(checkJsonSchema(deep(), { const: deep() })[0]?.message).toMatch(/compared deeper than 64 levels/);
  });
});

describe("every keyword still checks what it says", () => {
  const cases: Array<[unknown, unknown, string[]]> = [
    [{ type: "integer" }, 1.5, ["expected integer, got number"]],
    [{ type: ["string", "null"] }, null, []],
    [{ type: "string", nullable: true }, null, []],
    [{ enum: [1, { a: [2] }] }, { a: [2] }, []],
    [{ enum: [1, 2] }, 3, ["expected one of [1,2]"]],
    [{ const: { a: 1 } }, { a: 2 }, ['expected {"a":1}']],
    [{ minLength: 2, maxLength: 3, pattern: "^a" }, "bcde", ["longer than 3 characters", "does not match ^a"]],
    [{ pattern: "(" }, "x", []],
    [{ minimum: 1, maximum: 2, exclusiveMinimum: 1, multipleOf: 0.5 }, 1, ["not more than 1"]],
    [{ exclusiveMaximum: 2, multipleOf: 3 }, 2, ["not less than 2", "not a multiple of 3"]],
    [
      { minItems: 2, prefixItems: [{ type: "string" }], items: { type: "number" } },
      [1],
      ["fewer than 2 items", "expected string, got integer"],
    ],
    [{ maxItems: 1 }, [1, 2], ["more than 1 items"]],
    [
      { required: ["a"], properties: { b: { type: "string" } }, additionalProperties: false },
      { b: 1, c: 2 },
      ['missing required property "a"', "expected string, got integer", 'unexpected property "c"'],
    ],
    [{ additionalProperties: { type: "string" } }, { x: 1 }, ["expected string, got integer"]],
    [{ allOf: [{ minimum: 2 }, { maximum: 0 }] }, 1, ["less than 2", "more than 0"]],
    [{ anyOf: [{ type: "string" }, { minimum: 0 }] }, 1, []],
    [{ oneOf: [{ type: "number" }, { minimum: 0 }] }, 1, ["matches more than one of oneOf"]],
    [{ not: { type: "number" } }, 1, ["matches what `not` excludes"]],
    [false, 1, ["no value is allowed here"]],
    [{ $ref: "#/definitions/x~1y", definitions: { "x/y": { type: "string" } } }, 1, ["expected string, got integer"]],
    [{ $ref: "#/$defs/missing" }, 1, []],
  ];
  it.each(cases)("%j against %j", (schema, value, messages) => {
    expect(checkJsonSchema(value, schema).map((i) => i.message)).toEqual(messages);
  });

  it("issues name where they are", () => {
    const schema = { properties: { list: { items: { $ref: "#/$defs/n" } } }, $defs: { n: { type: "number" } } };
    expect(checkJsonSchema({ list: [1, "x"] }, schema)).toEqual([
      { message: "expected number, got string", path: ["list", 1] },
    ]);
  });
});

/** What conforming means, written naively (exponential, so only for small cases): the reference for the memo. */
function conforms(value: unknown, schema: unknown, root: Record<string, unknown>, depth = 0): boolean {
  if (schema === false) return false;
  if (typeof schema !== "object" || schema === null) return true;
  if (depth > 200) throw new RangeError("the references loop");
  const s = schema as Record<string, unknown>;
  const sub = (v: unknown, x: unknown): boolean => conforms(v, x, root, depth + 1);
  if (typeof s.$ref === "string" && !sub(value, (root.$defs as Record<string, unknown>)[s.$ref.slice(8)])) return false;
  if (s.type === "number" && typeof value !== "number") return false;
  if (s.type === "array" && !Array.isArray(value)) return false;
  if (typeof s.minimum === "number" && typeof value === "number" && value < s.minimum) return false;
  if (s.items !== undefined && Array.isArray(value) && !value.every((v) => sub(v, s.items))) return false;
  if (Array.isArray(s.allOf) && !s.allOf.every((x) => sub(value, x))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((x) => sub(value, x))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((x) => sub(value, x)).length !== 1) return false;
  return !(s.not !== undefined && sub(value, s.not));
}

it("shared references remembered per value give the verdict of the naive walk", () => {
  const ref = fc.constantFrom("#/$defs/p", "#/$defs/q", "#/$defs/r").map(($ref) => ({ $ref }));
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      ref,
      fc.constantFrom({ type: "number" }, { type: "array" }, { minimum: 2 }, {}),
      fc.record({ items: tie("node") }),
      fc.record({ anyOf: fc.array(tie("node"), { maxLength: 3 }) }),
      fc.record({ oneOf: fc.array(tie("node"), { maxLength: 3 }) }),
      fc.record({ allOf: fc.array(tie("node"), { maxLength: 2 }) }),
      fc.record({ not: tie("node") }),
    ),
  }));
  const leaf = fc.oneof(fc.constantFrom({ type: "number" }, { minimum: 1 }, { type: "array" }), node);
  const schema = fc
    .record({ p: node, q: leaf, r: fc.constantFrom({ minimum: 3 }, { type: "number" }) })
    .chain(($defs) => node.map((top) => ({ ...(top as object), $defs })));
  const value = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof({ depthSize: "small" }, fc.integer({ min: 0, max: 4 }), fc.array(tie("v"), { maxLength: 3 })),
  })).v;
  fc.assert(
    fc.property(schema, value, (s, v) => {
      const issues = checkJsonSchema(v, s);
      let naive: boolean;
      try {
        naive = conforms(v, s, s);
      } catch {
        return; // references that loop without consuming the value: the naive walk does not end
      }
      // Past its depth the checker refuses; else it says what the naive walk says.
      if (!issues.some((i) => i.message.startsWith("not checked"))) expect(issues.length === 0).toBe(naive);
    }),
    { numRuns: 2000 },
  );
});
