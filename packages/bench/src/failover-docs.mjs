// The failover benchmark's table and its section of docs/benchmarks.md, which a run of failover.mjs
// alone rewrites between its markers (a full `pnpm bench` writes the whole page, this section included).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fallbackConfig } from "./portkey.mjs";
import { withSection, writeDoc } from "./writeDoc.mjs";

const DOCS = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
const BEGIN = "<!-- failover:begin: `node packages/bench/src/failover.mjs` rewrites what is between these markers -->";
const END = "<!-- failover:end -->";

const ms = (v) => (v < 100 ? v.toFixed(1) : v.toFixed(0));

const everyRun = (cell) => cell !== undefined && cell.tokens === cell.runs;

/** `fn(cell, anchor)` when both got their first token in every run (a time to an error is no match for a token). */
const compared = (cell, anchor, fn) => (cell !== anchor && everyRun(cell) && everyRun(anchor) ? fn(cell, anchor) : "");

const over = (cell, anchor) => {
  const d = cell.median - anchor.median;
  return `${d < 0 ? "−" : "+"}${ms(Math.abs(d))}`;
};
const ratio = (cell, anchor) => `${(cell.median / anchor.median).toFixed(2)}×`;

function tableCells(r) {
  const header = [
    "scenario",
    "client",
    "first token",
    "median ms",
    "p90 ms",
    "ms over nothing down",
    "median / Portkey's",
    "outcomes",
  ];
  const healthy = r.scenarios.find((s) => s.key === "healthy")?.cells ?? [];
  const body = r.scenarios.flatMap((s) => {
    const portkey = s.cells.find((c) => c.key === "portkey");
    return s.cells.map((c, i) => [
      i === 0 ? s.label : "",
      c.label,
      `${c.tokens}/${c.runs}`,
      ms(c.median),
      ms(c.p90),
      s.key === "healthy"
        ? ""
        : compared(
            c,
            healthy.find((h) => h.key === c.key),
            over,
          ),
      compared(c, portkey, ratio),
      c.outcomes.join("; "),
    ]);
  });
  return { header, body };
}

/** Columns of figures, right-aligned. */
const figure = (i) => i >= 2 && i <= 6;

