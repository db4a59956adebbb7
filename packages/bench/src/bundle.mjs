// Row 1: each app in apps/ bundled by esbuild for the browser, minified; gzip and brotli sizes, whole and (with
// code splitting) what a page loads at start.
// The hfkit bundles are also checked for what must never reach them, and split by source module.
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { BENCH_DIR } from "./child.mjs";

export const APPS = {
  hfkit: "hfkit-client.mjs",
  "hfkit-fn": "hfkit-function.mjs",
  hf: "huggingface.mjs",
  openai: "openai.mjs",
};
const HFKIT_SOURCE = fileURLToPath(new URL("../../inference/src/index.ts", import.meta.url));
/** Built-ins stay imports (not build errors), so the check below can name them. */
const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), "node:*"];
/** What may reach an hfkit bundle: the client's own file. */
const ALLOWED = [/^\.\.\/inference\/dist\//];
const FORBIDDEN = /mock-hub|snippets|(^|\/)cli\/|openai-compat|polyfill|^node:/;

async function build(app, alias = {}) {
  const result = await esbuild.build({
    entryPoints: [`${BENCH_DIR}apps/${app}`],
    absWorkingDir: BENCH_DIR,
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    external: NODE_BUILTINS,
    alias,
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  return { code, output, inputs: Object.keys(result.metafile.inputs) };
}

/** The gzipped bytes a page loads at start with code splitting: the entry chunk and what it imports statically. */
async function firstChunk(app) {
  const result = await esbuild.build({
    entryPoints: [`${BENCH_DIR}apps/${app}`],
    absWorkingDir: BENCH_DIR,
    bundle: true,
    minify: true,
    splitting: true,
    outdir: `${BENCH_DIR}.split-out`,
    platform: "browser",
    format: "esm",
    target: "es2022",
    external: NODE_BUILTINS,
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const outputs = Object.fromEntries(
    Object.entries(result.metafile.outputs).map(([path, o]) => [`${BENCH_DIR}${path}`, o]),
  );
  // The app's own chunk: every module loaded on first use is an entry point of the build too.
  const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint?.endsWith(`apps/${app}`));
  const start = new Set();
  const visit = (path) => {
    if (start.has(path)) return;
    start.add(path);
    for (const i of outputs[path]?.imports ?? [])
      if (i.kind === "import-statement" && !i.external) visit(`${BENCH_DIR}${i.path}`);
  };
  visit(entry);
  return result.outputFiles
    .filter((f) => start.has(f.path))
    .reduce((sum, f) => sum + gzipSync(f.contents, { level: 9 }).length, 0);
}

function sizes(code) {
  return {
    min: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Everything in an hfkit bundle that is not the client: Node built-ins, mock hub, CLI, snippets... */
function strangers({ output, inputs }) {
  const imports = output.imports.map((i) => i.path);
  const foreign = inputs.filter((path) => !path.startsWith("apps/") && !ALLOWED.some((re) => re.test(path)));
  return [...imports, ...foreign, ...inputs.filter((path) => FORBIDDEN.test(path))];
}

/** Minified bytes per source module, with an estimate of each one's share of the gzipped total. */
function byModule({ code, output }) {
  const gzip = gzipSync(code, { level: 9 }).length;
  return Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({
      module: path.replace(/^\.\.\/inference\//, "").replace(/^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, ""),
      min: bytesInOutput,
      gzipShare: (gzip * bytesInOutput) / code.length,
    }))
    .filter((m) => m.min > 0)
    .sort((a, b) => b.min - a.min);
}

export async function measureBundles() {
  const result = { sizes: {}, strangers: {}, modules: {} };
  for (const [key, app] of Object.entries(APPS)) {
    const bundle = await build(app);
    result.sizes[key] = { ...sizes(bundle.code), firstChunk: await firstChunk(app) };
    if (!key.startsWith("hfkit")) continue;
    result.strangers[key] = strangers(bundle);
    // The same app built from the sources names each module by its source file.
    result.modules[key] = byModule(await build(app, { "@hfkit/inference": HFKIT_SOURCE }));
  }
  return result;
}
