import { expect, it } from "vitest";
import { hfkit, useHub } from "./run";

const hub = useHub();

const MODEL = "hfkit/tgi-3.2";
const chat = (...args: string[]) => hfkit(["chat", "--base-url", hub().url, "-m", MODEL, ...args]);

it("--json streams one JSON chunk per line (NDJSON); --json --no-stream prints the whole ChatCompletionOutput", async () => {
  const ndjson = await chat("--json", "hi");
  expect(ndjson.code).toBe(0);
  const chunks = ndjson.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(chunks.length).toBeGreaterThan(3);
  expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("The capital of France is Paris.");
  expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");

  const whole = await chat("--json", "--no-stream", "hi");
  expect(whole.code).toBe(0);
  expect(whole.stdout.endsWith("}\n")).toBe(true);
  expect(whole.stdout.trimEnd().split("\n")).toHaveLength(1);
  expect(JSON.parse(whole.stdout)).toMatchObject({
    object: "chat.completion",
    choices: [{ message: { content: "The capital of France is Paris." } }],
  });
  expect(hub().requests.at(-1)?.body).toMatchObject({ stream: false });

  const text = await chat("--no-stream", "hi");
  expect(text.stdout).toBe("The capital of France is Paris.\n");
});

it("-m, --top-p, --stop (repeatable) and --seed reach the request", async () => {
  const run = await chat("--top-p", "0.5", "--stop", "END", "--stop", "STOP", "--seed", "7", "hi");
  expect(run.code).toBe(0);
  expect(hub().requests.at(-1)?.body).toMatchObject({ model: MODEL, top_p: 0.5, stop: ["END", "STOP"], seed: 7 });
});

it("out-of-range numbers are usage errors (exit 2) naming the flag and the allowed range; nothing is sent", async () => {
  const cases: [string[], RegExp][] = [
    [["--max-tokens", "-1"], /^hfkit: --max-tokens must be a whole number >= 1 \(got "-1"\)\n$/],
    [["--max-tokens", "0"], /^hfkit: --max-tokens must be a whole number >= 1 \(got "0"\)\n$/],
    [["--max-tokens=-5"], /--max-tokens must be a whole number >= 1 \(got "-5"\)/],
    [["--temperature", "-1"], /^hfkit: --temperature must be a number >= 0 \(got "-1"\)\n$/],
    [["--top-p", "1.5"], /--top-p must be a number from 0 to 1 \(got "1.5"\)/],
    [["--seed", "-.5"], /--seed must be a whole number from 0 to \d+ \(got "-.5"\)/],
    [["--timeout", "0"], /--timeout must be a number >= 1 \(got "0"\)/],
  ];
  for (const [args, message] of cases) {
    const run = await chat(...args, "hi");
    expect(run.code, args.join(" ")).toBe(2);
    expect(run.stderr, args.join(" ")).toMatch(message);
  }
  expect(hub().requests).toHaveLength(0);
});

it("--provider other than hf-inference with --base-url or --endpoint is a usage error", async () => {
  const run = await chat("--provider", "bogus", "hi");
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^hfkit: --provider bogus does not combine with --base-url: .*drop --provider\n$/);
  const endpoint = await hfkit(["chat", "--endpoint", hub().url, "--provider", "together", "hi"]);
  expect(endpoint.code).toBe(2);
  expect(endpoint.stderr).toMatch(/--provider together does not combine with --endpoint/);
  expect(hub().requests).toHaveLength(0);
  expect((await chat("--provider", "hf-inference", "hi")).code).toBe(0);
});

it("a mistyped option is named in the CLI's own words, with the nearest one the command has; exit 2, nothing sent", async () => {
  const typo = await hfkit(["chat", "--modle", "hfkit/tgi-3.2", "hi"]);
  expect(typo.code).toBe(2);
  expect(typo.stderr).toBe("hfkit: unknown option --modle: did you mean --model? (hfkit chat --help lists them)\n");
  const swapped = await hfkit(["chat", "--tempreature", "1", "hi"]);
  expect(swapped.stderr).toMatch(/unknown option --tempreature: did you mean --temperature\?/);
  const far = await hfkit(["chat", "--frobnicate", "hi"]);
  expect(far.stderr).toBe("hfkit: unknown option --frobnicate (hfkit chat --help lists them)\n");
  const missing = await hfkit(["chat", "-m"]);
  expect(missing.stderr).toBe("hfkit: --model needs a value\n");
  const valued = await hfkit(["chat", "--json=yes", "hi"]);
  expect(valued.stderr).toBe("hfkit: --json takes no value\n");
  const proxy = await hfkit(["proxy", "--targt", "http://127.0.0.1:1"]);
  expect(proxy.stderr).toMatch(/unknown option --targt: did you mean --target\?/);
  for (const run of [typo, swapped, far, missing, valued, proxy])
    expect(run.stderr).not.toMatch(/To specify a positional|'--/);
});
