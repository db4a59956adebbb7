import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TEXT, type MockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { chatUserAgents, expectAppWorked, run, runJson, startHub } from "./harness";
import { runtimeSnippet, writeFetchToHub } from "./snippets";

const appDir = inject("appDir");
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
    for (const file of [
      "dist/index.js",
      "dist/index.cjs",
      ...readdirSync(join(sdkDir, "dist/node")).map((f) => `dist/node/${f}`),
    ]) {
      const code = readFileSync(join(sdkDir, file), "utf8");
      // Every import and require names one of the package's own files.
      const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\(\s*)["']([^"']+)["']/g)].map(
        (m) => m[1],
      );
      expect(
        specifiers.filter((s) => !s?.startsWith("./")),
        file,
      ).toEqual([]);
    }
  });
});

describe("the Node build (dist/node/)", () => {
  it("loads the tasks and the Responses API only on first use: one file at import, their chunk not in its static graph", () => {
    const dir = join(appDir, "node_modules/@hfkit/inference/dist/node");
    const staticImports = (file: string): string[] =>
      [
        ...readFileSync(join(dir, file), "utf8").matchAll(/^(?:import|export)\s[^;]*?from\s*["']\.\/([^"']+)["']/gm),
      ].map((m) => m[1]!);
    const graph = new Set<string>();
    for (const queue = ["index.js"]; queue.length > 0;) {
      const file = queue.pop()!;
      if (graph.has(file)) continue;
      graph.add(file);
      queue.push(...staticImports(file));
    }
    // The tasks' chunk, the router's catalog, failover (a chat's provider list), the observer, structured output, the tool runner and the transformers pipeline's backend, each loaded on first use.
    const lazyChunks = readdirSync(dir).filter((f) =>
      /^(all|catalog|failover|observe|structured|tools|transformers)-/.test(f),
    );
    expect(lazyChunks.map((f) => f.replace(/-\w+\.js$/, "")).sort()).toEqual([
      "all",
      "catalog",
      "failover",
      "observe",
      "structured",
      "tools",
      "transformers",
    ]);
    // Importing the package loads index.js alone (the code it shares with the chunks is in it).
    expect([...graph]).toEqual(["index.js"]);
    const dynamic = [...graph].flatMap((f) =>
      [...readFileSync(join(dir, f), "utf8").matchAll(/import\(["']\.\/([^"']+)["']\)/g)].map((m) => m[1]),
    );
    expect([...new Set(dynamic)].sort()).toEqual(lazyChunks.sort());
    // Nor is their code: no statically loaded file defines the task core, a provider's format, the Responses writer, the catalog or failover.
    for (const file of graph) {
      expect(readFileSync(join(dir, file), "utf8"), file).not.toMatch(
        /function runTask\b|\bPROVIDER_TASKS\b|function resolveProvider\b|class ResponseWriter\b|function responseTries\b|function fetchCatalog\b|function failoverStream\b|\bPartialJson = class\b|function\*? ?toolLoop\b|\bObservation = class\b|Expected \[\{generated_text\}\] from the pipeline/,
      );
    }
    const lazyCode = readdirSync(dir)
      .filter((f) => f !== "index.js")
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    expect(lazyCode).toMatch(/function runTask\b/);
    expect(lazyCode).toMatch(/\bPROVIDER_TASKS\b/);
    expect(lazyCode).toMatch(/function responseTries\b/);
    expect(lazyCode).toMatch(/function fetchCatalog\b/);
    expect(lazyCode).toMatch(/function failoverStream\b/);
    expect(lazyCode).toMatch(/\bPartialJson = class\b/);
    expect(lazyCode).toMatch(/function\*? ?toolLoop\b/);
    expect(lazyCode).toMatch(/\bObservation = class\b/);
    expect(lazyCode).toMatch(/Expected \[\{generated_text\}\] from the pipeline/);
  });
});

describe("Node", () => {
  it("import: the exports map gives the Node ESM build (tasks in chunks loaded on first use), and the app runs on it", async () => {
    const result = await runJson(process.execPath, ["cli.mjs", hub.url], appDir);
    expect(result.resolved).toMatch(/\/node_modules\/@hfkit\/inference\/dist\/node\/index\.js$/);
    await expectAppWorked(result, hub);
    expect(chatUserAgents(hub)).toEqual(new Set([expect.stringMatching(/^hfkit\/\d+\.\d+\.\d+/)]));
  });

  it("require: the exports map gives the CommonJS build, and its errors are instances of the ESM classes", async () => {
    const result = await runJson(process.execPath, ["cli.cjs", hub.url], appDir);
    expect(result.resolved).toMatch(/\/node_modules\/@hfkit\/inference\/dist\/index\.cjs$/);
    expect(result.crossCopyInstanceof).toBe(true);
    await expectAppWorked(result, hub);
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
