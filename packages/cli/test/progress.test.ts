import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { Progress } from "../src/progress";

function terminal() {
  const stream = Object.assign(new PassThrough(), { isTTY: true });
  let text = "";
  stream.setEncoding("utf8").on("data", (c: string) => (text += c));
  return { stream, text: () => text };
}

it("on a terminal: one spinner line with the estimate, redrawn in place, cleared at the first token", async () => {
  const t = terminal();
  const progress = new Progress(t.stream, "org/model");
  progress.onRetry({ attempt: 2, delayMs: 40_000, status: 503, reason: "loading", estimatedTime: 39.5 });
  await new Promise((r) => setTimeout(r, 250));
  progress.clear();
  const out = t.text();
  expect(out).toContain("Model org/model is loading (about 40 s)");
  expect(out).not.toContain("\n");
  expect(out.split("\r\x1b[K").length).toBeGreaterThan(2);
  expect(out.endsWith("\r\x1b[K")).toBe(true);
  const after = out.length;
  await new Promise((r) => setTimeout(r, 150));
  expect(t.text().length).toBe(after);
});

it("other retries say why and how long", () => {
  const t = terminal();
  const progress = new Progress(t.stream, "m");
  progress.onRetry({ attempt: 2, delayMs: 1200, status: 429, reason: "rate-limit" });
  progress.clear();
  expect(t.text()).toContain("Retrying in 1.2 s (rate-limit, HTTP 429)");
});
