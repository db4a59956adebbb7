// docs/benchmarks.md and its chart, written from one run's results.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { barChart } from "./chart.mjs";
import { failoverSection } from "./failover-docs.mjs";
import { routingSection } from "./routing-docs.mjs";
import { loadSectionOf } from "./load-docs.mjs";
import { manySectionOf } from "./many-docs.mjs";
import { typedSection } from "./typed.mjs";
import { markdownTable } from "./report.mjs";
import { writeDoc } from "./writeDoc.mjs";

const KB = 1000; // kB, as size-limit and issue 6 count

function chartPanels(r) {
  const pick = (object, fn) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, fn(v)]));
  return [
    { title: "Bundle, gzip -9 (smaller is better)", unit: "kB", values: pick(r.bundle.sizes, (s) => s.gzip / KB) },
    {
      title: "Stream parse, 16 KB chunks (higher is better)",
      unit: "k events/s",
      digits: 0,
      values: pick(r.throughput["16k"], (t) => t.median / 1000),
    },
    {
      title: "Stream parse, one event per chunk (higher is better)",
      unit: "k events/s",
      digits: 0,
      values: pick(r.throughput.event, (t) => t.median / 1000),
    },
    {
      title: "Allocated per event, 16 KB chunks (smaller is better)",
      unit: "bytes",
      digits: 0,
      values: pick(r.allocation["16k"], (a) => a.perEvent),
    },
    {
      title: "Import time over bare node (smaller is better)",
      unit: "ms",
      digits: 0,
      values: pick(r.importTime, (t) => t.overMs),
    },
  ];
}

const SHAPE_NAMES = { "16k": "16 KB chunks", event: "one event per chunk" };

/** What the table alone does not say: Node's own import price, eventsource-parser's ratio, hfkit's costliest functions. */
export function runNotes(r) {
  const parser = Object.entries(r.throughput)
    .map(([shape, t]) => `${t.parser.toFloor.toFixed(2)}× (${SHAPE_NAMES[shape]})`)
    .join(", ");
  const lines = [
    `Importing an empty module costs ${r.importTime.empty.overMs.toFixed(1)} ms over bare node (${r.importTime.bare.ms.toFixed(0)} ms): Node's ESM loader, in every import row; a one-line module file costs ${r.importTime.file.overMs.toFixed(1)} ms.`,
    `eventsource-parser alone (its parser, JSON.parse, an async generator) runs at ${parser} the floor.`,
    `hfkit with an \`observe\` hook (one that does nothing) runs at ${Object.entries(r.throughput)
      .map(
        ([shape, t]) =>
          `${t["hfkit-observed"].toFloor.toFixed(2)}× (${SHAPE_NAMES[shape]}; hfkit without it ${t.hfkit.toFloor.toFixed(2)}×)`,
      )
      .join(", ")} the floor, in the same run.`,
    ...Object.entries(r.throughput).map(([shape, t]) => {
      const spread = (key) => `${Math.min(...t[key].ratios).toFixed(2)}–${Math.max(...t[key].ratios).toFixed(2)}`;
      return `Per-round ratios to the floor, ${SHAPE_NAMES[shape]}: hfkit ${spread("hfkit")}, @huggingface/inference ${spread("hf")}, openai ${spread("openai")}.`;
    }),
  ];
  for (const [shape, p] of Object.entries(r.profile)) {
    const top = p.functions.slice(0, 6).map((f) => `${f.name} ${f.ms.toFixed(0)} ms`);
    lines.push(`hfkit self time per 100 000 events, ${SHAPE_NAMES[shape]} (profiled): ${top.join("; ")}.`);
  }
  return lines;
}

function profileTable(profile) {
  const lines = ["| shape | function (hfkit sources) | self ms per 100 000 events |", "| --- | --- | ---: |"];
  for (const [shape, p] of Object.entries(profile)) {
    for (const f of p.functions.slice(0, 10))
      lines.push(`| ${SHAPE_NAMES[shape]} | \`${f.name}\` | ${f.ms.toFixed(1)} |`);
  }
  return lines.join("\n");
}

