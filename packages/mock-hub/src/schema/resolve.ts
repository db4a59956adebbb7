import { isRecord } from "../http.js";

/** A JSON schema with its references, `allOf` and `anyOf` / `oneOf` folded in, so one set of keywords decides a value. */

export type Schema = Record<string, unknown>;

/** `$ref`s followed in one schema before giving up (a reference to itself, `a` → `b` → `a`). */
const MAX_CHAIN = 8;

export interface Flat {
  schema: Schema;
  /** The `$ref`s followed: the walker keeps them to see a schema that recurses. */
  refs: string[];
}

/**
 * `schema` with its `$ref` (a JSON pointer into `root`: `#/$defs/…`, `#/definitions/…`, `#`), every `allOf`
 * part and the first `anyOf` / `oneOf` branch merged into its own keywords. `shallow`: prefer a branch without
 * a reference (how a recursive schema ends).
 */
export function flatten(schema: Schema, root: unknown, shallow: boolean, chain = 0): Flat {
  const { $ref, allOf, anyOf, oneOf, ...own } = schema;
  let flat: Flat = { schema: own, refs: [] };
  const fold = (part: unknown, ref?: string): void => {
    if (!isRecord(part) || chain > MAX_CHAIN) return;
    const inner = flatten(part, root, shallow, ref === undefined ? chain : chain + 1);
    flat = {
      schema: merge(flat.schema, inner.schema),
      refs: [...flat.refs, ...(ref === undefined ? [] : [ref]), ...inner.refs],
    };
  };
  if (typeof $ref === "string") fold(pointer(root, $ref), $ref);
  if (Array.isArray(allOf)) for (const part of allOf) fold(part);
  const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : [];
  if (branches.length > 0)
    fold(shallow ? (branches.find((b) => !(isRecord(b) && "$ref" in b)) ?? branches[0]) : branches[0]);
  return flat;
}

/** The schema a local reference names (`#`, `#/$defs/node`, `#/definitions/a~1b`); `{}` when it names none. */
function pointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return {};
  const path = ref.slice(1).split("/").slice(1);
  let node = root;
  for (const raw of path) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isRecord(node) ? node[key] : Array.isArray(node) ? (node as unknown[])[Number(key)] : undefined;
  }
  return node ?? {};
}

const LOWER = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

/** Both schemas' keywords: bounds tightened, `required` and `properties` joined, `type` narrowed; else `a`'s wins. */
export function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined) out[key] = value;
    else if (typeof mine === "number" && typeof value === "number" && LOWER.has(key)) out[key] = Math.max(mine, value);
    else if (typeof mine === "number" && typeof value === "number" && UPPER.has(key)) out[key] = Math.min(mine, value);
    else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) out[key] = union(mine, value);
    else if (key === "properties" && isRecord(mine) && isRecord(value)) out[key] = mergeProperties(mine, value);
    else if (key === "type") out[key] = narrowType(mine, value);
  }
  return out;
}

function mergeProperties(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [name, schema] of Object.entries(b)) out[name] = name in a ? { allOf: [a[name], schema] } : schema;
  return out;
}

function union(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  return [...new Set([...a, ...b])];
}

/** The types both allow (an `integer` is a `number`); `a`'s when they share none. */
function narrowType(a: unknown, b: unknown): unknown {
  const right = typeList(b);
  const both = typeList(a).flatMap((type) => {
    if (right.includes(type)) return [type];
    const numeric =
      (type === "number" && right.includes("integer")) || (type === "integer" && right.includes("number"));
    return numeric ? ["integer"] : [];
  });
  if (both.length === 0) return a;
  return both.length === 1 ? both[0] : both;
}

export function typeList(type: unknown): string[] {
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}
