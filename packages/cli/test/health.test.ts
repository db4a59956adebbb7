/**
 * `hfkit chat --sort`, `--explore`, `--max-price`, `--hedge-after` and `--no-health` against the mock hub as the HF router: what
 * reached each provider (`hub.requests`), what stderr says, and the usage errors (exit 2, nothing sent).
 */
import { expect, it } from "vitest";
import { Child, hfkit, poll, useHub } from "./run";

const hub = useHub();

const MODEL = "hfkit/router-multi";
const ANSWER = "The capital of France is Paris.";
const TOKEN = { HF_TOKEN: "hf_cli_health" };
const onRouter = (...args: string[]) =>
  hfkit(["chat", "--router-url", hub().url, "-m", MODEL, ...args], { env: TOKEN });
/** The providers the chat requests reached, in order. */
const reached = () =>
  hub()
    .requests.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"))
    .map((r) => r.provider);

it("--max-price 0.7 skips novita (output $0.8 in the catalog) without a request, and says so", async () => {
  const run = await onRouter("--provider", "novita,together", "--max-price", "0.7", "hi");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${ANSWER}\n`);
  expect(run.stderr).toMatch(/^hfkit\/router-multi:novita skipped \(price\); trying hfkit\/router-multi:together\n/);
  expect(run.stderr).toMatch(/served by together \(hfkit\/router-multi\)\n$/);
  expect(reached()).toEqual(["together"]);
});

it("--sort price tries the cheapest in the catalog first: novita ($0.2 + $0.8) before together ($0.6 + $0.6)", async () => {
  const run = await onRouter("--provider", "together,novita", "--sort", "price", "--explore", "0", "hi");
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(/served by novita \(hfkit\/router-multi\)\n$/);
  expect(reached()).toEqual(["novita"]);
});

it("--explore 1 puts the other candidate first on every call: together before the cheaper novita", async () => {
  for (let i = 0; i < 2; i++) {
    const run = await onRouter("--provider", "together,novita", "--sort", "price", "--explore", "1", "hi");
    expect(run.stderr).toMatch(/served by together \(hfkit\/router-multi\)\n$/);
  }
  expect(reached()).toEqual(["together", "together"]);
});

it("--hedge-after: together silent past it gets novita started beside it; novita's answer, together's stream closed", async () => {
  hub().inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "together" });
  const run = await onRouter("--provider", "together,novita", "--hedge-after", "100", "hi");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${ANSWER}\n`);
  expect(run.stderr).toBe(
    "hfkit/router-multi:novita started beside hfkit/router-multi:together (hedge)\n" +
      "served by novita (hfkit/router-multi, won a hedge over hfkit/router-multi:together)\n",
  );
  expect(reached()).toEqual(["together", "novita"]);
  expect(await poll(() => hub().openStreams() === 0)).toBe(true);
});

/** A conversation over [together, novita] with `flags`; together fails every time; four turns. */
async function fourTurns(...flags: string[]): Promise<Child> {
  hub().inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
  const args = ["chat", "--router-url", hub().url, "-m", MODEL, "--provider", "together,novita", "-i", ...flags];
  const child = new Child(args, TOKEN);
  const prompts = () => child.stdout.split("> ").length - 1;
  for (let turn = 1; turn <= 4; turn++) {
    await child.until(() => prompts() === turn);
    child.write("hi\n");
  }
  await child.until(() => prompts() === 5);
  child.write("/exit\n");
  expect((await child.exited).code).toBe(0);
  return child;
}

it("in a conversation, three failures open together's breaker: the fourth turn sends it nothing, and stderr says why", async () => {
  const child = await fourTurns();
  expect(reached()).toEqual(["together", "novita", "together", "novita", "together", "novita", "novita"]);
  expect(child.stderr).toContain(
    "hfkit/router-multi:together skipped for 30 s (breaker open: 3 failures)\n" +
      "hfkit/router-multi:together failed (overloaded); trying hfkit/router-multi:novita\n",
  );
  expect(child.stderr).toContain(
    "hfkit/router-multi:together skipped (circuit-open); trying hfkit/router-multi:novita\n",
  );
});

it("--no-health: every turn tries together first", async () => {
  const child = await fourTurns("--no-health");
  expect(reached().filter((p) => p === "together")).toHaveLength(4);
  expect(child.stderr).not.toContain("breaker");
  expect(child.stderr).not.toContain("circuit-open");
});

it.each([
  [["--sort", "fastest"], '--sort must be latency, throughput or price (got "fastest")'],
  [["--max-price", "-1"], '--max-price must be a number >= 0 (got "-1")'],
  [["--max-price", "cheap"], '--max-price must be a number >= 0 (got "cheap")'],
  [["--hedge-after", "0"], '--hedge-after must be a number from 1 to 600000 (got "0")'],
  [["--hedge-after", "600001"], '--hedge-after must be a number from 1 to 600000 (got "600001")'],
  [["--sort", "price", "--explore", "2"], '--explore must be a number from 0 to 1 (got "2")'],
  [["--explore", "0.5"], "--explore goes with --sort"],
])("%j is bad usage (exit 2), nothing sent", async (flags, message) => {
  const run = await onRouter("--provider", "together,novita", ...flags, "hi");
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(message);
  expect(hub().requests).toEqual([]);
});

it.each([["--sort", "latency"], ["--explore", "0"], ["--max-price", "1"], ["--hedge-after", "500"], ["--no-health"]])(
  "%s without a provider list or --fallback-model is bad usage: nothing fails over",
  async (...flags) => {
    const run = await onRouter("--provider", "together", ...flags, "hi");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${flags[0]} is for a call that fails over: give --provider a list`);
    expect(hub().requests).toEqual([]);
  },
);

it("with --fallback-model instead of a provider list, --sort is taken", async () => {
  const run = await onRouter("--fallback-model", "hfkit/tgi-3.2", "--sort", "latency", "hi");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${ANSWER}\n`);
});

it("--help lists the routing flags", async () => {
  const help = (await hfkit(["chat", "--help"])).stdout;
  for (const flag of ["--sort S", "--explore P", "--max-price N", "--hedge-after MS", "--no-health"])
    expect(help).toContain(flag);
});
