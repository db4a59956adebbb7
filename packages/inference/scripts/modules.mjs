// The module build's last step (see docs/architecture.md, "What is published"). tsup writes one ES module per source
// module to dist/modules/, each relative import as the source wrote it ("./core/call"). This step:
// 1. makes each relative specifier the file it names ("./core/call.js"), or the folder's index.js;
// 2. puts what importing the package loads (everything the root imports statically: the client, chat, the errors, the
//    lazy loaders) into one file, dist/chat-core.js. An app's bundler keeps a file whole in one chunk, so a page that
//    chats loads the core as one file instead of a dozen chunks (each gzipped on its own, each importing the others'
//    names), and Node reads two files at import;
// 3. writes every other module to dist/ as itself (each task, feature, provider and the Responses API: what is loaded
//    on first use, by a dynamic import), importing the core from dist/chat-core.js: one copy of the core in any app,
//    split or bundled to one file.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const staging = join(dist, "modules");
const CORE_CHUNK = "chat-core";
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']*)\2/g;
const STATIC = /(?:\bfrom\s*|\bimport\s+)["'](\.{1,2}\/[^"']*)["']/g;

function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith(".js") ? [path] : [];
  });
}

// 1. Specifiers made files.
const files = modules(staging);
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(SPECIFIER, (_all, head, quote, spec) => {
    if (spec.endsWith(".js")) return `${head}${quote}${spec}${quote}`;
    const base = resolve(dirname(file), spec);
    const target = existsSync(`${base}.js`)
      ? `${spec}.js`
      : existsSync(join(base, "index.js"))
        ? `${spec.replace(/\/$/, "")}/index.js`
        : undefined;
    if (!target)
      throw new Error(`modules: ${relative(staging, file)} imports ${spec}, which is no module of the build`);
    return `${head}${quote}${target}${quote}`;
  });
  if (fixed !== text) writeFileSync(file, fixed);
}

// 2. The core: the root's static closure (the root itself stays the file an app imports).
const core = new Set();
const visit = (file) => {
  if (core.has(file)) return;
  if (!existsSync(file)) throw new Error(`modules: ${relative(staging, file)} is imported but is no module`);
  core.add(file);
  for (const [, spec] of readFileSync(file, "utf8").matchAll(STATIC)) visit(resolve(dirname(file), spec));
};
visit(join(staging, "index.js"));
core.delete(join(staging, "index.js"));

// 3. Every other module as itself; the core as one file.
const input = Object.fromEntries(
  files.filter((f) => !core.has(f)).map((f) => [relative(staging, f).replace(/\.js$/, ""), f]),
);
const bundle = await rollup({
  input,
  treeshake: true,
  preserveEntrySignatures: "strict",
  onwarn(warning) {
    // A module of types only is an empty file, as tsup wrote it.
    if (warning.code === "EMPTY_BUNDLE") return;
    throw new Error(`modules: ${warning.message}`);
  },
});
await bundle.write({
  dir: dist,
  format: "es",
  entryFileNames: "[name].js",
  chunkFileNames: "[name].js",
  minifyInternalExports: false,
  manualChunks: (id) => (core.has(id) ? CORE_CHUNK : undefined),
});
await bundle.close();
rmSync(staging, { recursive: true, force: true });
console.log(`modules: ${files.length - core.size} modules, and ${core.size} in ${CORE_CHUNK}.js`);