function modulesTable(modules) {
  const lines = ["| module | minified bytes | ≈ share of gzip (bytes) |", "| --- | ---: | ---: |"];
  for (const m of modules) lines.push(`| ${m.module} | ${m.min} | ${Math.round(m.gzipShare)} |`);
  return lines.join("\n");
}

/** What each module of the client is for: the capability its bytes buy. */
const CAPABILITIES = [
  [
    "streaming: SSE parsing, termination without `[DONE]`, the async iterator",
    /core\/sse|streamIterator|chatCompletionStream/,
  ],
  ["typed errors and the mapping of every server error", /errors\.ts|errorTable/],
  ["deadline, first-chunk and idle timeouts; bounded, loading-aware retries", /transport\/(call|retry)|warnOnce/],
  ["input validation and per-call options", /params|prepare/],
  ["the request: headers, token redaction, error bodies", /transport\/request|version/],
  ["routing, TGI payloads and chunk normalisation", /router|backends\/(tgi|memory)/],
  ["transformers-pipeline backend and its detection", /backends\/transformers|chatDispatch/],
  [
    "the other client methods: chatCompletion, textGeneration(Stream), conversational",
    /tasks\/(chatCompletion|textGeneration|textGenerationStream|conversational)\.ts|client\.ts/,
  ],
  ["the app itself", /^apps\//],
];

/** The InferenceClient app's bytes by capability, and what the TGI chat stream alone needs. */
function capabilityTable(modules) {
  const sums = CAPABILITIES.map(([name, re]) => ({
    name,
    gzip: modules.filter((m) => re.test(m.module)).reduce((sum, m) => sum + m.gzipShare, 0),
  }));
  const named = new Set(modules.filter((m) => CAPABILITIES.some(([, re]) => re.test(m.module))));
  const other = modules.filter((m) => !named.has(m)).reduce((sum, m) => sum + m.gzipShare, 0);
  if (other > 0) sums.push({ name: "other modules", gzip: other });
  const lines = ["| capability | ≈ share of gzip (kB) |", "| --- | ---: |"];
  for (const c of sums) lines.push(`| ${c.name} | ${(c.gzip / KB).toFixed(2)} |`);
  const optional = new Set([CAPABILITIES[6][0], CAPABILITIES[7][0], CAPABILITIES[8][0]]);
  const core = sums.filter((c) => !optional.has(c.name)).reduce((sum, c) => sum + c.gzip, 0);
  return { table: lines.join("\n"), coreKb: core / KB };
}

function sitesTable(allocation) {
  const lines = ["| client | site | bytes per event |", "| --- | --- | ---: |"];
  for (const key of ["floor", "hfkit"]) {
    for (const s of allocation[key].sites.slice(0, 6))
      lines.push(`| ${key} | \`${s.site}\` | ${Math.round(s.perEvent)} |`);
  }
  return lines.join("\n");
}

export function writeDocs({ path, svgPath, svgName, rows, results, versions, quick }) {
  writeFileSync(svgPath, barChart(chartPanels(results)));
  const cpus = os.cpus();
  const capabilities = capabilityTable(results.bundle.modules.hfkit);
  // `pnpm bench:many` and `pnpm bench:load` write their own sections: a rewrite of the page keeps them as they are.
  const before = existsSync(path) ? readFileSync(path, "utf8") : "";
  const many = manySectionOf(before);
  const load = loadSectionOf(before);
  const doc = `# Benchmarks

\`pnpm bench\` measures \`@hfkit/inference\` ${versions.hfkit} against \`@huggingface/inference\` ${versions.hf} and
\`openai\` ${versions.openai} in one run, on one machine, and writes this page. Machines here are shared and
noisy: read the ratios (each measured against an anchor in the same run), not the absolute figures.
${quick ? "\nThis run used `--quick` (fewer rounds).\n" : ""}
Last run: Node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${os.platform()} ${os.release()}.

![benchmarks](./${svgName})

${markdownTable(rows)}

Ratios in brackets: to the floor for the stream rows (median of the per-round ratios), to
hfkit's \`InferenceClient\` elsewhere.

## How each row is measured

1. **Bundle**: \`packages/bench/apps/*.mjs\`, each a page that streams one chat, bundled by esbuild
   (\`--bundle --minify --platform=browser --format=esm\`), then gzip (level 9) and brotli (quality 11)
   from \`node:zlib\`. Node built-ins are left as imports so that the check can name them; the hfkit
   bundles may contain only \`@hfkit/inference\`'s one file (esbuild's metafile inputs).
2. **Stream parse**: 100 000 TGI 3.2 chat chunks (the bytes \`@hfkit/mock-hub\` sends), served from memory
   through each client's \`fetch\` option, in 16 KB reads (cutting events anywhere) and one event per read.
   The floor is an async generator that decodes, splits on blank lines and \`JSON.parse\`s. Clients run in
   rotated order, one child process (\`--single-threaded-gc\`, GC between runs), timed in process CPU
   time. Allocation: V8's sampling heap profiler (a sample per KB, collected objects included) over
   50 000 events. Timers: calls of
   \`setTimeout\`, \`setInterval\` and \`setImmediate\` during one stream.
3. **First token**: the client waits on an open body; one event is written, the rest 100 ms later.
   Turns are counted with a \`setImmediate\` loop between the write and the first chunk.
4. **Import time**: \`node --input-type=module -e "await import(pkg)"\` from \`packages/bench\`, against
   \`node --input-type=module -e ""\`, rotated, medians of the per-round differences.
5. **Memory**: one child process per client reads a generated stream to its end; RSS sampled every
   4 096 chunks. V8's young generation alone grows RSS by about 16 MB under any loop, the floor's
   included: the first row caps it (\`--max-semi-space-size=1\`) to show what a client retains.
6. **Requests**: \`startMockHub()\`, three calls per case, counted at the client's \`fetch\` and in
   \`hub.requests\`. Peers are given the model's endpoint URL (they detect no backend).

## Where hfkit's bundle bytes go

\`dist/\` is one file, so the same app is also built from \`packages/inference/src\`; esbuild's metafile
gives each module's minified bytes (the gzip share is proportional, an estimate).

### \`InferenceClient\` app

${modulesTable(results.bundle.modules.hfkit)}

By capability (the same estimate, summed):

${capabilities.table}

The TGI chat stream alone (every row but the pipeline backend, the other methods and the app) is
about ${capabilities.coreKb.toFixed(1)} kB. This table is the whole app built as one file; with code splitting (how
Vite, webpack, Next.js and esbuild \`--splitting\` build pages) the client's tasks (each a module of
its own, loaded on its first call), the transformers pipeline's backend, failover, the catalog, structured output, the tool runner and the observer are
chunks loaded on first use: the goals (a client's chat page ≤ 20 kB at start, the \`chatCompletionStream\` app
≤ 14 kB) are for what a page loads at start, row 1's last line. \`.size-limit.json\` holds the budget that CI
checks (\`pnpm size\`, the same measure): a guard against growth set just above the measured size.

### \`chatCompletionStream\` app

${modulesTable(results.bundle.modules["hfkit-fn"])}

## Where hfkit's stream time goes

${runNotes(results)[1]} V8's CPU profiler (50 µs samples, which slow everything down) over a
source-mapped build of the same sources, three streams per shape; \`JSON.parse\` is counted in its caller
(\`onEvent\`), \`(program)\` and \`(garbage collector)\` are V8's own.

${profileTable(results.profile)}

## Where the per-event allocations come from (16 KB chunks)

${sitesTable(results.allocation["16k"])}

${failoverSection(results.failover)}

${routingSection(results.routing)}

${typedSection(results.typed)}
${many && `\n${many}\n`}${load && `\n${load}\n`}
## Running

\`pnpm bench\` (about ${quick ? "four" : "nine"} minutes on 2 cores) builds \`@hfkit/inference\` and \`@hfkit/mock-hub\`, then
runs everything; \`pnpm bench --quick\` takes fewer rounds. Benchmarks never run in \`pnpm test\`.
`;
  writeDoc(path, doc);
}
