import { resolve } from "node:path";
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";

/** The Node build's swap: `tasks/eager` (static imports) becomes `tasks/lazy` (each group loaded on its first call). */
const lazyTasks: Plugin = {
  name: "lazy-tasks",
  setup(build) {
    // `./tasks/eager` from src/, `./eager` from src/tasks/: both become the lazy module.
    build.onResolve({ filter: /(^|\/)eager$/ }, (args) => ({ path: resolve(args.resolveDir, args.path.replace(/eager$/, "lazy.ts")) }));
  },
};

const common = {
  entry: ["src/index.ts"],
  target: "es2022",
  platform: "neutral",
  sourcemap: false,
  treeshake: true,
} as const;

export default defineConfig([
  // For bundlers, browsers and edge runtimes: every task import static, so that tree-shaking keeps only what the app calls;
  // failover (a chat's `provider` list, `fallbackModels`) and the router's catalog are chunks loaded on first use.
  { ...common, format: ["esm"], outDir: "dist/esm-split", dts: true, splitting: true },
  // For `require`: one file.
  { ...common, format: ["cjs"], dts: true, splitting: false },
  // For Node, Deno and Bun (the "node" condition): the tasks and the Responses API in chunks loaded on first use.
  { ...common, format: ["esm"], outDir: "dist/node-split", splitting: true, esbuildPlugins: [lazyTasks] },
]);
