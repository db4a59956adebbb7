// The one table: rows of measurements, each cell a value and its ratio to the row's anchor.

/** The columns, in order. `floor` also holds bare node (import time). */
export const COLUMNS = [
  { key: "hfkit", label: "hfkit InferenceClient", short: "hfkit client" },
  { key: "hfkit-fn", label: "hfkit chatCompletionStream", short: "hfkit function" },
  { key: "hf", label: "@huggingface/inference", short: "@huggingface" },
  { key: "openai", label: "openai", short: "openai" },
  { key: "floor", label: "floor", short: "floor" },
];

/**
 * A row: `cells[key]` is a number, a string, or `{ value, ratio }` when the ratio was measured
 * pairwise (per round); otherwise the ratio is value / anchor's value.
 */
export function row({ section, label, unit, digits = 1, anchor, cells, goal = "", met = null }) {
  return { section, label, unit, digits, anchor, cells, goal, met };
}

function valueOf(cell) {
  return typeof cell === "object" && cell !== null ? cell.value : cell;
}

function ratioOf(r, key) {
  const cell = r.cells[key];
  if (typeof cell === "object" && cell !== null && cell.ratio !== undefined)
    return key === r.anchor ? undefined : cell.ratio;
  const value = valueOf(cell);
  const base = valueOf(r.cells[r.anchor]);
  if (key === r.anchor || typeof value !== "number" || typeof base !== "number" || base === 0) return undefined;
  return value / base;
}

function formatRatio(ratio) {
  if (ratio === undefined) return "";
  // Three decimals under 1: a 0.849× must not read as the 0.85× it misses.
  return ` (${ratio >= 10 ? ratio.toFixed(0) : ratio >= 1 ? ratio.toFixed(1) : ratio.toFixed(3)}×)`;
}

export function formatCell(r, key) {
  const value = valueOf(r.cells[key]);
  if (value === undefined || value === null) return "—";
  if (typeof value === "string") return value;
  return `${value.toFixed(r.digits)}${formatRatio(ratioOf(r, key))}`;
}

const verdict = (met) => (met === true ? "met" : met === false ? "MISSED" : "");

/** Header and body as arrays of strings: the console and markdown tables render the same cells. */
export function tableCells(rows) {
  const header = ["measurement", ...COLUMNS.map((c) => c.label), "ratio to", "hfkit goal", ""];
  const body = rows.map((r) => [
    `${r.label}${r.unit ? ` (${r.unit})` : ""}`,
    ...COLUMNS.map((c) => formatCell(r, c.key)),
    r.anchor ? (COLUMNS.find((c) => c.key === r.anchor)?.short ?? r.anchor) : "",
    r.goal,
    verdict(r.met),
  ]);
  return { header, body };
}

export function consoleTable(rows) {
  const { header, body } = tableCells(rows);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  const out = [line(header), widths.map((w) => "-".repeat(w)).join("  ")];
  let section;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].section !== section) {
      section = rows[i].section;
      out.push(`[${section}]`);
    }
    out.push(line(body[i]));
  }
  return out.join("\n");
}

export function markdownTable(rows) {
  const { header, body } = tableCells(rows);
  const esc = (s) => s.replaceAll("|", "\\|");
  const out = [
    `| ${header.map(esc).join(" | ")} |`,
    `| --- | ${header
      .slice(1)
      .map(() => "---:")
      .join(" | ")} |`,
  ];
  let section;
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].section !== section) {
      section = rows[i].section;
      out.push(`| **${esc(section)}** |${" |".repeat(header.length - 1)}`);
    }
    out.push(`| ${body[i].map(esc).join(" | ")} |`);
  }
  return out.join("\n");
}
