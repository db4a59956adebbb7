import { writeFileSync } from "node:fs";
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
// proves none is imported; the inputs show nothing but the SDK's own modules came in.
it.each([
  ["neutral", NEUTRAL],
  ["browser", BROWSER],
])("esbuild bundles the SDK for platform %s with no Node built-in", async (_name, options) => {
  const { code, metafile }: Bundle = await bundle(appDir, ENTRY, { ...options, minify: true });
  const inputs = Object.keys(metafile.inputs).filter((input) => input !== ENTRY);
  expect(inputs).toContain("node_modules/@hfkit/inference/dist/index.js");
  expect(inputs.filter((input) => !/^node_modules\/@hfkit\/inference\/dist\/[\w/-]+\.js$/.test(input))).toEqual([]);
  for (const output of Object.values(metafile.outputs)) expect(output.imports).toEqual([]);
  expect(code).not.toMatch(/\bnode:[a-z]/);
});

// What an app that only chats loads at start, bundled with code splitting as apps are: none of the code that only
// failover, the router's catalog, structured output, the tool runner or the observer use.
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
  // The lookups' per-credential hash (its constant), their shared lookups, the failover's message, the structured
  // output's partial JSON reader (its number grammar), the tool runner, the observer's events, health's breakers (their
  // store's check). The public classes and the cost estimate the features share with the root (StructuredOutputError,
  // FailoverError, estimateCost) are in the chat core, once: a copy in each feature's chunk would be a second core.
  for (const own of [
    /3735928559|0xdeadbeef/,
    /\.lookups\b/,
    /Every candidate failed/,
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

it("an app with the client loads its tasks on the first task call: none of their code at start", async () => {
  const { atStart, later } = await splitApp("client-only", 'export { InferenceClient } from "@hfkit/inference";\n');
  // A provider's format, the task core's private-address refusal, a task's own error text: in the lazy files only.
  for (const own of [
    /Task '.*' is not supported for provider/,
    /names a URL on a private or local address/,
    /\/pipeline\/|pipeline\//,
  ]) {
    expect(later).toMatch(own);
    expect(atStart).not.toMatch(own);
  }
  expect(atStart).toMatch(/chat\/completions/);
});

/** The core's own words (`core/call`'s message for an aborted call): how many times `code` carries them. */
const copiesOfCore = (code: string): number => code.split("The call was aborted by its signal").length - 1;

// One copy of the core in any app: every module loaded on first use imports it from the one file that holds it, so
// an app bundled to one file (a Worker, an edge function, a Lambda) or split into chunks has it once.
it.each([
  ["the client", "InferenceClient"],
  ["chatCompletionStream alone", "chatCompletionStream"],
  ["a task alone", "textToImage"],
])("%s, bundled to one file or split, carries one copy of core/call", async (_name, name) => {
  writeFileSync(join(appDir, `one-${name}.mjs`), `export { ${name} } from "@hfkit/inference";\n`);
  const one = await build({
    entryPoints: [join(appDir, `one-${name}.mjs`)],
    absWorkingDir: appDir,
    ...BROWSER,
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  expect(one.outputFiles).toHaveLength(1);
  expect(copiesOfCore(one.outputFiles[0]!.text)).toBe(1);
  // core/call is one module of the bundle's inputs, from the one file that holds the core.
  const inputs = Object.keys(one.metafile.inputs).filter((k) => k.includes("@hfkit/inference/"));
  expect(inputs.filter((k) => /\/core\/call\.js$/.test(k))).toEqual([]);
  expect(inputs).toContain("node_modules/@hfkit/inference/dist/chat-core.js");
  const { atStart, later } = await splitApp(`split-${name}`, `export { ${name} } from "@hfkit/inference";\n`);
  expect(copiesOfCore(`${atStart}\n${later}`)).toBe(1);
});
