// `pnpm size`: what an app that imports one name of a package loads, bundled by esbuild the way apps are built
// (minified, ESM, code splitting on: a dynamic `import()` is a chunk loaded on its first use; or, for a check with
// `"splitting": false`, bundled to one file as a Worker, an edge function or a Lambda is), gzipped file by file. The budget in `.size-limit.json` is for what the page loads at start: the entry chunk and the chunks
// it imports statically. Chunks loaded on first use are printed beside it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const repo = new URL("..", import.meta.url).pathname;
// `--root DIR`: measure another checkout's build (a baseline) against this budget.
const at = process.argv.indexOf("--root");
const root = at > 0 ? process.argv[at + 1] : repo;
const checks = JSON.parse(readFileSync(join(repo, ".size-limit.json"), "utf8"));
const kB = (n) => `${(n / 1000).toFixed(2)} kB`;

function parseLimit(text) {
  const m = /^([\d.]+)\s*kB$/.exec(text);
  if (!m) throw new Error(`size: a limit must read "<n> kB", got ${JSON.stringify(text)}`);
  return Number(m[1]) * 1000;
}

/** Gzipped bytes of the entry chunk and everything it imports statically, and of the chunks loaded later. */
async function measure(path, name, splitting = true) {
  const outdir = mkdtempSync(join(tmpdir(), "hfkit-size-"));
  try {
    const result = await build({
      stdin: { contents: `export ${name} from ${JSON.stringify(join(root, path))};`, resolveDir: root, loader: "js" },
      bundle: true,
      minify: true,
      format: "esm",
      splitting,
      platform: "browser",
      outdir,
      write: false,
      metafile: true,
      logLevel: "error",
    });
    const gz = new Map(result.outputFiles.map((f) => [f.path, gzipSync(f.contents, { level: 9 }).length]));
    // The metafile names outputs relative to the working directory.
    const outputs = Object.fromEntries(
      Object.entries(result.metafile.outputs).map(([k, v]) => [
        resolve(k),
        { ...v, imports: v.imports.map((i) => ({ ...i, path: resolve(i.path) })) },
      ]),
    );
    const entry = Object.keys(outputs).find((k) => outputs[k]?.entryPoint === "<stdin>");
    const initial = new Set();
    const visit = (file) => {
      if (initial.has(file)) return;
      initial.add(file);
      for (const i of outputs[file]?.imports ?? []) if (i.kind === "import-statement" && !i.external) visit(i.path);
    };
    visit(entry);
    let start = 0;
    let later = 0;
    for (const [file, size] of gz) {
      if (initial.has(file)) start += size;
      else later += size;
    }
    return { start, later };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

let failed = false;
for (const check of checks) {
  const { start, later } = await measure(check.path, check.import, check.splitting ?? true);
  const limit = parseLimit(check.limit);
  const ok = start <= limit;
  failed ||= !ok;
  console.log(
    `${ok ? "✓" : "✗"} ${check.name}\n    at start: ${kB(start)} (limit ${kB(limit)})${later ? `; loaded on first use: ${kB(later)}` : ""}`,
  );
}
if (failed) {
  console.error("size: over budget");
  process.exit(1);
}
