/**
 * A failover's health in OpenTelemetry, fed by hand as hfkit tells it: a breaker's change and a hedge are events on
 * their call's span and counts of `hfkit.health.changes`; an event of a call not open (or already ended) is counted only.
 */
import type { CallEvent } from "@hfkit/inference";
import { expect, it } from "vitest";
import { record } from "./helpers";

const start: CallEvent = {
  type: "start",
  call: 1,
  operation: "chat",
  model: "m",
  stream: true,
  parameters: {},
  time: Date.now(),
};
const end: CallEvent = { type: "end", call: 1, durationMs: 5, chunks: 1, finishReasons: ["stop"], attempts: 1 };
const breaker = {
  type: "breaker",
  call: 1,
  target: "m:a",
  state: "open",
  failures: 3,
  cooldownMs: 30_000,
} as unknown as CallEvent;
const hedge = { type: "hedge", call: 1, from: "m:a", to: "m:b" } as unknown as CallEvent;
const won = { type: "hedge", call: 1, from: "m:a", to: "m:b", winner: "m:b" } as unknown as CallEvent;

it("a breaker's change and a hedge are span events of their call, with their attributes", () => {
  const r = record();
  for (const e of [start, breaker, hedge, won, end]) r.observe(e);
  const [call] = r.calls();
  expect(call?.events.map((e) => [e.name, e.attributes])).toEqual([
    [
      "hfkit.breaker",
      {
        "hfkit.breaker.target": "m:a",
        "hfkit.breaker.state": "open",
        "hfkit.breaker.failures": 3,
        "hfkit.breaker.cooldown_ms": 30_000,
      },
    ],
    ["hfkit.hedge", { "hfkit.hedge.from": "m:a", "hfkit.hedge.to": "m:b" }],
    ["hfkit.hedge", { "hfkit.hedge.from": "m:a", "hfkit.hedge.to": "m:b", "hfkit.hedge.winner": "m:b" }],
  ]);
});

it("each is counted in hfkit.health.changes by what changed and the target", async () => {
  const r = record();
  for (const e of [start, breaker, hedge, won, end, breaker]) r.observe(e);
  const points = (await r.points("hfkit.health.changes")) as unknown as Array<{
    attributes: Record<string, unknown>;
    value: number;
  }>;
  const counts = Object.fromEntries(
    points.map((p) => [
      `${String(p.attributes["hfkit.health.change"])} ${String(p.attributes["hfkit.target"])}`,
      p.value,
    ]),
  );
  expect(counts).toEqual({ "open m:a": 2, "hedge-started m:b": 1, "hedge-won m:b": 1 });
  expect(r.spans()).toHaveLength(1);
});
