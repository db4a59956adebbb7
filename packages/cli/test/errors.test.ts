import { createServer, type Server } from "node:net";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { hfkit } from "./run";

let hub: MockHub;
let taken: Server;
let port: number;
beforeAll(async () => {
  hub = await startMockHub();
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => taken.close(resolve));
});
beforeEach(() => hub.reset());

const MODEL = "hfkit/tgi-3.2";
const ESC = "\x1b[";

it("a port in use is one line naming the port and --port (exit 1, no stack), for proxy and mock-hub", async () => {
  for (const args of [
    ["proxy", "--target", hub.url, "--port", String(port)],
    ["mock-hub", "--port", String(port)],
  ]) {
    const run = await hfkit(args);
    expect(run.code, args[0]).toBe(1);
    expect(run.stderr, args[0]).toBe(`hfkit: port ${port} is in use (EADDRINUSE); choose another with --port\n`);
  }
});

it("a 401 adds a hint about HF_TOKEN", async () => {
  hub.inject({ type: "unauthorized" }, { model: MODEL });
  const none = await hfkit(["chat", "--base-url", hub.url, "-m", MODEL, "hi"]);
  expect(none.code).toBe(1);
  expect(none.stderr).toMatch(
    /^hfkit: AuthenticationError: .*set HF_TOKEN to a token from https:\/\/huggingface\.co\/settings\/tokens\. \(HTTP 401.*\)\n$/,
  );
  expect(none.stderr.match(/HF_TOKEN/g)).toHaveLength(1);
  const refused = await hfkit(["chat", "--base-url", hub.url, "-m", MODEL, "hi"], { env: { HF_TOKEN: "hf_refused" } });
  expect(refused.stderr).toMatch(
    /^hfkit: AuthenticationError: .*; HF_TOKEN was refused: check it, or make a new one at https:\/\/huggingface\.co\/settings\/tokens\n$/,
  );
  expect(refused.stderr).not.toContain("hf_refused");
});

it("a model loading for longer than --timeout says so and which flag to raise", async () => {
  // The estimate alone exceeds the deadline: the call fails at once.
  hub.inject({ type: "loading", estimatedTime: 30 }, { model: MODEL });
  const run = await hfkit(["chat", "--base-url", hub.url, "-m", MODEL, "--timeout", "1000", "hi"]);
  expect(run.code).toBe(1);
  expect(run.stderr.split("\n")).toHaveLength(2);
  expect(run.stderr).toMatch(
    /^hfkit: ModelLoadingError: .*; its estimated loading time \(about 30 s\) exceeds --timeout 1000 ms: raise --timeout/,
  );

  // A short estimate, a long load: the deadline fires while the hub holds the retry (room for a slow start).
  hub.reset();
  hub.inject({ type: "loading", estimatedTime: 0.2, durationMs: 60_000 }, { model: MODEL });
  const waited = await hfkit(["chat", "--base-url", hub.url, "-m", MODEL, "--timeout", "5000", "hi"]);
  expect(waited.code).toBe(1);
  expect(waited.stderr).toMatch(/^Model hfkit\/tgi-3\.2 is loading \(about 0 s\)\.\.\.\n/);
  expect(waited.stderr).toMatch(
    /\nhfkit: TimeoutError: .*; the model was still loading when --timeout 5000 ms ran out: raise --timeout\n$/,
  );
}, 30_000);

it("colour only when asked for off a terminal: FORCE_COLOR colours the error line, NO_COLOR keeps it plain", async () => {
  const args = ["chat", "--base-url", hub.url, "-m", "org/does-not-exist", "hi"];
  const plain = await hfkit(args);
  expect(plain.stderr).not.toContain(ESC);
  const forced = await hfkit(args, { env: { FORCE_COLOR: "1" } });
  expect(forced.code).toBe(1);
  expect(forced.stderr).toContain(`${ESC}31mhfkit:`);
  // Without its colour codes (ESC [ N m) and the request id, the line is the plain one.
  const same = (text: string) =>
    text
      .split(ESC)
      .map((part, i) => (i === 0 ? part : part.replace(/^\d+m/, "")))
      .join("")
      .replace(/mock-\d+/, "mock-N");
  expect(same(forced.stderr)).toBe(same(plain.stderr));
  const no = await hfkit(args, { env: { NO_COLOR: "1", FORCE_COLOR: "1" } });
  expect(no.stderr).not.toContain(ESC);
  expect((await hfkit(["nope"], { env: { FORCE_COLOR: "1" } })).stderr).toContain(ESC);
  expect((await hfkit(["nope"], { env: { FORCE_COLOR: "0" } })).stderr).not.toContain(ESC);
});
