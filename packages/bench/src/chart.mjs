// A small SVG bar chart: one panel per measurement, one horizontal bar per client.
import { COLUMNS } from "./report.mjs";

const WIDTH = 760;
const LABEL_WIDTH = 200;
const BAR_HEIGHT = 18;
const GAP = 6;
const COLORS = { hfkit: "#e8a317", "hfkit-fn": "#f2c96b", hf: "#6b8fd6", openai: "#7a7a7a", floor: "#9bc49b" };

const escape = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function text(x, y, content, attrs = "") {
  return `<text x="${Math.round(x)}" y="${Math.round(y)}"${attrs ? ` ${attrs}` : ""}>${escape(content)}</text>`;
}

/** One panel: `values` maps a column key to a number; missing keys are left out. */
function panel({ title, values, unit, digits = 1 }, top) {
  const bars = COLUMNS.filter((c) => typeof values[c.key] === "number");
  const max = Math.max(...bars.map((c) => values[c.key]), Number.EPSILON);
  const span = WIDTH - LABEL_WIDTH - 120;
  const parts = [text(10, top + 16, title, 'font-weight="bold"')];
  bars.forEach((c, i) => {
    const y = top + 26 + i * (BAR_HEIGHT + GAP);
    const w = Math.max(1, (values[c.key] / max) * span);
    parts.push(
      text(LABEL_WIDTH - 8, y + BAR_HEIGHT - 5, c.label, 'text-anchor="end"'),
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${w.toFixed(1)}" height="${BAR_HEIGHT}" fill="${COLORS[c.key]}"/>`,
      text(LABEL_WIDTH + w + 6, y + BAR_HEIGHT - 5, `${values[c.key].toFixed(digits)} ${unit}`),
    );
  });
  return { svg: parts.join("\n"), height: 36 + bars.length * (BAR_HEIGHT + GAP) };
}

/** The whole chart from a list of panels (`{ title, values, unit, digits }`). */
export function barChart(panels) {
  let top = 10;
  const pieces = [];
  for (const p of panels) {
    const { svg, height } = panel(p, top);
    pieces.push(svg);
    top += height + 10;
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${top}" viewBox="0 0 ${WIDTH} ${top}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...pieces,
    "</svg>",
    "",
  ].join("\n");
}
