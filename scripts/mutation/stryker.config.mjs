// Stryker on one core file of @hfkit/inference (MUTATE), its JSON report at REPORT. Used by scripts/mutation/run.mjs.
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

export default {
  mutate: [process.env.MUTATE],
  testRunner: "vitest",
  // Under pnpm, Stryker's plugin lookup does not find the runner: named by path.
  plugins: [`${root}node_modules/@stryker-mutator/vitest-runner/dist/src/index.js`],
  vitest: { configFile: "scripts/mutation/vitest.config.ts", related: false },
  coverageAnalysis: "perTest",
  // A sandbox copy of the checkout (node_modules linked), so that work on the files goes on during a run.
  inPlace: false,
  ignorePatterns: ["reports", "docs/api", ".stryker-tmp", "**/dist/**/*.map"],
  disableTypeChecks: false,
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: process.env.REPORT },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: ".stryker-tmp",
};
