/** The values the mock model writes for a JSON schema: valid (by a checker written apart), meaningful, repeatable, bounded. */
import { describe, expect, it } from "vitest";
import { samplePattern } from "../src/schema/pattern.js";
import { valueFor, violationOf } from "../src/schema/values.js";
import { schemaErrors } from "./schema-check.js";

const SCHEMAS: Record<string, unknown> = {
  "scalars by type": {
    type: "object",
    properties: {
      city: { type: "string" },
      age: { type: "integer" },
      price: { type: "number" },
      open: { type: "boolean" },
      nothing: { type: "null" },
    },
  },
  "type lists": {
    type: "object",
    properties: { nickname: { type: ["string", "null"] }, rank: { type: ["null", "integer"] } },
    required: ["nickname", "rank"],
  },
  "nested, closed objects": {
    type: "object",
    properties: {
      trip: {
        type: "object",
        properties: { from: { type: "string" }, to: { type: "string" } },
        required: ["from", "to"],
        additionalProperties: false,
      },
    },
    required: ["trip"],
    additionalProperties: false,
  },
  "required names beyond properties, minProperties": {
    type: "object",
    required: ["id", "label"],
    additionalProperties: { type: "string", maxLength: 8 },
    minProperties: 4,
  },
  "arrays: items, minItems, maxItems": {
    type: "object",
    properties: {
      tags: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3 },
      scores: { type: "array", items: { type: "number", minimum: 0, maximum: 1 }, maxItems: 0 },
    },
  },
  "tuples: prefixItems and an items list": {
    type: "object",
    properties: {
      point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
      pair: { type: "array", items: [{ type: "string" }, { type: "integer" }] },
    },
  },
  "strings: enum, const, lengths, pattern, formats": {
    type: "object",
    properties: {
      unit: { type: "string", enum: ["celsius", "fahrenheit"] },
      kind: { const: "forecast" },
      long: { type: "string", minLength: 40 },
      short: { type: "string", maxLength: 3 },
      code: { type: "string", pattern: "^[A-Z]{3}-\\d{2,4}$" },
      slug: { type: "string", pattern: "^(?:[a-z]+)(?:-[a-z0-9]+)*$" },
      day: { type: "string", format: "date" },
      at: { type: "string", format: "date-time" },
      contact: { type: "string", format: "email" },
      site: { type: "string", format: "uri" },
    },
  },
  "numbers: bounds, exclusive bounds, multipleOf": {
    type: "object",
    properties: {
      between: { type: "number", minimum: 10, maximum: 20 },
      open: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      quarters: { type: "number", multipleOf: 0.25, minimum: 1.1 },
      fives: { type: "integer", multipleOf: 5, minimum: 7 },
      halves: { type: "integer", multipleOf: 2.5 },
      above: { type: "integer", exclusiveMinimum: 100 },
      negative: { type: "integer", maximum: -3 },
      draft4: { type: "number", minimum: 5, exclusiveMinimum: true, maximum: 5.5, exclusiveMaximum: true },
      temperature: { type: "number", minimum: -50, maximum: 60 },
      latitude: { type: "number", minimum: -90, maximum: 90 },
    },
  },
  "a root enum": { enum: ["red", "green", "blue"] },
  "a root const": { const: { fixed: true } },
  "anyOf and oneOf: the first branch": {
    type: "object",
    properties: {
      either: { anyOf: [{ type: "string", format: "date" }, { type: "integer" }] },
      one: { oneOf: [{ type: "integer", minimum: 3 }, { type: "string" }] },
    },
  },
  "allOf: merged": {
    allOf: [
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      { properties: { b: { type: "integer" }, n: { type: "number", minimum: 5 } }, required: ["b"] },
      { properties: { n: { maximum: 6 } } },
    ],
  },
  "$ref into $defs and definitions": {
    type: "object",
    properties: { home: { $ref: "#/$defs/address" }, work: { $ref: "#/definitions/address" } },
    required: ["home", "work"],
    $defs: {
      address: {
        type: "object",
        properties: {
          street: { type: "string" },
          city: { type: "string" },
          zip: { type: "string", pattern: "^\\d{5}$" },
        },
        required: ["city"],
      },
    },
    definitions: { address: { $ref: "#/$defs/address" } },
  },
  "a recursive tree": {
    $ref: "#/$defs/node",
    $defs: {
      node: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        required: ["name"],
      },
    },
  },
  "a linked list whose next is required (null ends it)": {
    type: "object",
    properties: { value: { type: "integer" }, next: { anyOf: [{ $ref: "#" }, { type: "null" }] } },
    required: ["value", "next"],
  },
  "OpenAI strict: every property required, nullable by type list": {
    type: "object",
    properties: {
      name: { type: "string" },
      date: { type: "string" },
      participants: {
        type: "array",
        items: {
          type: "object",
          properties: { email: { type: ["string", "null"] } },
          required: ["email"],
          additionalProperties: false,
        },
      },
    },
    required: ["name", "date", "participants"],
    additionalProperties: false,
  },
};

