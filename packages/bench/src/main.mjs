// `pnpm bench [--quick]`: every measurement of issue 6, one table, docs/benchmarks.md and its chart.
import { fileURLToPath } from "node:url";
import { measureBundles } from "./bundle.mjs";
import { runChild, stepper, version } from "./child.mjs";
import { runNotes, writeDocs } from "./docs.mjs";
import { measureFailover } from "./failover.mjs";
import { failoverTable } from "./failover-docs.mjs";
import { measureRouting } from "./routing.mjs";
import { routingTables } from "./routing-docs.mjs";
import { measureTyped } from "./typed.mjs";
import { measureFirstToken } from "./first-token.mjs";
import { measureImportTime } from "./import-time.mjs";
import { consoleTable } from "./report.mjs";
import { measureRequests } from "./requests.mjs";
import { buildRows } from "./rows.mjs";
import { measureTimers } from "./timers.mjs";

const quick = process.argv.includes("--quick");
const ALL = ["hfkit", "hfkit-fn", "hf", "openai", "floor"];
const MEASURED = ["hfkit", "hf", "openai", "floor"]; // hfkit-fn runs the same stream code as hfkit
const MEMORY_EVENTS = 1_000_000;

const step = stepper();

function eachClient(keys, fn) {
  return Object.fromEntries(keys.map((k) => [k, fn(k)]));
}

async function measureAll() {
  step("bundle sizes");
  const bundle = await measureBundles();
  // Rounds take turns; nine give a median that one noisy round cannot move (per-round spread is ±5% here).
  const rounds = quick ? 3 : 9;
  step(`stream parse throughput (${rounds} rounds)`);
  const throughput = runChild("throughput.mjs", [rounds], ["--expose-gc", "--single-threaded-gc"]);
  step("where hfkit's stream time goes (CPU profiles)");
  const profile = { "16k": runChild("profile.mjs", ["16k"]), event: runChild("profile.mjs", ["event"]) };
  step("allocations per event");
  const allocation = {
    "16k": eachClient(MEASURED, (k) => runChild("allocation.mjs", [k, "16k", "sites"])),
    event: eachClient(MEASURED, (k) => runChild("allocation.mjs", [k, "event"])),
  };
  step("timers per stream");
  const timers = await measureTimers(ALL, "event");
  step("time to first token");
  const firstToken = await measureFirstToken(ALL, quick ? 5 : 15);
  step("import time");
  const importTime = measureImportTime(quick ? 5 : 10);
  step("memory (one child per client)");
  const memoryRun = (flags) =>
    eachClient(MEASURED, (k) => runChild("memory.mjs", [k, MEMORY_EVENTS], ["--expose-gc", ...flags]));
  const memory = { capped: memoryRun(["--max-semi-space-size=1"]), defaults: quick ? {} : memoryRun([]) };
  step("requests per call");
  const requests = await measureRequests();
  step("failover: time to first token when a provider is down");
  const failover = await measureFailover(quick ? 5 : 15, (scenario) => step(`  ${scenario}`));
  step("routing that learns: health across calls, hedged first tokens");
  const routing = await measureRouting(quick, (what) => step(`  ${what}`));
  step("typed answers and tools, side by side");
  const typed = await measureTyped(quick ? 1 : 3);
  step("done");
  return {
    bundle,
    throughput,
    profile,
    allocation,
    timers,
    firstToken,
    importTime,
    memory,
    memoryEvents: MEMORY_EVENTS,
    requests,
    failover,
    routing,
    typed,
  };
}

function bundleCheck(strangers) {
  const lines = Object.entries(strangers).map(([key, list]) =>
    list.length === 0
      ? `✓ ${key}: the bundle holds @hfkit/inference only (no Node built-in, mock hub, snippets, CLI, polyfill)`
      : `✗ ${key}: the bundle pulls in ${list.join(", ")}`,
  );
  return lines.join("\n");
}

const results = await measureAll();
const rows = buildRows(results);
const versions = {
  hfkit: version("@hfkit/inference"),
  hf: version("@huggingface/inference"),
  openai: version("openai"),
};
console.log(
  `\n@hfkit/inference ${versions.hfkit} · @huggingface/inference ${versions.hf} · openai ${versions.openai} · Node ${process.version}\n`,
);
console.log(consoleTable(rows));
console.log(`\n${bundleCheck(results.bundle.strangers)}`);
console.log(`\n${runNotes(results).join("\n")}`);
const missed = rows.filter((r) => r.met === false).map((r) => `${r.section.split(":")[0]} ${r.label}`);
console.log(missed.length ? `\nhfkit misses: ${missed.join("; ")}` : "\nhfkit meets every goal");
console.log(
  `\nFailover: time to first token when the first candidate is down\n${failoverTable(results.failover, "text")}`,
);

console.log(`\nRouting that learns\n${routingTables(results.routing, "text")}`);

const docs = fileURLToPath(new URL("../../../docs/", import.meta.url));
writeDocs({
  path: `${docs}benchmarks.md`,
  svgPath: `${docs}benchmarks.svg`,
  svgName: "benchmarks.svg",
  rows,
  results,
  versions,
  quick,
});
console.log(`\nwrote docs/benchmarks.md and docs/benchmarks.svg`);
