// The measurements as table rows, with hfkit's goal on each (the bundle's and the parse's from issue 29).
import { row } from "./report.mjs";

const KB = 1000; // kB, as size-limit and issue 6 count
const HFKIT = ["hfkit", "hfkit-fn"];
const map = (object, fn) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, fn(v, k)]));

function bundleRows({ sizes, strangers }) {
  const section = "1. bundle: an app streaming one chat, esbuild --minify for the browser";
  const foreign = map(strangers, (list) => (list.length ? list.join(", ") : "none"));
  return [
    row({ section, label: "minified", unit: "kB", anchor: "hfkit", cells: map(sizes, (s) => s.min / KB) }),
    row({
      section,
      label: "gzip -9, the whole app",
      unit: "kB",
      anchor: "hfkit",
      cells: map(sizes, (s) => s.gzip / KB),
    }),
    row({
      section,
      label: "gzip -9, loaded at start (--splitting)",
      unit: "kB",
      anchor: "hfkit",
      cells: map(sizes, (s) => s.firstChunk / KB),
      goal: "client ≤ 20 kB, function ≤ 14 kB",
      met: sizes.hfkit.firstChunk <= 20 * KB && sizes["hfkit-fn"].firstChunk <= 14 * KB,
    }),
    row({ section, label: "brotli q11", unit: "kB", anchor: "hfkit", cells: map(sizes, (s) => s.brotli / KB) }),
    row({
      section,
      label: "Node built-ins, mock hub, snippets, CLI, polyfills in bundle",
      cells: foreign,
      goal: "none",
      met: Object.values(strangers).every((list) => list.length === 0),
    }),
  ];
}

function throughputRows(throughput, allocation, timers) {
  const section = "2. stream parse: 100 000 events served through `fetch`, CPU time, medians";
  // 16 KB reads: the SDK's own work per event near zero; one event per read: level with eventsource-parser alone.
  const goals = {
    "16k": { text: "≥ 0.95× floor", met: (t) => t.hfkit.toFloor >= 0.95 },
    event: { text: "≥ 0.97× eventsource-parser alone", met: (t) => t.hfkit.toFloor >= 0.97 * t.parser.toFloor },
  };
  const names = { "16k": "16 KB chunks", event: "one event per chunk" };
  const rows = [];
  for (const shape of ["16k", "event"]) {
    const t = throughput[shape];
    rows.push(
      row({
        section,
        label: `events/s, ${names[shape]}`,
        unit: "k/s",
        anchor: "floor",
        cells: map(t, (r) => ({ value: r.median / 1000, ratio: r.toFloor })),
        goal: goals[shape].text,
        met: goals[shape].met(t),
      }),
    );
  }
  for (const shape of ["16k", "event"]) {
    const a = allocation[shape];
    rows.push(
      row({
        section,
        label: `allocated per event, ${names[shape]}`,
        unit: "bytes",
        digits: 0,
        anchor: "floor",
        cells: map(a, (r) => r.perEvent),
        goal: "no more than the floor",
        met: a.hfkit.perEvent <= a.floor.perEvent,
      }),
    );
  }
  rows.push(
    row({
      section,
      label: "timers started per stream, one event per chunk",
      digits: 0,
      cells: timers,
      goal: "a few per stream, none per chunk",
      met: HFKIT.every((k) => timers[k] <= 5),
    }),
  );
  return rows;
}

function firstTokenRows(firstToken) {
  const section = "3. time to first token: first body byte → first yielded chunk, medians";
  return [
    row({
      section,
      label: "event-loop turns (max of all runs)",
      digits: 0,
      cells: map(firstToken, (r) => r.maxTurns),
      goal: "0: the same turn",
      met: HFKIT.every((k) => firstToken[k].maxTurns === 0),
    }),
    row({ section, label: "time", unit: "ms", digits: 2, cells: map(firstToken, (r) => r.ms) }),
  ];
}

function importRows(importTime) {
  const section = '4. import time: node --input-type=module -e "await import(pkg)", medians of 10';
  const { bare, empty: _empty, file: _file, ...packages } = importTime;
  return [
    row({
      section,
      label: 'node start to exit (floor: bare node -e "")',
      unit: "ms",
      digits: 0,
      cells: { ...map(packages, (r) => r.ms), floor: bare.ms },
    }),
    row({
      section,
      label: "over bare node",
      unit: "ms",
      anchor: "hfkit",
      cells: map(packages, (r) => r.overMs),
      goal: "≤ 10 ms",
      met: packages.hfkit.overMs <= 10,
    }),
  ];
}

function memoryRows({ capped, defaults }, events) {
  const section = `5. memory: one ${events.toLocaleString("en-US")}-event stream read to its end, child process`;
  return [
    row({
      section,
      label: "peak RSS growth, young generation capped at 1 MB",
      unit: "MB",
      cells: map(capped, (r) => r.growthMB),
      goal: "< 10 MB",
      met: HFKIT.filter((k) => capped[k]).every((k) => capped[k].growthMB < 10),
    }),
    row({
      section,
      label: "… of which after the first tenth of the stream",
      unit: "MB",
      cells: map(capped, (r) => r.lateGrowthMB),
    }),
    ...(Object.keys(defaults).length
      ? [row({ section, label: "peak RSS growth, V8 defaults", unit: "MB", cells: map(defaults, (r) => r.growthMB) })]
      : []),
  ];
}

function requestRows(requests) {
  const section = "6. requests per streamed chat against @hfkit/mock-hub (first call / later calls)";
  const cells = (r) => map(r, ({ first, after }) => `${first} / ${after}`);
  return [
    row({
      section,
      label: "TGI model, backend known",
      cells: cells(requests.known),
      goal: "1 / 1",
      met: HFKIT.every((k) => requests.known[k].first === 1 && requests.known[k].after === 1),
    }),
    row({
      section,
      label: "TGI model, backend detected (not given)",
      cells: cells(requests.detectedTgi),
      goal: "1 / 1",
      met: requests.detectedTgi.hfkit.first === 1 && requests.detectedTgi.hfkit.after === 1,
    }),
    row({
      section,
      label: "transformers-pipeline model, backend detected",
      cells: cells(requests.detectedPipeline),
      goal: "later calls: 1",
      met: requests.detectedPipeline.hfkit.after === 1,
    }),
  ];
}

export function buildRows(r) {
  return [
    ...bundleRows(r.bundle),
    ...throughputRows(r.throughput, r.allocation, r.timers),
    ...firstTokenRows(r.firstToken),
    ...importRows(r.importTime),
    ...memoryRows(r.memory, r.memoryEvents),
    ...requestRows(r.requests),
  ];
}
