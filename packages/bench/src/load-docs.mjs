// The load benchmark's table and its section of docs/benchmarks.md, rewritten between its markers (as
// failover-docs.mjs does for its own).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withSection, writeDoc } from "./writeDoc.mjs";

const DOCS = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
const BEGIN = "<!-- load:begin: `pnpm bench:load` rewrites what is between these markers -->";
const END = "<!-- load:end -->";

const fixed = (v, digits) => (v === undefined || Number.isNaN(v) ? "" : v.toFixed(digits));
const ms = (v) => (v === undefined ? "" : v < 100 ? v.toFixed(1) : v.toFixed(0));
const times = (v, floor) => (floor || v === undefined ? "" : `${v.toFixed(2)}×`);

const HEADER = [
  "mode",
  "N",
  "path",
  "chunks/s (k)",
  "× floor",
  "first chunk p50 ms",
  "p99 ms",
  "× floor",
  "gap p99 ms",
  "× floor",
  "failed",
  "gateway CPU s",
  "µs CPU per chunk",
  "peak RSS MB",
  "KB per open stream",
  "hub, clients µs per chunk",
];

function rows(r) {
  return r.cells.map((c, i) => {
    const floor = c.path === "direct";
    const first = i === 0 || r.cells[i - 1].n !== c.n || r.cells[i - 1].mode !== c.mode;
    return [
      first ? c.mode : "",
      first ? String(c.n) : "",
      c.label,
      fixed(c.rate / 1000, 1),
      times(c.rateRatio, floor),
      ms(c.firstP50),
      ms(c.firstP99),
      times(c.firstP99Ratio, floor),
      ms(c.gapP99),
      times(c.gapP99Ratio, floor),
      String(c.failed),
      fixed(c.gatewayCpu, 2),
      fixed(c.cpuPerChunkUs, 0),
      fixed(c.rssMB, 0),
      fixed(c.perStreamKB, 0),
      `${fixed(c.hubUs, 0)}, ${fixed(c.clientsUs, 0)}`,
    ];
  });
}

/** Columns of figures, right-aligned. */
const figure = (i) => i === 1 || i >= 3;

