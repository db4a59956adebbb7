import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { expect, inject, it } from "vitest";
import { bundle, BROWSER, NEUTRAL, type Bundle } from "./bundle";

const appDir = inject("appDir");
const ENTRY = "bundle-entry.mjs";
writeFileSync(
  join(appDir, ENTRY),
  'export { InferenceClient, chatCompletionStream, ValidationError } from "@hfkit/inference";\n',
);

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
  expect(
    inputs.filter(
      (input) =>
        !/^node_modules\/@hfkit\/inference\/dist\/(index|tasks|catalog-\w+|failover-\w+|structured-\w+|tools-\w+|observe-\w+|transformers-\w+|chunk-\w+)\.js$/.test(
          input,
        ),
    ),
  ).toEqual([]);
  for (const output of Object.values(metafile.outputs)) expect(output.imports).toEqual([]);
  expect(code).not.toMatch(/\bnode:[a-z]/);
});

// What an app that only chats loads at start, bundled with code splitting as apps are: none of the code that only
// failover, the router's catalog and structured output use (each chunk carries its own copy of the lookups, the cost
// estimate and the structured output's error).
/** An app of `source` bundled with code splitting: the code of the chunks a page loads at start, and of the rest. */
async function splitApp(name: string, source: string): Promise<{ atStart: string; later: string }> {
  writeFileSync(join(appDir, `${name}.mjs`), source);
  const result = await build({
    entryPoints: [join(appDir, `${name}.mjs`)],
    absWorkingDir: appDir,
    ...BROWSER,
    bundle: true,
    splitting: true,
    minify: true,
    outdir: join(appDir, `${name}-out`),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((k) => outputs[k]?.entryPoint?.endsWith(`${name}.mjs`));
  const start = new Set<string>();
  const visit = (file: string): void => {
    if (start.has(file)) return;
    start.add(file);
    for (const i of outputs[file]?.imports ?? []) if (i.kind === "import-statement") visit(i.path);
  };
  visit(entry ?? "");
  const text = (files: string[]): string =>
    result.outputFiles
      .filter((f) => files.some((k) => f.path.endsWith(k.replace(/^(\.\.\/)*/, ""))))
      .map((f) => f.text)
      .join("\n");
  return { atStart: text([...start]), later: text(Object.keys(outputs).filter((k) => !start.has(k))) };
}

it("an app that only chats loads none of failover's, the catalog's, structured output's or the transformers pipeline's own code at start", async () => {
  const { atStart, later } = await splitApp("chat-only", 'export { chatCompletionStream } from "@hfkit/inference";\n');
  // The lookups' per-credential hash (its constant), their shared lookups, the cost's currency, the failover's message,
  // the structured output's error and its partial JSON reader (its number grammar), the tool runner, the observer's events,
  // health's breakers (their store's check).
  for (const own of [
    /3735928559|0xdeadbeef/,
    /\.lookups\b/,
    /"USD"/,
    /Every candidate failed/,
    /StructuredOutputError/,
    /\[eE\]\[\+-\]\?\\d\+\)\?\$/,
    /There is no tool named/,
    /toolTimeout/,
    /type:"first-chunk"/,
    /type:"failover",call/,
    /get, record, snapshot and now/,
    /Expected \[\{generated_text\}\] from the pipeline/,
  ]) {
    expect(later).toMatch(own);
    expect(atStart).not.toMatch(own);
  }
  expect(atStart).toMatch(/chatCompletionStream|\bexport\b/);
});

it("an app with the client loads its tasks on the first task call: none of their code at start, and tasks.js imports nothing from the root", async () => {
  const { atStart, later } = await splitApp("client-only", 'export { InferenceClient } from "@hfkit/inference";\n');
  // A provider's format, the task core's private-address refusal, a task's own error text: in the lazy file only.
  for (const own of [
    /Task '.*' is not supported for provider/,
    /names a URL on a private or local address/,
    /\/pipeline\/|pipeline\//,
  ]) {
    expect(later).toMatch(own);
    expect(atStart).not.toMatch(own);
  }
  expect(atStart).toMatch(/chat\/completions/);
  const tasksFile = readFileSync(join(appDir, "node_modules/@hfkit/inference/dist/tasks.js"), "utf8");
  expect(tasksFile).not.toMatch(/^\s*import\s[^(]/m);
  expect(tasksFile).not.toMatch(/from\s*["']\.\/index/);
});
