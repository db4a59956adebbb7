import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, inject, it } from "vitest";
import { bundle, BROWSER, NEUTRAL, type Bundle } from "./bundle";

const appDir = inject("appDir");
const ENTRY = "bundle-entry.mjs";
writeFileSync(join(appDir, ENTRY), 'export { InferenceClient, chatCompletionStream, ValidationError } from "@hfkit/inference";\n');

// esbuild cannot resolve a Node built-in on these platforms, so a build that succeeds with nothing external
// proves none is imported; the inputs show nothing but the SDK's own files came in (its one file, and the chunks
// of what it loads on first use: the router's catalog and failover).
it.each([
  ["neutral", NEUTRAL],
  ["browser", BROWSER],
])("esbuild bundles the SDK for platform %s with no Node built-in", async (_name, options) => {
  const { code, metafile }: Bundle = await bundle(appDir, ENTRY, { ...options, minify: true });
  const inputs = Object.keys(metafile.inputs).filter((input) => input !== ENTRY);
  expect(inputs).toContain("node_modules/@hfkit/inference/dist/index.js");
  expect(inputs.filter((input) => !/^node_modules\/@hfkit\/inference\/dist\/(index|catalog-\w+|failover-\w+|chunk-\w+)\.js$/.test(input))).toEqual([]);
  for (const output of Object.values(metafile.outputs)) expect(output.imports).toEqual([]);
  expect(code).not.toMatch(/\bnode:[a-z]/);
});