/** The table, as `"markdown"` or as aligned `"text"` for a terminal. */
export function loadTable(r, format = "markdown") {
  const body = rows(r);
  if (format === "markdown") {
    const line = (cells) => `| ${cells.join(" | ")} |`;
    return [line(HEADER), line(HEADER.map((_, i) => (figure(i) ? "---:" : "---"))), ...body.map(line)].join("\n");
  }
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (figure(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/**
 * What the paced runs at the largest N ask of the two cores: the chunk rate the pace asks for, times each
 * process's CPU per chunk.
 */
function budget(r) {
  const n = Math.max(...r.cells.map((c) => c.n));
  const cell = (path) => r.cells.find((c) => c.n === n && c.path === path && c.mode.startsWith("paced"));
  const direct = cell("direct");
  const hfkit = cell("hfkit");
  if (!direct || !hfkit) return "";
  const asked = (n * 1000) / r.paceMs;
  const cores = (us) => ((asked * us) / 1e6).toFixed(1);
  return `**What the paced runs ask of the machine**: at N = ${n} the pace asks for ${asked.toLocaleString("en")} chunks/s. At the
CPU per chunk measured above, the hub and the clients alone need ${cores(direct.hubUs + direct.clientsUs)} cores for that
(${direct.hubUs.toFixed(0)} + ${direct.clientsUs.toFixed(0)} µs per chunk), so even the floor falls behind the pace
(${(direct.rate / 1000).toFixed(1)}k chunks/s); the hfkit proxy adds ${cores(hfkit.cpuPerChunkUs)} cores' worth
(${hfkit.cpuPerChunkUs.toFixed(0)} µs per chunk). A relayed chunk costs more when paced than in a burst because each
one is then a read and a write of its own, upstream and down: the per-read costs (the upstream \`fetch\`'s
body stream, the syscalls, the timers of the call) are paid per chunk instead of per batch.`;
}

/** The rows of another build of the proxy (`--compare`), named. */
function compared(r) {
  const other = r.cells.find((c) => c.path === "other");
  return other ? `, through another build of it (\`${other.label}\`: \`startProxy\` in a child process)` : "";
}

/** The section, markers included. */
export function loadSection(r) {
  const v = r.versions;
  const errors = [...new Set(r.cells.map((c) => c.error).filter(Boolean))];
  return `${BEGIN}
## Load: the proxy under many concurrent streams

N streams at once (50, 200, 500) of ${r.chunks} chunks each (chat chunks from \`@hfkit/mock-hub\`: TGI 3.2's, or vLLM's), read by the
official \`openai\` client, along these paths: straight to the mock hub (the floor), through \`hfkit proxy --target
<hub>\` (the CLI, as users start it)${compared(r)} and through the Portkey gateway (its bin, \`--headless\`, with the headers its
docs give for an OpenAI-compatible server of one's own: \`x-portkey-provider: openai\`, \`x-portkey-custom-host:
<hub>/v1\`). **burst**: the hub writes every chunk as fast as the socket takes it; **paced**: a chunk every
${r.paceMs} ms (the hub's \`slow\` fault); **burst, vLLM**: a burst of vLLM 0.12's chunks, which carry their id (TGI sends
\`"id": ""\`, which the proxy must replace in every chunk): the proxy relays each as the server's own text. Medians of ${r.rounds} rounds; in each round every path runs each cell in
rotated order, after one warm-up run of 50 streams per mode and path. Last run: ${r.date} UTC, Node ${r.node},
\`@hfkit/inference\` ${v.hfkit}, \`@portkey-ai/gateway\` ${v.portkey} (served with \`@hono/node-server\`
${v.honoNodeServer}), \`openai\` ${v.openai}; load average (1 min) before and after each round:
${r.loads.map((l) => l.toFixed(2)).join(", ")}${Math.max(...r.loads) > 1.5 ? " (the machine was busy with other work: figures noisier than usual)" : ""}.

${loadTable(r)}

- **chunks/s**: every chunk the clients received, over the time from the first request to the last stream's end.
  **× floor**: the median of the per-round ratios to the direct run of the same round.
- **first chunk**: from the call of \`chat.completions.create\` to the stream's first chunk; **gap**: between two
  chunks of one stream, over every stream of the run.
- **failed**: streams that threw or did not get all ${r.chunks} chunks (the worst round).${errors.length ? ` Seen: ${errors.map((e) => `\`${e.slice(0, 120)}\``).join("; ")}.` : ""}
- **gateway CPU**: user + system time of the gateway's process over the run (\`/proc/<pid>/stat\`, 10 ms ticks),
  and that over the chunks relayed (the last column: the same for the hub's and the clients' processes). **peak RSS**: sampled every 25 ms (\`/proc/<pid>/status\`);
  **KB per open stream**: the peak less the RSS before the run, over N (paced runs hold every stream open for
  about ${((r.chunks * r.paceMs) / 1000).toFixed(0)} s; a run in bursts may end streams before the last opens).

${budget(r)}

**How the two cores are shared**: four processes, none pinned: the mock hub, the gateway under test (idle while
another path runs), the clients (all N streams in one process) and the script that starts them and samples
\`/proc\` (asleep but for a read every 25 ms). A direct run needs two processes' work, a relayed one three: in a burst
all three want a core, so a gateway's chunk rate is bounded by the CPU it leaves to the hub and the clients; that
is why its CPU per chunk is the figure to watch. The machine is shared: compare ratios within a run, not figures
across runs.

Run it with \`pnpm bench:load\` (\`--rounds R\`, \`--quick\`: one round of N = 50 and 200, \`--n 50,500\`,
\`--mode burst|paced|burst-vllm\`, \`--no-portkey\`, \`--profile DIR\`: \`hfkit proxy\` under \`node --cpu-prof\`, its profile
written to DIR; \`--compare BUILD\`: also another build of \`@hfkit/openai-compat\` (its \`dist/index.js\`, its
\`startProxy\` in a child process), named by \`--compare-label\`; \`--no-docs\`); it builds \`@hfkit/inference\`, \`@hfkit/mock-hub\`, \`@hfkit/openai-compat\` and \`@hfkit/cli\` first
(\`node packages/bench/src/load.mjs\` does not). It takes minutes, so \`pnpm bench\` does not run it.
${END}`;
}

/** The section as it stands in `doc` (kept when `pnpm bench` rewrites the page), or "". */
export function loadSectionOf(doc) {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  return begin !== -1 && end > begin ? doc.slice(begin, end + END.length) : "";
}

/** `doc` with the section replaced between its markers, or put before "## Running" (else at the end). */
export function withLoadSection(doc, section) {
  return withSection(doc, section, BEGIN, END);
}

/** Rewrites the section of docs/benchmarks.md; answers the path. */
export function updateLoadDocs(r, path = DOCS) {
  writeDoc(path, withLoadSection(readFileSync(path, "utf8"), loadSection(r)));
  return path;
}
