import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/ai5.ts", "src/ai6.ts", "src/ai7.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  target: "es2022",
  platform: "neutral",
  external: ["@hfkit/inference"],
});
