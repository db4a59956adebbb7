/**
 * `hfkit chat` with no HF_TOKEN (unset, or set blank) and a named provider: against the mock hub (the variables
 * `hfkit mock-hub` prints) it answers; against a server that needs a token, one line naming HF_TOKEN once.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { hfkit } from "./run";

const TEXT = "The capital of France is Paris.\n";
let hub: MockHub;
let env: Record<string, string>;
beforeAll(async () => {
  hub = await startMockHub();
  env = { HF_ENDPOINT: hub.url, HF_INFERENCE_ENDPOINT: hub.url };
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());

it("answers with a provider list, or one provider, and HF_TOKEN unset or blank; no Authorization sent", async () => {
  const runs = [
    { args: ["--provider", "together,novita"], env },
    { args: ["--provider", "together"], env },
    { args: ["--provider", "novita"], env: { ...env, HF_TOKEN: "" } },
    { args: ["--provider", "together,novita"], env: { ...env, HF_TOKEN: "  " } },
  ];
  for (const run of runs) {
    const result = await hfkit(["chat", "-m", "hfkit/router-multi", ...run.args, "Hi"], { env: run.env });
    expect(result, run.args.join(" ")).toMatchObject({ code: 0, stdout: TEXT });
    expect(result.stderr, run.args.join(" ")).not.toMatch(/error|token/i);
  }
  expect(hub.requests.filter((r) => r.method === "POST").map((r) => r.headers.authorization)).toEqual(
    Array(4).fill(undefined),
  );
  expect(hub.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
});

it("a server that needs a token: one line, naming HF_TOKEN once", async () => {
  hub.inject({ type: "unauthorized" }, { model: "hfkit/router-multi" });
  const run = await hfkit(["chat", "-m", "hfkit/router-multi", "--provider", "together", "Hi"], { env });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^hfkit: AuthenticationError: .*No token was sent: set HF_TOKEN .*\n$/);
  expect(run.stderr.match(/HF_TOKEN/g)).toHaveLength(1);
});
