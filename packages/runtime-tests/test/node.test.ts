import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { DEFAULT_TEXT, type MockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { chatUserAgents, expectAppWorked, run, runJson, startHub } from "./harness";
import { runtimeSnippet, writeFetchToHub } from "./snippets";

const appDir = inject("appDir");
/** Every `.js` file under `dir`, as a path relative to it. */
const modulesOf = (dir: string, at = ""): string[] =>
  readdirSync(join(dir, at), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modulesOf(dir, posix.join(at, e.name)) : e.name.endsWith(".js") ? [posix.join(at, e.name)] : [],
  );
let hub: MockHub;
beforeAll(async () => (hub = await startHub()));
beforeEach(() => hub.reset());
afterAll(() => hub.close());

describe("the packed package", () => {
  it("needs no other package: no dependency, and nothing imported from outside its own files", () => {
    const sdkDir = join(appDir, "node_modules/@hfkit/inference");
    const manifest = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    for (const file of ["dist/index.cjs", ...modulesOf(join(sdkDir, "dist")).map((f) => `dist/${f}`)]) {
      const code = readFileSync(join(sdkDir, file), "utf8");
      // Every import and require names one of the package's own files.
      const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\(\s*)["']([^"']+)["']/g)].map(
        (m) => m[1],
      );
      expect(
        specifiers.filter((s) => !s?.startsWith("./") && !s?.startsWith("../")),
        file,
      ).toEqual([]);
    }
  });
});

describe("the ES modules (dist/)", () => {
  it("importing the package loads the chat core and the root alone: the tasks, the features and the providers are each loaded on first use", () => {
    const dir = join(appDir, "node_modules/@hfkit/inference/dist");
    const specifiers = (file: string, pattern: RegExp): string[] =>
      [...readFileSync(join(dir, file), "utf8").matchAll(pattern)].map((m) => posix.join(posix.dirname(file), m[1]!));
    const staticImports = (file: string) =>
      specifiers(file, /^(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']/gm);
    const graph = new Set<string>();
    for (const queue = ["index.js"]; queue.length > 0;) {
      const file = queue.pop()!;
      if (graph.has(file)) continue;
      graph.add(file);
      queue.push(...staticImports(file));
    }
    // The root and the chat core: two files.
    expect([...graph].sort()).toEqual(["chat-core.js", "index.js"]);
    // Each task, the Responses API, the catalog, failover, the observer, structured output and the tool runner: a dynamic import.
    const dynamic = new Set([...graph].flatMap((f) => specifiers(f, /import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)));
    for (const lazy of [
      "tasks/textToImage.js",
      "tasks/responsesStream.js",
      "tasks/textGeneration.js",
      "features/catalog.js",
      "features/failover.js",
      "features/observe.js",
      "features/structured.js",
      "features/tools.js",
    ])
      expect(dynamic.has(lazy), lazy).toBe(true);
    // None of their code is in a file loaded at import.
    for (const file of graph) {
      expect(readFileSync(join(dir, file), "utf8"), file).not.toMatch(
        /function runTask\b|\bPROVIDER_TASKS\b|function resolveProvider\b|class ResponseWriter\b|function responseTries\b|function fetchCatalog\b|function failoverStream\b|\bclass PartialJson\b|function\*? ?toolLoop\b|\bclass Observation\b|Expected \[\{generated_text\}\] from the pipeline/,
      );
    }
    const lazyCode = modulesOf(dir)
      .filter((f) => !graph.has(f))
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    for (const own of [
      /function runTask\b/,
      /\bPROVIDER_TASKS\b/,
      /function responseTries\b/,
      /function fetchCatalog\b/,
      /function failoverStream\b/,
      /\bclass PartialJson\b/,
      /function\*? ?toolLoop\b/,
      /\bclass Observation\b/,
      /Expected \[\{generated_text\}\] from the pipeline/,
    ])
      expect(lazyCode).toMatch(own);
  });
});

describe("Node", () => {
  it("import: the exports map gives the ES modules (tasks loaded on first use), and the app runs on them", async () => {
    const result = await runJson(process.execPath, ["cli.mjs", hub.url], appDir);
    expect(result.resolved).toMatch(/\/node_modules\/@hfkit\/inference\/dist\/index\.js$/);
    await expectAppWorked(result, hub);
    expect(chatUserAgents(hub)).toEqual(new Set([expect.stringMatching(/^hfkit\/\d+\.\d+\.\d+/)]));
  });

  it("require: the exports map gives the CommonJS build, and its errors are instances of the ESM classes", async () => {
    const result = await runJson(process.execPath, ["cli.cjs", hub.url], appDir);
    expect(result.resolved).toMatch(/\/node_modules\/@hfkit\/inference\/dist\/index\.cjs$/);
    expect(result.crossCopyInstanceof).toBe(true);
    await expectAppWorked(result, hub);
  });

  // The dual-package hazard: an app whose code imports the package while a dependency requires it holds two copies
  // (the ES modules and the CommonJS file). Process-wide state is one for both (core/shared.ts): the logger, the
  // warnings given once, the memories of backends and health.
  it("ESM and CommonJS loaded in one process share the logger and the warnings given once", async () => {
    writeFileSync(
      join(appDir, "dual.mjs"),
      `import { createRequire } from "node:module";
import * as esm from "@hfkit/inference";
const cjs = createRequire(import.meta.url)("@hfkit/inference");
const mine = { warn() {} };
esm.setLogger(mine);
console.log(JSON.stringify({ twoCopies: esm.InferenceClient !== cjs.InferenceClient, shared: cjs.getLogger() === mine }));
`,
    );
    const out = JSON.parse(await run(process.execPath, ["dual.mjs"], appDir)) as Record<string, boolean>;
    expect(out).toEqual({ twoCopies: true, shared: true });
  });

  it.each([
    ["node-esm", "snippet-node.mjs", "--import"],
    ["node-cjs", "snippet-node.cjs", "--require"],
  ])("the %s snippet of docs/runtimes.md streams the answer", async (runtime, file, preload) => {
    writeFileSync(join(appDir, file), runtimeSnippet(runtime));
    const redirect = writeFetchToHub(appDir, hub.url, "fetch-to-hub.cjs");
    expect(await run(process.execPath, [preload, redirect, file], appDir)).toBe(DEFAULT_TEXT);
  });
});
