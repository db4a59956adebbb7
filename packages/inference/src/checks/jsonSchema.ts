/**
 * A value checked against a JSON Schema's core keywords, for a structured answer or a tool's arguments whose schema
 * is a plain JSON Schema (a Standard Schema validator checks its own): `type`, `enum`, `const`, `properties`,
 * `required`, `additionalProperties`, `items`, `prefixItems`, `minItems`, `maxItems`, `minLength`, `maxLength`,
 * `pattern`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `anyOf`, `oneOf`, `allOf`,
 * `not`, `$ref` within the schema (`#/$defs/…`, `#/definitions/…`). Other keywords (formats among them) are not
 * checked. The schema (an MCP server's) and the value (a model's) are both hostile, so a check is bounded: it never
 * throws, follows at most MAX_DEPTH levels, takes at most MAX_STEPS steps and gives at most MAX_ISSUES issues; a
 * value it could not check whole is refused with an issue saying why.
 */
import { isRecord, type JsonObject } from "../core/json";
import type { StandardIssue } from "../types";

/** How many levels of subschemas (`$ref`, `properties`, `items`, `anyOf` … each one) a check follows. */
export const MAX_DEPTH = 64;
/**
 * The most steps one check takes: a value against a subschema, a node compared for `enum` or `const`, an entry of a
 * schema's list, or 64 characters of a string measured or matched. Shared references checked once per value (a
 * schema of nested `anyOf` over `$ref`s costs its size, not 2^depth), this is far above any answer a model writes.
 */
export const MAX_STEPS = 1_000_000;
/** The most issues one check gives; one more then says the check stopped there. */
export const MAX_ISSUES = 100;
/** Steps taken by every check since the module loaded: the work is counted (tests read it), never timed. */
export const jsonSchemaWork = { steps: 0 };

type Say = (message: string) => void;

/** A check ended early: past a bound (`limit`, an issue at `path`), at its first issue (a branch), or with enough. */
class Stop extends Error {
  constructor(
    message: string,
    readonly path: PropertyKey[] = [],
  ) {
    super(message);
  }
}
/** Thrown again and again, never shown: the stack is taken once. */
const FAILED = new Stop("a branch failed");
const FULL = new Stop("enough issues");

/** The issues of `value` against `schema`; empty when it conforms. Never throws: a failure of its own is an issue. */
export function checkJsonSchema(value: unknown, schema: unknown): StandardIssue[] {
  const walk = new Walk(isRecord(schema) ? schema : {});
  try {
    walk.check(value, schema, [], 0);
  } catch (error) {
    walk.issues.push(stopped(error));
  } finally {
    jsonSchemaWork.steps += walk.steps;
  }
  return walk.issues;
}

/** The last issue of a check that ended early: why. */
function stopped(error: unknown): StandardIssue {
  if (error === FULL) return { message: `more issues not listed: a check stops at ${MAX_ISSUES}`, path: [] };
  if (error instanceof Stop) return { message: error.message, path: error.path };
  // A failure of the check's own (a stack overflowed, say) refuses the value: it was not checked.
  const why = error instanceof Error ? error.message : typeof error;
  return { message: `not checked: the check failed (${why.slice(0, 200)})`, path: [] };
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const fits = (actual: string, wanted: unknown): boolean =>
  wanted === actual || (wanted === "number" && actual === "integer");

function resolve(ref: string, root: JsonObject): unknown {
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!m) return undefined;
  const defs = root[m[1] ?? ""];
  return isRecord(defs)
    ? defs[
        decodeURIComponent(m[2] ?? "")
          .replace(/~1/g, "/")
          .replace(/~0/g, "~")
      ]
    : undefined;
}

/** One check: its issues, its steps, what it already knows of shared references, the patterns it compiled. */
class Walk {
  readonly issues: StandardIssue[] = [];
  steps = 0;
  /** Whether a value conforms to a `$ref`'s target, by target then value: where a walk would repeat itself. */
  private readonly known = new Map<unknown, Map<unknown, boolean>>();
  private readonly patterns = new Map<string, RegExp | undefined>();

