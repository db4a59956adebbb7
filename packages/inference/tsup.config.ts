import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";

/** The Node build's swap: `tasks/eager` (static imports) becomes `tasks/lazy` (each group loaded on its first call). */
const lazyTasks: Plugin = {
  name: "lazy-tasks",
  setup(build) {
    // `./tasks/eager` from src/, `./eager` from src/tasks/: both become the lazy module.
    build.onResolve({ filter: /(^|\/)eager$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/eager$/, "lazy.ts")),
    }));
  },
};

/**
 * The split builds' own copies: a stateless module that a lazy chunk uses and that the root uses only away from
 * chat (the lookups, for the Hub mapping; the public cost estimate) is built into the lazy chunk as well. Shared, it would sit in the root
 * file, live for the lazy chunk's sake, and a bundler would load it at start in an app that only chats. An error
 * class may be copied too: `instanceof` recognises it by its `kind` (core/errors.ts), whichever copy made it.
 */
const OWN_COPIES: readonly (readonly [module: string, importer: string])[] = [
  ["/core/lookups", "/features/catalog.ts"],
  ["/core/lookups", "/features/health.ts"],
  ["./cost", "/features/failover.ts"],
  ["/providers/direct", "/features/candidates.ts"],
  // A class, copied: `instanceof` recognises either copy by its `kind` (core/errors.ts).
  ["/core/structuredError", "/features/structured.ts"],
  ["/core/toolError", "/features/tools.ts"],
  ["/core/collect", "/features/tools.ts"],
];

const ownCopies: Plugin = {
  name: "own-copies",
  setup(build) {
    const copied = (args: { path: string; importer: string; resolveDir: string }) =>
      OWN_COPIES.some(([file, importer]) => args.path.endsWith(file) && args.importer.endsWith(importer))
        ? { path: resolve(args.resolveDir, `${args.path}.ts`), namespace: "own-copy" }
        : undefined;
    build.onResolve({ filter: /\/(lookups|cost|direct|structuredError|toolError|collect)$/ }, copied);
    build.onLoad({ filter: /.*/, namespace: "own-copy" }, (args) => ({
      contents: readFileSync(args.path, "utf8"),
      loader: "ts",
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * The bundlers' build: the client's methods (`InferenceClient`, `client.textToImage(...)`) load the tasks on their first
 * call, from `dist/tasks.js`, a bundle of its own that imports nothing from the root; the standalone functions stay
 * static, so that tree-shaking keeps only what the app calls. Shared with the root, the tasks' code would be live in
 * every app: a bundler keeps what a dynamic `import()` needs from the root even when nothing calls it.
 */
const CLIENT_FILES = /\/src\/(client|api\/clientTasks|tasks\/textGeneration)\.ts$/;
const lazyClientTasks: Plugin = {
  name: "lazy-client-tasks",
  setup(build) {
    build.onResolve({ filter: /(^|\/)eager$/ }, (args) =>
      CLIENT_FILES.test(args.importer)
        ? { path: resolve(args.resolveDir, args.path.replace(/eager$/, "lazy.ts")) }
        : undefined,
    );
    build.onResolve({ filter: /^\.\/all$/ }, (args) =>
      args.importer.endsWith("/src/tasks/lazy.ts") ? { path: "./tasks.js", external: true } : undefined,
    );
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
  {
    ...common,
    format: ["esm"],
    outDir: "dist/esm-split",
    dts: true,
    splitting: true,
    esbuildPlugins: [lazyClientTasks, ownCopies],
  },
  // The client's tasks for that build: one self-contained file, loaded on a client's first task call.
  { ...common, entry: { tasks: "src/tasks/all.ts" }, format: ["esm"], outDir: "dist", splitting: false },
  // For `require`: one file.
  { ...common, format: ["cjs"], dts: true, splitting: false },
  // For Node, Deno and Bun (the "node" condition): the tasks and the Responses API in chunks loaded on first use.
  { ...common, format: ["esm"], outDir: "dist/node-split", splitting: true, esbuildPlugins: [lazyTasks, ownCopies] },
]);
