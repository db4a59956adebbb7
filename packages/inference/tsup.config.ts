import { defineConfig } from "tsup";

const common = {
  entry: ["src/index.ts"],
  target: "es2022",
  platform: "neutral",
  sourcemap: false,
  treeshake: true,
} as const;

export default defineConfig([
  // For every `import` (bundlers, browsers, edge runtimes, Node, Deno, Bun): one ES module per source module, staged in
  // dist/modules/ for scripts/modules.mjs (the chat core in one file, the rest as themselves; see docs/architecture.md).
  {
    entry: ["src/**/*.ts", "!src/types/**"],
    target: "es2022",
    platform: "neutral",
    sourcemap: false,
    format: ["esm"],
    outDir: "dist/modules",
    bundle: false,
    splitting: false,
    treeshake: false,
  },
  // The type declarations, in one file.
  { ...common, format: ["esm"], outDir: "dist", dts: { only: true } },
  // For `require`: one file.
  { ...common, format: ["cjs"], dts: true, splitting: false },
]);