  constructor(private readonly root: JsonObject) {}

  /** `value` against `schema` at `path`; `collect` false in a branch test, which ends at its first issue. */
  check(value: unknown, schema: unknown, path: PropertyKey[], depth: number, collect = true): void {
    const say = (message: string): void => this.say(message, path, collect);
    if (schema === false) return say("no value is allowed here");
    if (!isRecord(schema)) return;
    if (depth > MAX_DEPTH) throw new Stop(`not checked: nested deeper than ${MAX_DEPTH} levels of the schema`, path);
    this.charge(1, path);
    if (typeof schema.$ref === "string") this.follow(value, resolve(schema.$ref, this.root), path, depth + 1, collect);
    const { type } = schema;
    const types = this.list(type === undefined || Array.isArray(type) ? type : [type], path);
    const actual = typeOf(value);
    const nullable = schema.nullable === true && value === null;
    if (type !== undefined && !nullable && !types.some((t) => fits(actual, t))) {
      return say(`expected ${types.join(" or ").slice(0, 200)}, got ${actual}`);
    }
    const same = (e: unknown): boolean => this.equal(e, value, path, 0);
    const shown = (v: unknown): string => String(JSON.stringify(v)).slice(0, 200);
    const { enum: values } = schema;
    if (Array.isArray(values) && !this.list(values, path).some(same)) say(`expected one of ${shown(values)}`);
    if ("const" in schema && !same(schema.const)) say(`expected ${shown(schema.const)}`);
    if (typeof value === "string") this.checkString(value, schema, path, say);
    if (typeof value === "number") checkNumber(value, schema, say);
    if (Array.isArray(value)) this.checkArray(value, schema, path, depth, collect);
    if (isRecord(value)) this.checkObject(value, schema, path, depth, collect);
    for (const sub of this.list(schema.allOf, path)) this.check(value, sub, path, depth + 1, collect);
    this.checkBranches(value, schema, path, depth, say);
  }

  private checkBranches(value: unknown, schema: JsonObject, path: PropertyKey[], depth: number, say: Say): void {
    const conforms = (sub: unknown): boolean => this.conforms(value, sub, path, depth + 1);
    if (Array.isArray(schema.anyOf) && !this.list(schema.anyOf, path).some(conforms)) say("matches none of anyOf");
    if (Array.isArray(schema.oneOf)) {
      let matched = 0;
      for (const sub of this.list(schema.oneOf, path)) if (conforms(sub) && ++matched > 1) break;
      if (matched !== 1) say(matched === 0 ? "matches none of oneOf" : "matches more than one of oneOf");
    }
    if (schema.not !== undefined && conforms(schema.not)) say("matches what `not` excludes");
  }

  /** A `$ref`'s target: known per value once checked, so a reference shared by many branches costs one walk. */
  private follow(value: unknown, target: unknown, path: PropertyKey[], depth: number, collect: boolean): void {
    if (target === undefined) return;
    let byValue = this.known.get(target);
    if (byValue === undefined) this.known.set(target, (byValue = new Map<unknown, boolean>()));
    let ok = byValue.get(value);
    if (ok === undefined) byValue.set(value, (ok = this.conforms(value, target, path, depth)));
    if (ok) return;
    if (!collect) throw FAILED;
    // Walked again only to name the issues: each such walk gives one at least, and the issues are bounded.
    this.check(value, target, path, depth, collect);
  }

  private conforms(value: unknown, schema: unknown, path: PropertyKey[], depth: number): boolean {
    try {
      this.check(value, schema, path, depth, false);
      return true;
    } catch (error) {
      if (error === FAILED) return false;
      throw error;
    }
  }

  private say(message: string, path: PropertyKey[], collect: boolean): void {
    if (!collect) throw FAILED;
    if (this.issues.length >= MAX_ISSUES) throw FULL;
    this.issues.push({ message, path });
  }

