// The Node build's last step: esbuild's code splitting puts the code the root and the lazy chunk share in
// chunks of their own, so that importing the package loads several files. Rollup, given esbuild's output,
// keeps that code in the root file and lets the lazy chunk import it from there: importing the package for
// chat loads one file (about 1 ms less in Node than two), and the tasks' chunk is loaded on first use.
import { readdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";

const dir = fileURLToPath(new URL("../dist/node/", import.meta.url));
const staging = fileURLToPath(new URL("../dist/node-split/", import.meta.url));
const bundle = await rollup({ input: `${staging}index.js`, treeshake: false, preserveEntrySignatures: "allow-extension" });
await bundle.write({ dir, format: "es", chunkFileNames: "[name].js" });
await bundle.close();
rmSync(staging, { recursive: true, force: true });
const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
if (!files.includes("index.js") || files.length !== 2) throw new Error(`rechunk: expected index.js and one lazy chunk in dist/node, got ${files.join(", ")}`);