/** The table, as `"markdown"` or as aligned `"text"` for a terminal. */
export function failoverTable(r, format = "markdown") {
  const { header, body } = tableCells(r);
  if (format === "markdown") {
    const line = (cells) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
    return [line(header), line(header.map((_, i) => (figure(i) ? "---:" : "---"))), ...body.map(line)].join("\n");
  }
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (figure(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** The section, markers included. */
export function failoverSection(r) {
  const { versions: v, model, fallback, limitMs, giveUpMs } = r;
  const config = fallbackConfig({
    downUrl: "<first candidate>",
    routerUrl: "<mock hub>",
    model,
    fallbackModel: fallback,
    timeoutMs: limitMs,
  });
  const stall = r.scenarios.find((s) => s.key === "stall").cells.find((c) => c.key === "portkey");
  return `${BEGIN}
## Failover: time to first token when a provider is down

A streamed chat whose first candidate is down and whose second (\`${fallback}\` on \`@hfkit/mock-hub\`'s router route)
is healthy: the time from the call to its first token (the first chunk with content), or to its error when it gets
none. ${r.reps} runs per cell; in each round the three clients take turns in rotated order, after one warm-up run each
per scenario (which also reads hfkit's router catalog, \`GET /v1/models\`, kept for an hour). Every client has the
same **${limitMs} ms limit per candidate**: hfkit's \`firstChunkTimeout\` (until a candidate's first chunk), Portkey's
\`request_timeout\` (until a target's response headers: the only timeout it has). A run with no token after
${giveUpMs} ms is given up. Last run: ${r.date}, Node ${r.node}, \`@hfkit/inference\` ${v.hfkit},
\`@portkey-ai/gateway\` **${v.portkey}** (served with \`@hono/node-server\` ${v.honoNodeServer}), \`openai\` ${v.openai}.

${failoverTable(r)}

### How each scenario is produced

0. **Nothing down** (the anchor): the first candidate is \`${model}\` served as a dedicated endpoint of the mock hub
   (\`<hub>/models/${model}\`), answering; the "ms over nothing down" column is each client's median less its own here.
1. **Connection refused**: the first candidate is a loopback port that was bound and closed again.
2. **503, not loading**: the same endpoint, with
   \`hub.inject({ type: "serverError", status: 503 }, { model: "${model}" })\`: every request is answered 503
   \`{"error": "Service Unavailable"}\`, with no "loading" in it.
3. **Stall**: the same endpoint with \`{ type: "stall", afterChunks: 0 }\`: 200 and its headers at once, then nothing
   (the body stays open).

### The clients

- **hfkit, failover**: \`chatCompletionStream({ model: "${model}", endpointUrl: <first candidate>, fallbackModels:
  ["${fallback}"], messages }, { firstChunkTimeout: ${limitMs}, maxRetries: 2 })\`; the router
  (\`https://router.huggingface.co\`) is redirected to the mock hub by the client's \`fetch\` option. The endpoint is
  the first candidate, \`${fallback}\` through the router the second; "moved on" is what \`onFailover\` was told.
- **hfkit, no failover**: the same call without \`fallbackModels\`: it retries a refusal and a 5xx (\`maxRetries: 2\`,
  jittered backoff), then fails; \`firstChunkTimeout\` spans the retries, so a stall ends the call at ${limitMs} ms.
- **Portkey gateway, fallback**: its bin, \`build/start-server.js --port=0 --headless\`, in a child process, called by
  \`openai\` (\`maxRetries: 0\`: the gateway is what fails over) with \`stream: true\` and this \`x-portkey-config\`
  ("served by" is its \`x-portkey-last-used-option-index\` header):

\`\`\`json
${JSON.stringify(config, null, 2).replace(/\[([\d,\s]+)\]/g, (_, codes) => `[${codes.split(",").map(Number).join(", ")}]`)}
\`\`\`

  \`on_status_codes\` names what moves the call to the next target: 503 and the other 5xx, 429, 408 (its own
  \`request_timeout\`) and 500 (what it answers for a connection it could not make). There is no \`retry\` block, so
  each target is tried once, as hfkit tries each candidate but the last (the last retries as any call does).

### Limitations found

- **Portkey ${v.portkey} does not stream as installed**: with the \`@hono/node-server\` 1.19.x that its \`^1.3.3\` range
  resolves to, every streamed chat is a 500 (\`TypeError: immutable\`, in its header update). The bench pins
  \`@hono/node-server\` ${v.honoNodeServer} in packages/bench and hands it to the gateway through a module resolve hook
  loaded into the gateway's process (\`packages/bench/src/portkey-preload.mjs\`), since \`overrides\` can only be set
  at the workspace root. The preload also binds the gateway to 127.0.0.1: it listens on every
  interface and has no host flag.
- **Portkey does not fail over on a stall after the headers**${stall.tokens === 0 ? ` (0/${stall.runs} above)` : ""}:
  its \`request_timeout\` only bounds the wait for the upstream's response headers (the timer is cleared once \`fetch\`
  resolves), and it has no first-chunk or idle timeout. The client gets no headers either and waits until it gives up
  (${giveUpMs} ms here). A server that holds back its headers past \`request_timeout\` is failed over (its 408): in a
  spot check (not part of the table) with the mock hub's \`headersDelay\` fault of 5 s and a 2000 ms limit, the first
  token came after 2.06–2.19 s over three calls.
- hfkit moves on a stall at its first-chunk limit, so its time to first token there is that limit plus the second
  candidate's answer.

Run this section alone with \`node packages/bench/src/failover.mjs\` (\`--quick\`: 5 runs per cell); it rewrites only
what is between its markers. Build \`@hfkit/inference\` and \`@hfkit/mock-hub\` first.
${END}`;
}

/** `doc` with the section replaced between its markers, or put before "## Running" (else at the end). */
export function withFailoverSection(doc, section) {
  return withSection(doc, section, BEGIN, END);
}

/** Rewrites the section of docs/benchmarks.md; answers the path. */
export function updateFailoverDocs(r, path = DOCS) {
  writeDoc(path, withFailoverSection(readFileSync(path, "utf8"), failoverSection(r)));
  return path;
}