  private charge(steps: number, path: PropertyKey[]): void {
    this.steps += steps;
    if (this.steps > MAX_STEPS) throw new Stop(`not checked: the check passed its bound of ${MAX_STEPS} steps`, path);
  }

  /** A schema's list (of types, values, subschemas or names), each entry a step; none when it is not a list. */
  private list(value: unknown, path: PropertyKey[]): readonly unknown[] {
    if (!Array.isArray(value)) return [];
    this.charge(value.length, path);
    return value;
  }

  private equal(a: unknown, b: unknown, path: PropertyKey[], depth: number): boolean {
    this.charge(1, path);
    if (a === b) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (depth > MAX_DEPTH) throw new Stop(`not checked: a value compared deeper than ${MAX_DEPTH} levels`, path);
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const deeper = (k: string): boolean => this.equal(Reflect.get(a, k), Reflect.get(b, k), path, depth + 1);
    return ka.length === kb.length && ka.every(deeper);
  }

  private checkString(value: string, schema: JsonObject, path: PropertyKey[], say: Say): void {
    const { minLength: min, maxLength: max, pattern } = schema;
    if (typeof min !== "number" && typeof max !== "number" && typeof pattern !== "string") return;
    this.charge(Math.ceil(value.length / 64), path);
    let length = 0;
    for (const _ of value) length++; // characters, not UTF-16 units, and no copy of a long string
    if (typeof min === "number" && length < min) say(`shorter than ${min} characters`);
    if (typeof max === "number" && length > max) say(`longer than ${max} characters`);
    if (typeof pattern !== "string") return;
    if (!this.patterns.has(pattern)) this.patterns.set(pattern, compile(pattern));
    const re = this.patterns.get(pattern);
    if (re && !re.test(value)) say(`does not match ${pattern.slice(0, 200)}`);
  }

  private checkArray(value: unknown[], schema: JsonObject, path: PropertyKey[], depth: number, collect: boolean) {
    const say = (message: string): void => this.say(message, path, collect);
    const { minItems: min, maxItems: max } = schema;
    if (typeof min === "number" && value.length < min) say(`fewer than ${min} items`);
    if (typeof max === "number" && value.length > max) say(`more than ${max} items`);
    const prefix: readonly unknown[] = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    value.forEach((item, i) => {
      const sub: unknown = i < prefix.length ? prefix[i] : schema.items;
      if (sub !== undefined) this.check(item, sub, [...path, i], depth + 1, collect);
    });
  }

  private checkObject(value: JsonObject, schema: JsonObject, path: PropertyKey[], depth: number, collect: boolean) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const key of this.list(schema.required, path)) {
      if (typeof key !== "string" || Object.hasOwn(value, key)) continue;
      this.say(`missing required property ${quote(key)}`, path, collect);
    }
    const extra = schema.additionalProperties;
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, key)) this.check(item, properties[key], [...path, key], depth + 1, collect);
      else if (extra === false) this.say(`unexpected property ${quote(key)}`, [...path, key], collect);
      else if (isRecord(extra)) this.check(item, extra, [...path, key], depth + 1, collect);
    }
  }
}

/** A key as an issue names it: quoted, cut to 64 characters (a model's key may be megabytes). */
const quote = (key: string): string => JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);

/** A pattern JavaScript cannot read is not checked. */
function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
}

function checkNumber(value: number, schema: JsonObject, say: Say): void {
  const { minimum: min, maximum: max, exclusiveMinimum: xmin, exclusiveMaximum: xmax, multipleOf: step } = schema;
  if (typeof min === "number" && value < min) say(`less than ${min}`);
  if (typeof max === "number" && value > max) say(`more than ${max}`);
  if (typeof xmin === "number" && value <= xmin) say(`not more than ${xmin}`);
  if (typeof xmax === "number" && value >= xmax) say(`not less than ${xmax}`);
  const off = typeof step === "number" && step > 0 && Math.abs(value / step - Math.round(value / step)) > 1e-9;
  if (off) say(`not a multiple of ${String(step)}`);
}
