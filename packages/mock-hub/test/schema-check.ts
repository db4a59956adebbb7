import { isDeepStrictEqual } from "node:util";

/**
 * A small JSON Schema checker for the keywords the mock model's generator supports: `type` (a list too),
 * `enum`, `const`, `properties`, `required`, `additionalProperties`, `minProperties`, `items` (a schema or a
 * list), `prefixItems`, `minItems`, `maxItems`, `minLength`, `maxLength`, `pattern`, `format` (date,
 * date-time, email, uri), `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (numbers, or draft 4's
 * booleans), `multipleOf`, `anyOf`, `oneOf`, `allOf`, `$ref` (local). Written apart from the generator, so
 * that one cannot agree with itself.
 */

type Schema = Record<string, any>;

const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  uri: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
};

/** Every way `value` breaks `schema`, as `path: problem`; empty when it is valid. */
export function schemaErrors(schema: unknown, value: unknown, root: unknown = schema, path = "$"): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${path}: nothing is allowed`];
  const s = schema as Schema;
  const errors: string[] = [];
  const fail = (problem: string) => errors.push(`${path}: ${problem}`);
  if (typeof s.$ref === "string") errors.push(...schemaErrors(resolve(root, s.$ref), value, root, path));
  if (s.type !== undefined && !typesOf(s.type).some((type) => hasType(value, type)))
    fail(`not of type ${JSON.stringify(s.type)}`);
  if (Array.isArray(s.enum) && !s.enum.some((option: unknown) => isDeepStrictEqual(option, value))) fail("not in enum");
  if ("const" in s && !isDeepStrictEqual(s.const, value)) fail("not the const");
  for (const part of s.allOf ?? []) errors.push(...schemaErrors(part, value, root, path));
  if (Array.isArray(s.anyOf) && !s.anyOf.some((part: unknown) => schemaErrors(part, value, root, path).length === 0))
    fail("matches no anyOf branch");
  if (
    Array.isArray(s.oneOf) &&
    s.oneOf.filter((part: unknown) => schemaErrors(part, value, root, path).length === 0).length !== 1
  )
    fail("does not match exactly one oneOf branch");
  if (typeof value === "string") errors.push(...stringErrors(s, value, path));
  if (typeof value === "number") errors.push(...numberErrors(s, value, path));
  if (Array.isArray(value)) errors.push(...arrayErrors(s, value, root, path));
  else if (typeof value === "object" && value !== null)
    errors.push(...objectErrors(s, value as Record<string, unknown>, root, path));
  return errors;
}

function resolve(root: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split("/")
    .filter(Boolean)
    .reduce<any>((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
}

function typesOf(type: unknown): string[] {
  return Array.isArray(type) ? type : [type as string];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

function stringErrors(s: Schema, value: string, path: string): string[] {
  const errors: string[] = [];
  const length = [...value].length;
  if (typeof s.minLength === "number" && length < s.minLength) errors.push(`${path}: shorter than ${s.minLength}`);
  if (typeof s.maxLength === "number" && length > s.maxLength) errors.push(`${path}: longer than ${s.maxLength}`);
  if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value))
    errors.push(`${path}: does not match ${s.pattern}`);
  const format = FORMATS[s.format as string];
  if (format && !format.test(value)) errors.push(`${path}: not a ${s.format}`);
  return errors;
}

function numberErrors(s: Schema, value: number, path: string): string[] {
  const errors: string[] = [];
  const below = (bound: unknown, open: boolean) => typeof bound === "number" && (open ? value <= bound : value < bound);
  const above = (bound: unknown, open: boolean) => typeof bound === "number" && (open ? value >= bound : value > bound);
  if (below(s.minimum, s.exclusiveMinimum === true) || below(s.exclusiveMinimum, true))
    errors.push(`${path}: below the minimum`);
  if (above(s.maximum, s.exclusiveMaximum === true) || above(s.exclusiveMaximum, true))
    errors.push(`${path}: above the maximum`);
  if (typeof s.multipleOf === "number") {
    const ratio = value / s.multipleOf;
    if (Math.abs(ratio - Math.round(ratio)) > 1e-9) errors.push(`${path}: not a multiple of ${s.multipleOf}`);
  }
  return errors;
}

function arrayErrors(s: Schema, value: unknown[], root: unknown, path: string): string[] {
  const errors: string[] = [];
  if (typeof s.minItems === "number" && value.length < s.minItems)
    errors.push(`${path}: fewer than ${s.minItems} items`);
  if (typeof s.maxItems === "number" && value.length > s.maxItems)
    errors.push(`${path}: more than ${s.maxItems} items`);
  const prefix: unknown[] = s.prefixItems ?? (Array.isArray(s.items) ? s.items : []);
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  value.forEach((item, i) =>
    errors.push(...schemaErrors(i < prefix.length ? prefix[i] : rest, item, root, `${path}[${i}]`)),
  );
  return errors;
}

function objectErrors(s: Schema, value: Record<string, unknown>, root: unknown, path: string): string[] {
  const errors: string[] = [];
  const properties: Schema = s.properties ?? {};
  for (const name of s.required ?? []) if (!(name in value)) errors.push(`${path}: missing ${name}`);
  if (typeof s.minProperties === "number" && Object.keys(value).length < s.minProperties)
    errors.push(`${path}: fewer than ${s.minProperties} properties`);
  for (const [name, item] of Object.entries(value)) {
    const schema = name in properties ? properties[name] : s.additionalProperties;
    errors.push(...schemaErrors(schema, item, root, `${path}.${name}`));
  }
  return errors;
}
