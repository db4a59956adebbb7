import { defineWorkspace } from "vitest/config";

// The one list of test projects. `pnpm test` runs inference + mock-hub; `pnpm test:recorded`
// replays the recorded real exchanges kept in fixtures/recorded/.
export default defineWorkspace([
  {
    test: {
      name: "inference",
      root: "packages/inference",
      include: ["test/**/*.test.ts"],
      exclude: ["test/recorded/**"],
      setupFiles: ["test/setup-health.ts"],
    },
  },
  {
    test: {
      name: "mock-hub",
      root: "packages/mock-hub",
      include: ["test/**/*.test.ts"],
      exclude: ["test/recorded/**"],
    },
  },
  {
    test: {
      name: "openai-compat",
      root: "packages/openai-compat",
      include: ["test/**/*.test.ts"],
    },
  },
  {
    test: {
      name: "cli",
      root: "packages/cli",
      include: ["test/**/*.test.ts"],
      // Each test spawns the CLI: a hang bound, not a speed check, with room for a loaded machine.
      testTimeout: 20_000,
    },
  },
  {
    test: {
      name: "ai-sdk",
      root: "packages/ai-sdk",
      include: ["test/**/*.test.ts"],
    },
  },
  {
    test: {
      name: "runtimes",
      root: "packages/runtime-tests",
      include: ["test/**/*.test.ts"],
      globalSetup: ["test/global-setup.ts"],
      testTimeout: 120_000,
      hookTimeout: 900_000, // may install Debian's chromium with apt-get
    },
  },
  {
    test: {
      name: "snippets",
      root: "packages/snippets",
      include: ["test/**/*.test.ts"],
    },
  },
  {
    test: {
      name: "mcp",
      root: "packages/mcp",
      include: ["test/**/*.test.ts"],
    },
  },
  {
    test: {
      name: "otel",
      root: "packages/otel",
      include: ["test/**/*.test.ts"],
    },
  },
  {
    test: {
      name: "recorded",
      root: ".",
      include: ["packages/*/test/recorded/**/*.test.ts"],
      globalSetup: ["packages/inference/test/recorded/global-setup.ts"],
    },
  },
]);
