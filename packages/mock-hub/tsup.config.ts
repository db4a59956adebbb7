import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/msw.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  target: "es2022",
  platform: "node",
  sourcemap: false,
  treeshake: true,
  external: ["msw"],
});
