// The routing benchmark's tables and its section of docs/benchmarks.md ("Routing that learns"), which a run of
// routing.mjs alone rewrites between its markers (a full `pnpm bench` writes the whole page, this section included).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withSection, writeDoc } from "./writeDoc.mjs";

const DOCS = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
const BEGIN = "<!-- routing:begin: `node packages/bench/src/routing.mjs` rewrites what is between these markers -->";
const END = "<!-- routing:end -->";

/**
 * `text` as a list item (`- ` and two spaces before each next line) wrapped at 120 columns, never inside a code span
 * nor between a figure and its unit (the page keeps its lines as written).
 */
function item(text) {
  const words = [];
  for (const word of text.split(" ")) {
    const open = words.length > 0 && (words.at(-1).match(/`/g) ?? []).length % 2 === 1;
    const unit = words.length > 0 && /^m?s\b/.test(word); // "18.54 s)" stays on one line
    if (open || unit) words[words.length - 1] += ` ${word}`;
    else words.push(word);
  }
  const lines = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= 120) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(lines.length === 0 ? `- ${word}` : `  ${word}`);
  }
  return lines.join("\n");
}

const ms = (v) => (v === undefined ? "" : v < 100 ? v.toFixed(1) : v.toFixed(0));
const s = (v) => `${(v / 1000).toFixed(2)} s`;
const pct = (v) => `${(v * 100).toFixed(1)}%`;
const times = (v) => (v === undefined ? "" : `${v.toFixed(2)}×`);

/** Columns of figures, right-aligned, by table. */
const FIGURES = { recovery: new Set([1, 2, 3, 4, 5, 6]), tail: new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]) };

function aBackCell(c) {
  return c.aBack ? `call ${c.aBack.i} (${s(c.aBack.afterMs)})` : "not within the run";
}

function recoveryCells(r) {
  const header = [
    "client",
    "calls, `a` down + up",
    "healthy call, median ms",
    "calls 11–100, median ms",
    "÷ healthy",
    "calls with `a` down that waited out the limit",
    "requests to `a` while down",
    "`a` serves again: call (after its recovery)",
    "calls with `a` down ended",
  ];
  const body = r.recovery.map((c) => [
    c.label,
    `${c.down} + ${c.up}`,
    ms(c.healthy),
    c.window.median === undefined
      ? `no token (${c.window.runs - c.window.tokens}/${c.window.runs})`
      : `${ms(c.window.median)}${c.window.to === 100 ? "" : ` (calls 11–${c.window.to})`}`,
    times(c.ratio),
    `${c.paidLimit}/${c.down}`,
    `${c.requestsToA}`,
    aBackCell(c),
    Object.entries(c.outcomes)
      .map(([what, n]) => `${n}× ${what}`)
      .join("; "),
  ]);
  return { header, body };
}

const hedgeLabel = (t) => (t.afterMs ? `\`hedge: { afterMs: ${t.afterMs} }\`` : "no hedge");

function tailCells(r) {
  const { a: A, b: B } = r.names;
  const header = [
    "hedge",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "max ms",
    "p99 ÷ no hedge's",
    "requests to `a` + `b`",
    "extra requests",
    "hedges started",
    "won by `b`",
  ];
  const none = r.tail.find((t) => !t.afterMs);
  const body = r.tail.map((t) => [
    hedgeLabel(t),
    ms(t.p50),
    ms(t.p90),
    ms(t.p99),
    ms(t.max),
    t === none ? "" : times(t.p99 / none.p99),
    `${t.requests[A]} + ${t.requests[B]}`,
    `${t.extra} (${pct(t.extraShare)})`,
    `${t.hedgesStarted}`,
    `${t.hedgesWon[B] ?? 0}`,
  ]);
  return { header, body };
}

function render({ header, body }, figures, format) {
  if (format === "markdown") {
    const line = (cells) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
    return [line(header), line(header.map((_, i) => (figures.has(i) ? "---:" : "---"))), ...body.map(line)].join("\n");
  }
  const plain = (c) => c.replaceAll("`", "");
  const widths = header.map((h, i) => Math.max(plain(h).length, ...body.map((b) => plain(b[i]).length)));
  const line = (cells) =>
    cells
      .map(plain)
      .map((c, i) => (figures.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

export const recoveryTable = (r, format = "markdown") => render(recoveryCells(r), FIGURES.recovery, format);
export const tailTable = (r, format = "markdown") => render(tailCells(r), FIGURES.tail, format);

/** The goals of issue 41, each with what this run measured. */
export function routingGoals(r) {
  const health = r.recovery.find((c) => c.key === "health");
  const chosen = r.tail.find((t) => t.afterMs === r.hedgeChosen);
  const none = r.tail.find((t) => !t.afterMs);
  const within = health.ratio !== undefined && health.ratio <= 1.1;
  const back = health.aBack !== undefined && health.aBack.afterMs <= r.cooldownMs;
  const halved = chosen.p99 <= none.p99 / 2;
  const cheap = chosen.extraShare <= 0.1;
  const mark = (ok) => (ok ? "met" : "**missed**");
  return [
    `With health, calls 11–${health.window.to} within 10% of a healthy call: ${mark(within)} (median ${ms(health.window.median)} ms against ${ms(health.healthy)} ms, ${times(health.ratio)}; the median of the paired differences ${health.pairedDiff >= 0 ? "+" : "−"}${ms(Math.abs(health.pairedDiff))} ms).`,
    `\`a\` used again within one cooldown (${s(r.cooldownMs)}) of its recovery: ${mark(back)} (${health.aBack ? `call ${health.aBack.i}, its first token ${s(health.aBack.afterMs)} after the recovery` : "not within the run"}).`,
    `With \`hedge: { afterMs: ${chosen.afterMs} }\`, p99 halved for at most 10% more requests: p99 ${ms(none.p99)} → ${ms(chosen.p99)} ms (${times(chosen.p99 / none.p99)}): ${mark(halved)}; ${chosen.extra} more requests (${pct(chosen.extraShare)}): ${mark(cheap)}.`,
  ];
}

/** hfkit's breaker on `a` over the run: each change, at which call and when. */
function breakerStory(r, health) {
  const { a: A, flaky: FLAKY } = r.names;
  const target = `${FLAKY}:${A}`;
  const changes = health.events.filter((e) => e.target === target);
  if (changes.length === 0) return "**hfkit's breaker on `a`** did not change state.";
  return `**hfkit's breaker on \`${target}\`**, with the call and the time into the run: ${changes
    .map((e) => `${e.state} at call ${e.i} (${s(e.at)})`)
    .join(", ")}; \`a\` recovered at ${s(health.recoveredAt)}, before call ${health.down + 1}.`;
}

/** Why `a` came back later than one cooldown, when it did. */
function lateNote(r, health) {
  if (!health.aBack || health.aBack.afterMs <= r.cooldownMs) return "";
  const probe = [...health.events].reverse().find((e) => e.state === "half-open" && e.at < health.recoveredAt);
  const why = probe
    ? `the probe at call ${probe.i} (${s(probe.at)}) went to \`a\` while it still stalled, and its timeout, ${s(r.limitMs)} later, opened the breaker for a whole cooldown from then`
    : "the last probe before the recovery failed, and opened the breaker for a whole cooldown from its timeout";
  return `${item(`**\`a\` came back ${s(health.aBack.afterMs - r.cooldownMs)} later than one cooldown after its recovery**: ${why}.`)}
`;
}

/** `{ type: "latency", p50Ms: 50 }`, as the code writes it. */
const fault = (f) =>
  `{ ${Object.entries(f)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ")} }`;

function json(value) {
  return JSON.stringify(value, null, 2).replace(
    /\[([\d,\s]+)\]/g,
    (_, codes) =>
      `[${codes
        .split(",")
        .map((c) => c.trim())
        .join(", ")}]`,
  );
}

/** The two tables and the goals, for a terminal (`"text"`) or the page. */
export function routingTables(r, format = "markdown") {
  return [
    "Routing 1: a provider down for the first calls, then recovered",
    recoveryTable(r, format),
    "",
    `Routing 2: a heavy-tailed first token (p99 = 10 × p50 on \`a\`), ${r.tailCalls} calls per setting`,
    tailTable(r, format),
    "",
    ...routingGoals(r),
  ].join("\n");
}

/** `b`'s time past `afterMs` in the calls it won, per setting. */
function afterHedgeText(r) {
  return r.tail
    .filter((t) => t.bAfterHedge)
    .map((t) => `${t.afterMs} ms: median ${ms(t.bAfterHedge.median)} ms, p90 ${ms(t.bAfterHedge.p90)} ms`)
    .join("; ");
}

/** How much of `b`'s time the goal leaves at the chosen `afterMs`. */
function margin(r) {
  const none = r.tail.find((t) => !t.afterMs);
  const chosen = r.tail.find((t) => t.afterMs === r.hedgeChosen);
  const left = none.p99 / 2 - chosen.afterMs;
  if (!chosen.bAfterHedge) return "";
  return left <= 0
    ? `Halving the p99 (${ms(none.p99 / 2)} ms) is out of reach of a ${chosen.afterMs} ms hedge here.`
    : `To halve the p99 with a ${chosen.afterMs} ms hedge, \`b\` must give its first token within ${ms(left)} ms of the hedge's start in the slowest hedged calls; its p90 here was ${ms(chosen.bAfterHedge.p90)} ms.`;
}

/** What health made of the heavy tail: nothing, when no breaker changed in any run. */
function breakers(r) {
  const changed = r.tail.filter((t) => t.breakerChanges.length > 0);
  if (changed.length === 0) return "No breaker changed state in any of these runs (a slow first token is no failure).";
  return `Breakers changed state: ${changed
    .map((t) => `${hedgeLabel(t)}: ${t.breakerChanges.join(", ")}`)
    .join("; ")}.`;
}

/** The section, markers included. */
export function routingSection(r) {
  const { versions: v } = r;
  const { a: A, b: B, flaky: FLAKY, anchor: ANCHOR, heavy: HEAVY } = r.names;
  const health = r.recovery.find((c) => c.key === "health");
  const short = r.recovery.find((c) => c.key === "off");
  const stall = r.recovery.find((c) => c.key === "portkey-stall");
  const held = r.recovery.find((c) => c.key === "portkey-held");
  const none = r.tail.find((t) => !t.afterMs);
  const others = r.tail.filter((t) => t.afterMs && t.afterMs !== r.hedgeChosen).map((t) => `${t.afterMs} ms`);
  const moves = Object.entries(health.moves).map(([reason, n]) => `${n}× \`${reason}\``);
  return `${BEGIN}

## Routing that learns: health across calls, hedged first tokens

What [health and hedging](health.md) buy, in two scenarios against \`@hfkit/mock-hub\` (its router route; each model
served by two providers, \`${A}\` as \`a\` and \`${B}\` as \`b\`). Each client's run is a child process of its own:
hfkit's health is the process's memory, so no run starts with another's (and the runs go side by side). Every time is
from the call to its first token (the first chunk with content); every call is streamed and read to its end.
Last run: ${r.date}, Node ${r.node}, ${r.cpus} CPUs (shared: load average ${r.load.map((l) => l.toFixed(1)).join(" at the start, ")}
at the end), \`@hfkit/inference\` ${v.hfkit}, \`@portkey-ai/gateway\` **${v.portkey}** (served with
\`@hono/node-server\` ${v.honoNodeServer}), \`openai\` ${v.openai}.${r.quick ? " This run used `--quick` (shorter runs)." : ""}

${routingGoals(r).map(item).join("\n")}

### 1. A provider down, then recovered

${recoveryTable(r)}

- **The scenario**: \`provider: ["${A}", "${B}"]\` on \`${FLAKY}\`. For the first calls of the run \`a\` stalls (200
  and its headers, then nothing):
  \`hub.inject({ type: "stall", afterChunks: 0 }, { model: "${FLAKY}", provider: "${A}" })\`; then the rule is
  removed (\`rule.remove()\`) and \`a\` answers again. Calls are sequential, one every ${r.paceMs} ms at most (a call that takes
  longer starts the next at once). Each client has a **${r.limitMs} ms limit per candidate**; a call with no token
  after ${s(r.giveUpMs)} is given up.
- **Healthy**: each call is paired with one of the same client on \`${ANCHOR}\` (the same two providers, both up),
  made just before or just after it, in turn. "Healthy call" is the median of the anchors paired with calls 11–100,
  "÷ healthy" the ratio of the two medians. The mock hub answers in a few ms, so 10% is a fraction of a millisecond
  here: on a shared machine, near the noise of one run.
- **Shorter runs**: a client that does not remember pays the same for every call while \`a\` is down, and 100 calls
  at ${s(r.limitMs)} or more would take over 3 minutes per client. Those runs have ${short.down} calls with \`a\` down
  and ${short.up} after (hfkit without health, Portkey with \`a\` holding its headers), ${stall.down} + ${stall.up}
  (Portkey with the stall); their "calls 11–100" are calls 11–${short.down}${stall.down === short.down ? "" : ` (11–${stall.down})`}.
- **hfkit, health**: \`new InferenceClient(token, { fetch, health: { cooldown: ${r.cooldownMs} } })\` (the other
  health options at their defaults: \`threshold\` 3 within a \`window\` of 60 s), then
  \`client.chatCompletionStream({ model, provider: ["${A}", "${B}"], messages }, { firstChunkTimeout: ${r.limitMs} })\`.
  The cooldown is short (the default is 30 s) so that the recovery is seen within the run. While \`a\` is down, each
  probe after a cooldown waits out the limit once; a recovery just after a probe was sent is seen at worst the limit
  plus one cooldown later (plus the wait for the next call). The run's moves, as \`onFailover\` told them:
  ${moves.join(", ")}.
${item(breakerStory(r, health))}
${lateNote(r, health)}- **hfkit, \`health: false\`**: the same calls with \`health: false\`: every call tries \`a\` first and waits out
  its first-chunk limit while it is down.
- **Portkey gateway, fallback**: its bin (\`build/start-server.js --port=0 --headless\`, as in the failover section
  above) in a child process, called by \`openai\` (\`maxRetries: 0\`) with \`stream: true\` and this
  \`x-portkey-config\` (\`<hub>\`: the mock hub; who served is its \`x-portkey-last-used-option-index\` header):

\`\`\`json
${json(r.portkeyConfig)}
\`\`\`

- **Portkey does not move on from a stall after the headers**: its \`request_timeout\` bounds the wait for a target's
  headers only, and it has no limit on the time to a first chunk (${stall.paidLimit}/${stall.down} calls gave up at
  ${s(r.giveUpMs)} with no token). Its second run is the failure its fallback does handle: \`a\` holds its headers
  (\`{ type: "headersDelay", delayMs: 30000 }\` instead of the stall), \`request_timeout\` answers 408 after
  ${s(r.limitMs)}, and the gateway moves to \`b\` (${held.paidLimit}/${held.down} calls paid it).
- **Portkey's circuit breaker is not in its open-source gateway.** Portkey documents a circuit breaker (\`cb_config\`:
  \`failure_threshold\`, \`failure_threshold_percentage\`, \`cooldown_interval\` of 30 s at least,
  \`failure_status_codes\`, \`minimum_requests\`) for its hosted gateway. The open-source build ${v.portkey}
  (\`build/start-server.js\`) carries the hook points only: for a config with an \`id\` it drops the targets whose
  \`isOpen\` is set, and after a strategy it calls a \`handleCircuitBreakerResponse\` it looks up in the request's
  context. Nothing in the build sets either, and no code reads \`failure_threshold\`, \`cooldown_interval\` or
  \`minimum_requests\` (\`cb_config\` is renamed \`cbConfig\` and passed along). The config above carries
  \`cb_config\` and an \`id\` all the same: the gateway takes them without complaint and sent ${held.requestsToA}
  requests to \`a\` in the ${held.down} calls it was down. What runs is Portkey's fallback alone.

### 2. A heavy-tailed first token

${tailTable(r)}

- **The scenario**: \`provider: ["${A}", "${B}"]\` on \`${HEAVY}\`. Before its first event \`a\` waits a
  log-normal draw with p99 = 10 × p50:
  \`hub.inject(${fault(r.tailFault)}, { model, provider: "${A}" })\`.
  The n-th request to \`a\` waits the n-th draw of the seed, so every run sees the same draws; \`b\` answers at once.
  ${r.tailCalls} sequential calls per setting; each setting is a child process of its own, all ${r.tail.length} at
  the same time. Without a hedge every call is \`a\`'s: that row is \`a\`'s first token as the client sees it (the draw,
  plus the client's and the hub's few ms; its p99 is ${(none.p99 / none.p50).toFixed(1)} × its p50 over these calls).
- **The client**: \`new InferenceClient(token, { fetch, hedge: { afterMs } })\` and the stream call above: when \`a\`
  has given no first token after \`afterMs\`, \`b\` starts too; the first token wins and the other try is aborted.
  "Hedges started" and "won by \`b\`" are \`onHealth\`'s \`hedge\` events; requests are the mock hub's
  (\`hub.requests\`, by provider): a hedge whose \`a\` answers at once may be aborted before its request is sent.
  ${breakers(r)}
${item(`**A hedge's own time**: a call \`b\` wins gets its first token \`afterMs\` plus \`b\`'s time to it after the hedge starts (${afterHedgeText(r)}): a few ms on an idle machine, more on this shared one. It is what separates the hedged p99 from \`afterMs\`, and it moves with the machine's load from one run to the next. ${margin(r)}`)}
- **\`afterMs\`**: ${r.hedgeChosen} ms is near \`a\`'s p92 (from its parameters: p90 ≈ 177 ms, p95 ≈ 255 ms), so that
  about one call in twelve hedges; ${others.join(" and ")} show the trade-off: an earlier hedge cuts the tail further
  and sends more. Each extra request sends the prompt a second time, and the losing provider may bill its input
  tokens (see [Hedged first tokens](health.md#hedged-first-tokens)).

Run this section alone with \`node packages/bench/src/routing.mjs\` (about ${r.quick ? "a minute and a half" : "two and a half minutes"};
\`--quick\`: shorter runs and 200 calls per hedge setting); it rewrites only what is between its markers. Build
\`@hfkit/inference\` and \`@hfkit/mock-hub\` first.
${END}`;
}

/** `doc` with the section replaced between its markers, or put after the failover section (else before "## Running"). */
export function withRoutingSection(doc, section) {
  return withSection(doc, section, BEGIN, END, "<!-- failover:end -->");
}

/** Rewrites the section of docs/benchmarks.md; answers the path. */
export function updateRoutingDocs(r, path = DOCS) {
  writeDoc(path, withRoutingSection(readFileSync(path, "utf8"), routingSection(r)));
  return path;
}