describe("valueFor", () => {
  it.each(Object.entries(SCHEMAS))("%s: valid for the schema", (_, schema) => {
    const value = valueFor(schema);
    expect(schemaErrors(schema, value)).toEqual([]);
  });

  it("the same schema always gets the same value", () => {
    for (const schema of Object.values(SCHEMAS))
      expect(JSON.stringify(valueFor(schema))).toBe(JSON.stringify(valueFor(structuredClone(schema))));
  });

  it("values read as real ones: chosen by the property's name", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string" },
        homeCountry: { type: "string" },
        contact_email: { type: "string" },
        website: { type: "string" },
        created_at: { type: "string" },
        age: { type: "integer" },
        cities: { type: "array", items: { type: "string" }, minItems: 2 },
        favorite_food: { type: "string" },
      },
    };
    expect(valueFor(schema)).toEqual({
      city: "Paris",
      homeCountry: "France",
      contact_email: "ada@example.com",
      website: "https://example.com/website",
      created_at: "2025-06-14T12:30:00Z",
      age: 36,
      cities: ["Paris", "Paris 2"],
      favorite_food: "Favorite food",
    });
  });

  it("a recursive schema ends: a few levels, then only what is required", () => {
    const tree = valueFor(SCHEMAS["a recursive tree"]) as { children?: unknown[] };
    expect(JSON.stringify(tree).length).toBeLessThan(500);
    expect(tree.children).toHaveLength(1);
    const list = JSON.stringify(valueFor(SCHEMAS["a linked list whose next is required (null ends it)"]));
    expect(list).toMatch(/"next":null/);
  });

  it("a schema that requires itself for ever still ends (null past the hard depth)", () => {
    const endless = { type: "object", properties: { child: { $ref: "#" } }, required: ["child"] };
    expect(JSON.stringify(valueFor(endless)).match(/child/g)?.length).toBeGreaterThan(8);
    expect(valueFor({ $ref: "#" })).toBe("The capital of France is Paris.");
  });

  it("an alias chain ($ref to a $ref) is not recursion: every property filled in", () => {
    expect(valueFor(SCHEMAS["$ref into $defs and definitions"])).toMatchObject({
      work: { street: "Rue de Rivoli", city: "Paris", zip: "75001" },
    });
  });

  it("every property is filled in, optional ones too", () => {
    expect(Object.keys(valueFor(SCHEMAS["scalars by type"]) as object)).toEqual([
      "city",
      "age",
      "price",
      "open",
      "nothing",
    ]);
  });
});

describe("samplePattern (best effort)", () => {
  it.each([
    ["^[A-Z]{2}-\\d{3}$"],
    ["^https?://[a-z]+\\.example$"],
    ["(foo|bar)+baz"],
    ["^\\p{Lu}\\w{3,}$"],
    ["[^a-z]{2}"],
    ["^\\+?[0-9 ]{8,12}$"],
  ])("%s: a string it matches", (pattern) => {
    const sample = samplePattern(pattern);
    expect(sample).toBeDefined();
    expect(new RegExp(pattern, "u").test(sample ?? "")).toBe(true);
  });

  it("undefined where it cannot walk the pattern (lookarounds, back-references)", () => {
    expect(samplePattern("^(?=.*\\d)\\w+$")).toBeUndefined();
    expect(samplePattern("^(a)\\1$")).toBeUndefined();
  });
});

describe("violationOf (the schemaViolation fault)", () => {
  it.each(Object.entries(SCHEMAS).filter(([name]) => !name.includes("anyOf")))(
    "%s: valid JSON that breaks the schema",
    (_, schema) => {
      const broken = violationOf(schema, valueFor(schema));
      expect(JSON.parse(JSON.stringify(broken))).toEqual(broken);
      expect(schemaErrors(schema, broken)).not.toEqual([]);
    },
  );

  it("leaves out the first required property when there is one", () => {
    const schema = SCHEMAS["$ref into $defs and definitions"];
    expect(Object.keys(violationOf(schema, valueFor(schema)) as object)).toEqual(["work"]);
  });
});

describe("the checker itself", () => {
  it("catches what the keywords forbid", () => {
    expect(schemaErrors({ type: "integer", minimum: 3 }, 2.5)).toHaveLength(2);
    expect(schemaErrors({ type: "object", required: ["a"], additionalProperties: false }, { b: 1 })).toEqual([
      "$: missing a",
      "$.b: nothing is allowed",
    ]);
    expect(schemaErrors({ type: "string", pattern: "^a", format: "date" }, "b")).toHaveLength(2);
    expect(schemaErrors({ oneOf: [{ type: "number" }, { type: "integer" }] }, 3)).toHaveLength(1);
    expect(schemaErrors({ $ref: "#/$defs/x", $defs: { x: { const: 1 } } }, 2)).toHaveLength(1);
  });
});
