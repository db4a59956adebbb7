import { defineConfig } from "tsup";

const common = {
  entry: ["src/index.ts"],
  target: "es2022",
  platform: "neutral",
  sourcemap: false,
  treeshake: true,
} as const;

export default defineConfig([
  // For bundlers, browsers and edge runtimes: one ES module per source module, as the source imports them; the app's
  // bundler shares, splits and shakes them (a dynamic `import()` of failover, the catalog or the tasks is a chunk).
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
