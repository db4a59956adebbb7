import { expect, it } from "vitest";
import { Child, poll, useHub } from "./run";

const hub = useHub();

const MODEL = "hfkit/tgi-3.2";
const chat = (...args: string[]) => new Child(["chat", "--base-url", hub().url, "-m", MODEL, ...args]);

/** Sends Ctrl-C; answers the exit code and how long the process took to exit after it. */
async function interrupt(child: Child): Promise<{ code: number | null; ms: number }> {
  const sent = performance.now();
  child.process.kill("SIGINT");
  const { code, at } = await child.exited;
  return { code, ms: at - sent };
}

it("Ctrl-C on a stalled stream aborts the request and exits 130 at once; the server sees the socket closed", async () => {
  hub().inject({ type: "stall", afterChunks: 2 }, { model: MODEL });
  const child = chat("hi");
  await child.until(() => child.stdout.length > 0);
  expect(hub().openStreams()).toBe(1);
  const { code, ms } = await interrupt(child);
  console.log(`Ctrl-C to exit, stalled stream: ${ms.toFixed(0)} ms`);
  expect(code).toBe(130);
  // The stream never resumes: an exit at all is the proof it did not wait (no bound on speed).
  expect(child.stdout).toBe("The capital\n");
  expect(child.stderr).toMatch(/\(answer interrupted\)\n$/); // the partial answer is marked as one
  expect(await poll(() => hub().openStreams() === 0)).toBe(true);
});

it("Ctrl-C during a slow answer stops printing it and exits 130", async () => {
  hub().inject({ type: "slow", delayMs: 500 }, { model: MODEL });
  const child = chat("hi");
  await child.until(() => child.stdout.length > 0);
  const { code, ms } = await interrupt(child);
  console.log(`Ctrl-C to exit, slow stream: ${ms.toFixed(0)} ms`);
  expect(code).toBe(130);
  expect(child.stdout).not.toContain("Paris"); // the rest of the answer was not waited for
  expect(await poll(() => hub().openStreams() === 0)).toBe(true);
});

it("Ctrl-C while waiting for a model to load exits 130 at once", async () => {
  hub().inject({ type: "loading", estimatedTime: 30 }, { model: MODEL });
  const child = chat("hi");
  await child.until(() => child.stderr.includes("is loading"));
  const { code, ms } = await interrupt(child);
  console.log(`Ctrl-C to exit, loading wait: ${ms.toFixed(0)} ms`);
  expect(code).toBe(130);
  expect(ms).toBeLessThan(30_000); // a hang bound: the 30 s load was not waited out
  expect(child.stdout).toBe("");
});
