// Row 4: `node --input-type=module -e "await import(pkg)"` against a bare `node -e ""`, alternated.
import { spawnSync } from "node:child_process";
import { BENCH_DIR, retried } from "./child.mjs";
import { median, rotated } from "./stats.mjs";

/**
 * `empty` is Node's own price for a dynamic import, paid by every package below; `file`, its price for
 * loading one file from disk (a one-line module), paid by every package at least once.
 */
export const IMPORTS = {
  bare: null,
  empty: "data:text/javascript,",
  file: new URL("./one-line.mjs", import.meta.url).href,
  hfkit: "@hfkit/inference",
  hf: "@huggingface/inference",
  openai: "openai",
};

function startMs(specifier) {
  return retried(() => startMsOnce(specifier));
}

function startMsOnce(specifier) {
  const code = specifier ? `await import(${JSON.stringify(specifier)})` : "";
  const started = performance.now();
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: BENCH_DIR, encoding: "utf8" });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`import of ${specifier} failed: ${run.stderr}`);
  return ms;
}

/** Per package: median start time, and the median of its per-round difference with bare node. */
export function measureImportTime(rounds = 10) {
  const keys = Object.keys(IMPORTS);
  const runs = Object.fromEntries(keys.map((k) => [k, []]));
  for (const key of keys) startMs(IMPORTS[key]); // warms the file cache
  for (let round = 0; round < rounds; round++) {
    for (const key of rotated(keys, round)) runs[key].push(startMs(IMPORTS[key]));
  }
  return Object.fromEntries(
    keys.map((k) => [k, { ms: median(runs[k]), overMs: median(runs[k].map((v, i) => v - runs.bare[i])) }]),
  );
}
