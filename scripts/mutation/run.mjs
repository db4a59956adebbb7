#!/usr/bin/env node
/**
 * `pnpm test:mutation [file …]`: Stryker over the inference package's core files, one file at a time (a run of
 * many files at once takes hours and races its own timers), each file's score printed as it ends and a table at
 * the end. With no argument, every core file. Not in CI: it takes 10–25 minutes a file on 2 cores.
 * Run nothing heavy beside it: a test that fails on its own under load "kills" every mutant it covers.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The rules every guarantee rests on: redaction, the stream reader and iterator, retries, the call's clocks, errors, parameters. */
export const CORE = [
  "src/core/redact.ts",
  "src/core/streamIterator.ts",
  "src/core/sse.ts",
  "src/core/retry.ts",
  "src/core/call.ts",
  "src/core/errors.ts",
  "src/core/errorTable.ts",
  "src/checks/params.ts",
  "src/core/address.ts",
];

const args = process.argv.slice(2);
/** `--pins`: run the rules' own tests alone, test/pins/ and test/hardening/ (minutes instead of hours; the score is then a lower bound). */
const pinsOnly = args.includes("--pins");
const files = args.filter((a) => a !== "--pins").map((f) => f.replace(/^packages\/inference\//, ""));
const chosen = files.length ? files : CORE;
for (const f of chosen)
  if (!existsSync(join(root, "packages/inference", f))) throw new Error(`no such file: packages/inference/${f}`);

const scores = [];
for (const file of chosen) {
  const name = file.replace(/^src\//, "").replace(/\W+/g, "-");
  const report = join(root, "reports/mutation", `${name}.json`);
  const run = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/@stryker-mutator/core/bin/stryker.js"),
      "run",
      join(root, "scripts/mutation/stryker.config.mjs"),
    ],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        MUTATE: `packages/inference/${file}`,
        REPORT: report,
        ...(pinsOnly ? { MUTATION_TESTS: "test/{pins,hardening}/**/*.test.ts" } : {}),
      },
    },
  );
  if (run.status !== 0) throw new Error(`stryker failed on ${file} (exit ${run.status})`);
  const parsed = JSON.parse(readFileSync(report, "utf8"));
  scores.push({ file, ...summarize(parsed) });
  console.log(`\nalive in ${file}:`);
  for (const m of alive(parsed)) console.log(`  ${m}`);
}

console.log("\nfile | mutants | killed | survived | no coverage | timeout | score");
for (const s of scores)
  console.log(
    `${s.file} | ${s.total} | ${s.killed} | ${s.survived} | ${s.noCoverage} | ${s.timeout} | ${s.score.toFixed(1)}%`,
  );

/** Each mutant left alive (survived or not covered), as `line:column mutator: replacement`, for the docs' list. */
function alive(report) {
  const out = [];
  for (const f of Object.values(report.files)) {
    for (const m of f.mutants) {
      if (m.status !== "Survived" && m.status !== "NoCoverage") continue;
      const at = `${m.location.start.line}:${m.location.start.column}`;
      out.push(
        `${at} ${m.mutatorName}${m.status === "NoCoverage" ? " (no coverage)" : ""}: ${JSON.stringify(m.replacement ?? "").slice(0, 120)}`,
      );
    }
  }
  return out;
}

/** Stryker's score: (killed + timeout) / (every valid mutant), from its JSON report. */
function summarize(report) {
  const count = { total: 0, killed: 0, survived: 0, noCoverage: 0, timeout: 0 };
  for (const f of Object.values(report.files)) {
    for (const m of f.mutants) {
      if (m.status === "CompileError" || m.status === "RuntimeError" || m.status === "Ignored") continue;
      count.total++;
      if (m.status === "Killed") count.killed++;
      else if (m.status === "Survived") count.survived++;
      else if (m.status === "NoCoverage") count.noCoverage++;
      else if (m.status === "Timeout") count.timeout++;
    }
  }
  return { ...count, score: count.total ? ((count.killed + count.timeout) * 100) / count.total : 100 };
}
