/**
 * withTelemetry() fed events by hand, where a real call cannot reach: a loading wait, an attempt reported longer than
 * the call has run, events after a call's end, two calls interleaved event by event.
 */
import type { CallEvent } from "@hfkit/inference";
import { describe, expect, it } from "vitest";
import { ms, record } from "./helpers";

const start = (call: number, model: string, time = Date.now()): CallEvent => ({
  type: "start",
  call,
  operation: "chat",
  model,
  stream: false,
  parameters: {},
  time,
});
const attempt = (call: number, durationMs = 1, status = 200): CallEvent => ({
  type: "attempt",
  call,
  attempt: 1,
  status,
  durationMs,
  host: "router.huggingface.co",
});
const end = (call: number, durationMs = 5): CallEvent => ({
  type: "end",
  call,
  durationMs,
  chunks: 1,
  finishReasons: ["stop"],
  attempts: 1,
});

describe("events by hand", () => {
  it("a loading wait: the retry event carries the server's estimate, in ms", () => {
    const r = record();
    r.observe(start(1, "m"));
    r.observe({
      type: "retry",
      call: 1,
      attempt: 1,
      reason: "loading",
      delayMs: 1000,
      status: 503,
      estimatedTime: 12.5,
    });
    r.observe(end(1));
    expect(r.calls()[0]?.events.map((e) => e.attributes)).toEqual([
      {
        "hfkit.retry.attempt": 1,
        "hfkit.retry.reason": "loading",
        "hfkit.retry.delay_ms": 1000,
        "http.response.status_code": 503,
        "hfkit.retry.loading_estimate_ms": 12500,
      },
    ]);
  });

  it("an attempt never starts before its call", () => {
    const r = record();
    r.observe(start(1, "m"));
    r.observe(attempt(1, 60_000));
    r.observe(end(1));
    const [call] = r.calls();
    const [first] = r.attemptsOf(call!);
    expect(ms(first!.startTime)).toBe(ms(call!.startTime));
  });

  it("a call is forgotten at its end: a late event records nothing", async () => {
    const r = record();
    r.observe(start(1, "m"));
    r.observe(end(1));
    r.observe(attempt(1));
    r.observe(end(1));
    expect(r.spans()).toHaveLength(1);
    const [duration] = await r.points("gen_ai.client.operation.duration");
    expect(duration?.value.count).toBe(1);
  });

  it("two calls interleaved: each event goes to its own call's span", () => {
    const r = record();
    const t = Date.now();
    for (const event of [
      start(1, "a", t),
      start(2, "b", t + 1),
      attempt(2, 1, 500),
      attempt(1),
      end(2, 30),
      end(1, 50),
    ])
      r.observe(event);
    const byName = new Map(r.calls().map((c) => [c.name, c]));
    expect([...byName.keys()].sort()).toEqual(["chat a", "chat b"]);
    expect(r.attemptsOf(byName.get("chat a")!).map((a) => a.attributes["http.response.status_code"])).toEqual([200]);
    expect(r.attemptsOf(byName.get("chat b")!).map((a) => a.attributes["http.response.status_code"])).toEqual([500]);
    expect(ms(byName.get("chat a")!.endTime)).toBeCloseTo(t + 50, 3);
    expect(ms(byName.get("chat b")!.endTime)).toBeCloseTo(t + 31, 3);
  });
});
