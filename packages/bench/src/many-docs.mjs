// The many-streams benchmark's table and its section of docs/benchmarks.md, rewritten between its markers
// (as failover-docs.mjs does for its own).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withSection, writeDoc } from "./writeDoc.mjs";

const DOCS = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
const BEGIN = "<!-- many:begin: `pnpm bench:many` rewrites what is between these markers -->";
const END = "<!-- many:end -->";

/** hfkit's goals, as ratios to the floor of the same run. */
export const GOALS = { rate: 0.97, heap: 1.15 };

const fixed = (v, digits) => (v === undefined || Number.isNaN(v) ? "" : v.toFixed(digits));
const times = (v, c) => (c.key === "floor" ? "" : `${fixed(v, 2)}×`);

function goal(c) {
  if (c.key !== "hfkit") return ["", ""];
  const met = c.rateRatio >= GOALS.rate && c.heapRatio <= GOALS.heap;
  return [`rate ≥ ${GOALS.rate}×, heap ≤ ${GOALS.heap}×`, met ? "met" : "MISSED"];
}

const HEADER = [
  "client",
  "chunks",
  "failed",
  "µs CPU per chunk",
  "rate × floor",
  "heap kB per open stream",
  "× floor",
  "RSS kB per open stream",
  "× floor",
  "event-loop delay p99 ms",
  "server µs CPU per chunk",
  "hfkit goal",
  "",
];

function rows(r) {
  return r.cells.map((c) => [
    c.label,
    `${c.chunks}/${r.n * r.chunks}`,
    String(c.failed),
    fixed(c.cpuPerChunkUs, 1),
    times(c.rateRatio, c),
    fixed(c.heapPerStreamKB, 1),
    times(c.heapRatio, c),
    fixed(c.rssPerStreamKB, 1),
    times(c.rssRatio, c),
    fixed(c.delayP99Ms, 0),
    fixed(c.serverUsPerChunk, 1),
    ...goal(c),
  ]);
}

/** Columns of figures, right-aligned. */
const figure = (i) => i >= 1 && i <= 10;

