/**
 * The layers of the inference package: each folder of `src/` is one layer and imports point down only,
 * with no import cycle between files. `core/` (the call, its clock, retries, readers, errors, redaction)
 * knows nothing of checks, targets or tasks.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** From the bottom up: a file may import its own layer's files and any layer below it. */
const LAYERS = ["types", "core", "checks", "targets", "features", "tasks", "api", "."] as const;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith(".ts") ? [path] : [];
  });
}

/** The layer of a file: its first folder under `src/` (`version.ts`, imported by `core/`, sits with the types). */
function layerOf(file: string): number {
  const rel = relative(SRC, file);
  if (rel === "version.ts") return 0;
  const top = rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : ".";
  const at = LAYERS.indexOf(top as (typeof LAYERS)[number]);
  if (at < 0) throw new Error(`src/${rel} is in no layer: put it in one of ${LAYERS.join(", ")}`);
  return at;
}

/** The files of `src/` that `file` imports (statically, dynamically or as types). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1] as string);
  return found.map((spec) => {
    const base = resolve(dirname(file), spec.replace(/\.js$/, ""));
    for (const candidate of [`${base}.ts`, join(base, "index.ts")]) {
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not this one
      }
    }
    throw new Error(`${relative(SRC, file)} imports ${spec}, which is no file`);
  });
}

const FILES = sources(SRC);
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));

describe("the layers of src/", () => {
  it("every import points to the importer's own layer or one below it", () => {
    const upward = [...GRAPH].flatMap(([file, deps]) =>
      deps.filter((dep) => layerOf(dep) > layerOf(file)).map((dep) => `${relative(SRC, file)} → ${relative(SRC, dep)}`),
    );
    expect(upward).toEqual([]);
  });

  it("core/ imports nothing but core/, the types and the version", () => {
    const core = [...GRAPH].filter(([file]) => relative(SRC, file).startsWith("core/"));
    expect(core.length).toBeGreaterThan(10);
    const outside = core.flatMap(([file, deps]) =>
      deps.filter((d) => layerOf(d) > layerOf(file)).map((d) => relative(SRC, d)),
    );
    expect(outside).toEqual([]);
  });

  it("no file imports itself through other files (no import cycle)", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const dep of GRAPH.get(file) ?? []) visit(dep, [...path, file]);
      state.set(file, "done");
    };
    for (const file of FILES) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("the rule notices an upward import and a cycle (the checks themselves are live)", () => {
    const core = join(SRC, "core/call.ts");
    const task = join(SRC, "tasks/fillMask.ts");
    expect(layerOf(task)).toBeGreaterThan(layerOf(core));
    expect(() => layerOf(join(SRC, "elsewhere/x.ts"))).toThrow(/in no layer/);
    expect(importsOf(task).map((f) => relative(SRC, f))).toContain("tasks/run.ts");
  });
});

/** The type casts of a file: each `x as T` (not `as const`) and `<T>x`, as `line: text`. */
function castsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const cast = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
    if (cast && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === "const")) {
      found.push(
        `${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText(source).replace(/\s+/g, " ")}`,
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the types hold across the layers", () => {
  it("at most 60 type casts in src/ (values are checked by guards, not asserted)", () => {
    const casts = FILES.flatMap(castsOf);
    expect(casts.length).toBeGreaterThan(0);
    expect(casts.length, casts.join("\n")).toBeLessThanOrEqual(60);
  });

  it("the count sees a cast and skips `as const`", () => {
    const file = join(SRC, "core/json.ts");
    expect(castsOf(file)).toEqual([]);
    const sample = ts.createSourceFile(
      "x.ts",
      "const a = b as string; const c = [1] as const; const d = <number>e;",
      ts.ScriptTarget.Latest,
      true,
    );
    let n = 0;
    const visit = (node: ts.Node): void => {
      if (
        (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
        !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(sample) === "const")
      )
        n++;
      ts.forEachChild(node, visit);
    };
    visit(sample);
    expect(n).toBe(2);
  });

  it("one name for an object of any fields: JsonObject, declared once (core/json.ts)", () => {
    const aliases = FILES.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^\s*(?:export\s+)?type\s+(\w+)\s*=\s*Record<string,\s*unknown>;/gm)].map(
        (m) => `${relative(SRC, file)}: ${m[1]}`,
      ),
    );
    expect(aliases).toEqual(["core/json.ts: JsonObject"]);
  });
});
