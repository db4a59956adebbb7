import { isRecord } from "../http.js";
import { flatten, typeList, type Schema } from "./resolve.js";
import { numberFor, stringFor } from "./scalars.js";

/**
 * The value the mock model writes for a JSON schema: valid for it, the same every time, and meaningful where
 * names allow (a string `city` is "Paris"). Every property is filled in; once a reference comes back inside
 * itself (a recursive schema) or past `MAX_DEPTH` levels, only what is required.
 */

const MAX_DEPTH = 8;
/** Past this, a schema whose required parts recurse for ever gets `null`. */
const HARD_DEPTH = 32;

interface Walk {
  root: unknown;
  /** The property the value is for: names pick the words and numbers. */
  name: string;
  /** The position in an array, so items differ. */
  index: number;
  depth: number;
  /** The references followed on the way here. */
  refs: readonly string[];
}

export function valueFor(schema: unknown, name = "answer"): unknown {
  return valueAt(schema, { root: schema, name, index: 0, depth: 0, refs: [] });
}

const shallow = (walk: Walk): boolean =>
  walk.depth >= MAX_DEPTH || walk.refs.some((ref, i) => walk.refs.indexOf(ref) !== i);

function valueAt(schema: unknown, walk: Walk): unknown {
  if (schema === false || walk.depth > HARD_DEPTH) return null;
  if (!isRecord(schema)) return stringFor({}, walk.name, walk.index);
  const flat = flatten(schema, walk.root, shallow(walk));
  const s = flat.schema;
  const inner = { ...walk, refs: [...walk.refs, ...flat.refs] };
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[walk.index % s.enum.length];
  switch (typeOf(s, shallow(inner))) {
    case "object":
      return objectFor(s, inner);
    case "array":
      return arrayFor(s, inner);
    case "integer":
      return numberFor(s, walk.name, true);
    case "number":
      return numberFor(s, walk.name, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return stringFor(s, walk.name, walk.index);
  }
}

/** The type a value takes: the first listed that is not `null` (`null` itself when shallow), else what the keywords imply. */
function typeOf(s: Schema, shallowWalk: boolean): string {
  const types = typeList(s.type);
  if (types.length > 0)
    return shallowWalk && types.includes("null") ? "null" : (types.find((t) => t !== "null") ?? "null");
  if (isRecord(s.properties) || Array.isArray(s.required) || "additionalProperties" in s) return "object";
  if ("items" in s || "prefixItems" in s || "minItems" in s || "maxItems" in s) return "array";
  const numeric = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
  return numeric.some((key) => key in s) ? "number" : "string";
}

function child(walk: Walk, name: string, index = 0): Walk {
  return { ...walk, name, index, depth: walk.depth + 1 };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function objectFor(s: Schema, walk: Walk): Record<string, unknown> {
  const properties = isRecord(s.properties) ? s.properties : {};
  const required = strings(s.required);
  const names = shallow(walk) ? required : [...new Set([...Object.keys(properties), ...required])];
  const extra =
    s.additionalProperties === undefined || s.additionalProperties === false ? true : s.additionalProperties;
  const entries = names.map((name): [string, unknown] => [
    name,
    valueAt(Object.hasOwn(properties, name) ? properties[name] : extra, child(walk, name)),
  ]);
  const atLeast = typeof s.minProperties === "number" ? s.minProperties : 0;
  for (let n = 1; entries.length < atLeast && s.additionalProperties !== false; n++) {
    if (!names.includes(`extra_${n}`)) entries.push([`extra_${n}`, valueAt(extra, child(walk, "extra"))]);
  }
  return Object.fromEntries(entries);
}

function arrayFor(s: Schema, walk: Walk): unknown[] {
  // `prefixItems` (2020-12) or an `items` list (draft 7) give the first items' schemas; `items` the rest's.
  const prefix: unknown[] = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? (s.additionalItems ?? true) : (s.items ?? true);
  const min = typeof s.minItems === "number" ? s.minItems : 0;
  const max = typeof s.maxItems === "number" ? s.maxItems : Infinity;
  const wanted = shallow(walk) ? min : Math.max(min, prefix.length, 1);
  const count = Math.min(wanted, max, rest === false ? prefix.length : Infinity);
  const itemName = singular(walk.name);
  return Array.from({ length: count }, (_, i) =>
    valueAt(i < prefix.length ? prefix[i] : rest, child(walk, itemName, i)),
  );
}

/** `cities` → `city`, `tags` → `tag`: what one item of a list is called. */
function singular(name: string): string {
  if (name.endsWith("ies")) return `${name.slice(0, -3)}y`;
  return name.endsWith("s") && !name.endsWith("ss") ? name.slice(0, -1) : name;
}

/** Candidates for a value of a type the schema does not allow, one per JSON type. */
const WRONG_TYPE: ReadonlyArray<[string, unknown]> = [
  ["string", "not what the schema asks for"],
  ["number", 1.5],
  ["boolean", true],
  ["array", []],
  ["object", {}],
  ["null", null],
];

/**
 * `value` (valid for `schema`) broken the way a model without a grammar breaks it: its first required
 * property left out, else a value of a type the schema does not take. `value` itself when nothing breaks it.
 */
export function violationOf(schema: unknown, value: unknown): unknown {
  const s = isRecord(schema) ? flatten(schema, schema, false).schema : {};
  const [first] = strings(s.required);
  if (isRecord(value) && first !== undefined)
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== first));
  const allowed = typeList(s.type);
  const excluded = (candidate: unknown) =>
    ("const" in s && s.const === candidate) || (Array.isArray(s.enum) && s.enum.includes(candidate));
  const bounded = allowed.length > 0 || "const" in s || Array.isArray(s.enum);
  const wrong = WRONG_TYPE.find(([type, candidate]) => !allowed.includes(type) && !excluded(candidate));
  return bounded && wrong ? wrong[1] : value;
}
