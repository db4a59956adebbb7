// The many-streams benchmark's table and its section of docs/benchmarks.md, rewritten between its markers
// (as failover-docs.mjs does for its own).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

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
  "client", "chunks", "failed", "µs CPU per chunk", "rate × floor", "heap kB per open stream", "× floor",
  "RSS kB per open stream", "× floor", "event-loop delay p99 ms", "server µs CPU per chunk", "hfkit goal", "",
];

function rows(r) {
  return r.cells.map((c) => [
    c.label, `${c.chunks}/${r.n * r.chunks}`, String(c.failed), fixed(c.cpuPerChunkUs, 1), times(c.rateRatio, c),
    fixed(c.heapPerStreamKB, 1), times(c.heapRatio, c), fixed(c.rssPerStreamKB, 1), times(c.rssRatio, c),
    fixed(c.delayP99Ms, 0), fixed(c.serverUsPerChunk, 1), ...goal(c),
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
  const line = (cells) => cells.map((c, i) => (figure(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ").trimEnd();
  return [line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

export function manySection(r) {
  return `${BEGIN}\n## Many streams open at once in one process\n\n${manyTable(r)}\n${END}`;
}

/** `doc` with the section replaced between its markers, or put before "## Running" (else at the end). */
export function withManySection(doc, section) {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin !== -1 && end > begin) return doc.slice(0, begin) + section + doc.slice(end + END.length);
  const running = doc.indexOf("\n## Running");
  return running === -1 ? `${doc.trimEnd()}\n\n${section}\n` : `${doc.slice(0, running)}\n${section}\n${doc.slice(running)}`;
}

/** Rewrites the section of docs/benchmarks.md; answers the path. */
export function updateManyDocs(r, path = DOCS) {
  writeFileSync(path, withManySection(readFileSync(path, "utf8"), manySection(r)));
  return path;
}
