/**
 * A value checked against a JSON Schema's core keywords, for a structured answer whose schema is a plain JSON Schema
 * (a Standard Schema validator checks its own): `type`, `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`, `prefixItems`, `minItems`, `maxItems`, `minLength`, `maxLength`, `pattern`,
 * `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `anyOf`, `oneOf`, `allOf`, `not`,
 * `$ref` within the schema (`#/$defs/…`, `#/definitions/…`). Other keywords (formats among them) are not checked.
 * Loaded with the structured output only.
 */
import { isRecord, type JsonObject } from "../core/json";
import type { StandardIssue } from "../types";

/** How deep a schema is followed (through `$ref` too): a recursive schema cannot loop. */
const MAX_DEPTH = 64;

/** The issues of `value` against `schema`; empty when it conforms. */
export function checkJsonSchema(value: unknown, schema: unknown): StandardIssue[] {
  const issues: StandardIssue[] = [];
  check(value, schema, [], isRecord(schema) ? schema : {}, issues, 0);
  return issues;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const fits = (actual: string, wanted: unknown): boolean => wanted === actual || (wanted === "number" && actual === "integer");

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => equal(Reflect.get(a, k), Reflect.get(b, k)));
}

function resolve(ref: string, root: JsonObject): unknown {
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!m) return undefined;
  const defs = root[m[1] ?? ""];
  return isRecord(defs) ? defs[decodeURIComponent(m[2] ?? "").replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
}

function check(value: unknown, schema: unknown, path: PropertyKey[], root: JsonObject, issues: StandardIssue[], depth: number): void {
  if (schema === false) {
    issues.push({ message: "no value is allowed here", path });
    return;
  }
  if (!isRecord(schema) || depth > MAX_DEPTH) return;
  const say = (message: string): void => void issues.push({ message, path });
  if (typeof schema.$ref === "string") {
    const target = resolve(schema.$ref, root);
    if (target !== undefined) check(value, target, path, root, issues, depth + 1);
  }
  const actual = typeOf(value);
  const { type } = schema;
  const types = Array.isArray(type) ? type : type === undefined ? undefined : [type];
  const nullable = schema.nullable === true && value === null;
  if (types && !nullable && !types.some((t) => fits(actual, t))) {
    say(`expected ${types.join(" or ")}, got ${actual}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => equal(e, value))) say(`expected one of ${JSON.stringify(schema.enum).slice(0, 200)}`);
  if ("const" in schema && !equal(schema.const, value)) say(`expected ${JSON.stringify(schema.const).slice(0, 200)}`);
  if (typeof value === "string") checkString(value, schema, say);
  if (typeof value === "number") checkNumber(value, schema, say);
  if (Array.isArray(value)) checkArray(value, schema, path, root, issues, depth);
  if (isRecord(value)) checkObject(value, schema, path, root, issues, depth);
  for (const sub of Array.isArray(schema.allOf) ? schema.allOf : []) check(value, sub, path, root, issues, depth + 1);
  const matching = (list: unknown): number | undefined =>
    Array.isArray(list) ? list.filter((sub) => checkJsonSchemaAt(value, sub, root, depth).length === 0).length : undefined;
  const any = matching(schema.anyOf);
  if (any === 0) say("matches none of anyOf");
  const one = matching(schema.oneOf);
  if (one !== undefined && one !== 1) say(one === 0 ? "matches none of oneOf" : "matches more than one of oneOf");
  if (schema.not !== undefined && checkJsonSchemaAt(value, schema.not, root, depth).length === 0) say("matches what `not` excludes");
}

function checkJsonSchemaAt(value: unknown, schema: unknown, root: JsonObject, depth: number): StandardIssue[] {
  const issues: StandardIssue[] = [];
  check(value, schema, [], root, issues, depth + 1);
  return issues;
}

function checkString(value: string, schema: JsonObject, say: (m: string) => void): void {
  const length = [...value].length;
  if (typeof schema.minLength === "number" && length < schema.minLength) say(`shorter than ${schema.minLength} characters`);
  if (typeof schema.maxLength === "number" && length > schema.maxLength) say(`longer than ${schema.maxLength} characters`);
  if (typeof schema.pattern === "string") {
    let re: RegExp | undefined;
    try {
      re = new RegExp(schema.pattern, "u");
    } catch {
      re = undefined; // a pattern JavaScript cannot read is not checked
    }
    if (re && !re.test(value)) say(`does not match ${schema.pattern}`);
  }
}

function checkNumber(value: number, schema: JsonObject, say: (m: string) => void): void {
  const { minimum: min, maximum: max, exclusiveMinimum: xmin, exclusiveMaximum: xmax, multipleOf: step } = schema;
  if (typeof min === "number" && value < min) say(`less than ${min}`);
  if (typeof max === "number" && value > max) say(`more than ${max}`);
  if (typeof xmin === "number" && value <= xmin) say(`not more than ${xmin}`);
  if (typeof xmax === "number" && value >= xmax) say(`not less than ${xmax}`);
  if (typeof step === "number" && step > 0 && Math.abs(value / step - Math.round(value / step)) > 1e-9) say(`not a multiple of ${step}`);
}

function checkArray(value: unknown[], schema: JsonObject, path: PropertyKey[], root: JsonObject, issues: StandardIssue[], depth: number): void {
  if (typeof schema.minItems === "number" && value.length < schema.minItems) issues.push({ message: `fewer than ${schema.minItems} items`, path });
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) issues.push({ message: `more than ${schema.maxItems} items`, path });
  const prefix: readonly unknown[] = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  value.forEach((item, i) => {
    const sub: unknown = i < prefix.length ? prefix[i] : schema.items;
    if (sub !== undefined) check(item, sub, [...path, i], root, issues, depth + 1);
  });
}

function checkObject(value: JsonObject, schema: JsonObject, path: PropertyKey[], root: JsonObject, issues: StandardIssue[], depth: number): void {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof key === "string" && !Object.hasOwn(value, key)) issues.push({ message: `missing required property ${JSON.stringify(key)}`, path });
  }
  for (const [key, item] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) check(item, properties[key], [...path, key], root, issues, depth + 1);
    else if (schema.additionalProperties === false) issues.push({ message: `unexpected property ${JSON.stringify(key)}`, path: [...path, key] });
    else if (isRecord(schema.additionalProperties)) check(item, schema.additionalProperties, [...path, key], root, issues, depth + 1);
  }
}
