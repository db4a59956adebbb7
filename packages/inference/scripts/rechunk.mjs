// The last step of the split builds: esbuild's code splitting puts the code the root and a lazy chunk share in
// chunks of their own, so that importing the package loads several files. Rollup, given esbuild's output,
// keeps that code in the root file and lets each lazy chunk import it from there: importing the package for
// chat loads one file (about 1 ms less in Node than two), and each lazy chunk is loaded on first use.
// dist/node/ (the "node" condition): the tasks and the Responses API, the catalog, failover and structured output, each loaded on first use;
// dist/ (bundlers): the catalog, failover and structured output; tasks.js (the client's tasks) is built on its own beside it.
import { readdirSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";

async function rechunk(staging, dir, lazy) {
  // `./tasks.js` (the bundlers' build: the client's tasks) is a file of its own, built beside the root.
  const bundle = await rollup({
    input: `${staging}index.js`,
    treeshake: false,
    preserveEntrySignatures: "allow-extension",
    external: ["./tasks.js"],
  });
  await bundle.write({ dir, format: "es", chunkFileNames: "[name].js" });
  await bundle.close();
  const files = readdirSync(dir).filter((f) => f.endsWith(".js") && f !== "tasks.js");
  const chunks = [...new Set(files.filter((f) => f !== "index.js").map((f) => f.replace(/-\w+\.js$/, "")))].sort();
  // Each lazy chunk, and at most a chunk of what they share with one another.
  const expected = chunks.filter((c) => c !== "chunk");
  if (!files.includes("index.js") || expected.join() !== lazy.join())
    throw new Error(`rechunk: expected index.js and ${lazy.join(", ")} in ${dir}, got ${files.join(", ")}`);
}

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
await rechunk(`${dist}node-split/`, `${dist}node/`, [
  "all",
  "catalog",
  "failover",
  "observe",
  "structured",
  "tools",
  "transformers",
]);
rmSync(`${dist}node-split`, { recursive: true, force: true });
await rechunk(`${dist}esm-split/`, dist, ["catalog", "failover", "observe", "structured", "tools", "transformers"]);
renameSync(`${dist}esm-split/index.d.ts`, `${dist}index.d.ts`);
rmSync(`${dist}esm-split`, { recursive: true, force: true });
