// The inference test project alone, for Stryker's vitest runner (it takes one config, not the workspace file).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "inference",
    root: "packages/inference",
    // MUTATION_TESTS narrows the run to one folder of tests (`--pins` in run.mjs: the pins alone, a lower bound).
    include: [process.env.MUTATION_TESTS ?? "test/**/*.test.ts"],
    exclude: ["test/recorded/**"],
    // As the workspace's inference project: each test starts with the process's health forgotten.
    setupFiles: ["test/setup-health.ts"],
  },
});
