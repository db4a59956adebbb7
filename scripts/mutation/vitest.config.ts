// The inference test project alone, for Stryker's vitest runner (it takes one config, not the workspace file).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "inference",
    root: "packages/inference",
    include: ["test/**/*.test.ts"],
    exclude: ["test/recorded/**"],
  },
});