/** The table, as `"markdown"` or as aligned `"text"` for a terminal. */
export function manyTable(r, format = "markdown") {
  const body = rows(r);
  if (format === "markdown") {
    const line = (cells) => `| ${cells.join(" | ")} |`;
    return [line(HEADER), line(HEADER.map((_, i) => (figure(i) ? "---:" : "---"))), ...body.map(line)].join("\n");
  }
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const cell = (c, i) => (figure(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]));
  const line = (cells) => cells.map(cell).join("  ").trimEnd();
  return [line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

const minutes = (seconds) => {
  const m = Math.max(1, Math.round(seconds / 60));
  return m === 1 ? "a minute" : `${m} minutes`;
};
const loadRange = (loads) => `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;

const NAMES = { floor: "the floor", hfkit: "hfkit", hf: "@huggingface/inference", openai: "openai" };
const spread = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** Each peer's per-round ratios to the floor: how far one round moves a median. */
function spreadNote(r) {
  const peers = r.cells.filter((c) => c.key !== "floor");
  const rates = peers.map((c) => `${NAMES[c.key]} ${spread(c.rateRatios)}`).join(", ");
  const heaps = peers.map((c) => `${NAMES[c.key]} ${spread(c.heapRatios)}`).join(", ");
  return `Per-round ratios to the floor: rate ${rates}; heap ${heaps}.`;
}

/** When a client lagged: what that does to the figures. */
function lagNote(r) {
  const lagged = r.cells.filter((c) => c.firstAtSample < r.n).map((c) => NAMES[c.key]);
  if (lagged.length === 0) return "";
  return `In this run ${r.n} streams asked more CPU of the client (${r.n} × ${1000 / r.paceMs} chunks a second) than
it got (${lagged.join(", ")}): it lagged, and its last streams had their first chunk after its first ones had ended. The CPU
per chunk is the work done whatever the lag; the event-loop delay, and the heap (which holds what waits to be read),
grow with it.
`;
}

/** The section, markers included. */
export function manySection(r) {
  const { versions: v } = r;
  const hfkit = r.cells.find((c) => c.key === "hfkit");
  const [goalText, met] = goal(hfkit);
  return `${BEGIN}
## Many streams open at once in one process

A web server that relays chats holds many \`chatCompletionStream\` calls open at once in one Node process. Here
${r.n} streams are opened at once and read to their end, each chunk's content touched, by one client per process
(\`node --expose-gc\`), against a loopback server in a process of its own that streams TGI 3.2 chat chunks (the bytes
of the stream rows above): ${r.chunks} chunks, one every ${r.paceMs} ms, then \`[DONE]\`. ${r.rounds} rounds, the
clients in rotated order; medians of the figures and of the per-round ratios to the floor. Last run: ${r.date}, Node ${r.node},
\`@hfkit/inference\` ${v.hfkit}, \`@huggingface/inference\` ${v.hf}, \`openai\` ${v.openai}; load average (1 min) over
the run ${loadRange(r.loads)} on ${r.cpus} cores.

**hfkit's goal: ${goalText}** (rate: 1 / CPU per chunk; both ratios to the floor of the same run):
${met === "met" ? "met" : "**missed**"} in this run.

${manyTable(r)}

${spreadNote(r)}

- **CPU per chunk**: the client process's CPU time (\`process.cpuUsage\`, every thread) from the first call to the
  last stream's end, over the chunks received; the requests themselves are in it (one per ${r.chunks} chunks).
- **Heap and RSS per open stream**: after a full GC, less the same after a warm-up (50 streams served at once, so
  that code is compiled and the pool grown), over the streams open. Sampled once, when every stream has its first
  chunk or when the first one ends, whichever comes first: every stream is open then. The GC's own CPU and pause are
  left out of the other figures.
- **Event-loop delay p99**: how late a 10 ms timer fires (as \`perf_hooks.monitorEventLoopDelay\` measures it, but
  paused over the sample's GC), from the first call to the last stream's end (the ${r.n} calls are made in one
  burst, one block of the loop, as they come in at once).
- **Server CPU per chunk**: the server's process, over the same run. It writes ready-made buffers: while it is a
  fraction of the client's, the client is what is measured.
- The **floor** is a bare \`fetch\` (with the token and the JSON's type, as every client sends them) and the split and
  \`JSON.parse\` loop of the stream rows (\`floorStream\`); hfkit is
  \`new InferenceClient(token, { endpointUrl, backend: "tgi" }).chatCompletionStream(...)\` with its default limits,
  \`@huggingface/inference\` its \`chatCompletionStream({ endpointUrl, ... })\`, \`openai\` \`chat.completions.create({
  stream: true })\` with \`maxRetries: 0\`. One client object serves every call, as in a server.

${lagNote(r)}
Run it with \`pnpm bench:many\` (about ${minutes(r.seconds)} on 2 cores; \`--n\` streams, \`--chunks\` per
stream, \`--rounds\`, \`--no-docs\`); it rewrites only what is between its markers. Two runs with \`--chunks\` 50
and 200 split the CPU per chunk into what a stream costs to open and close and what each chunk costs.
${END}`;
}

/** `doc` with the section replaced between its markers, or put before "## Running" (else at the end). */
export function withManySection(doc, section) {
  return withSection(doc, section, BEGIN, END);
}

/** The section as `doc` has it (markers included), or "": what a rewrite of the whole page keeps. */
export function manySectionOf(doc) {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  return begin !== -1 && end > begin ? doc.slice(begin, end + END.length) : "";
}

/** Rewrites the section of docs/benchmarks.md; answers the path. */
export function updateManyDocs(r, path = DOCS) {
  writeDoc(path, withManySection(readFileSync(path, "utf8"), manySection(r)));
  return path;
}
