import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { CLI, hfkit, useHub } from "./run";

const hub = useHub();

const MODEL = "hfkit/router-multi";
const onRouter = (...args: string[]) =>
  hfkit(["chat", "--router-url", hub().url, "-m", MODEL, ...args], { env: { HF_TOKEN: "hf_cli_failover" } });
const chats = () =>
  hub()
    .requests.filter((r) => r.method === "POST")
    .map((r) => (r.body as { model: string }).model);

it("--provider a,b tries the providers in order before the first token, says each move and who served", async () => {
  hub().inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
  const run = await onRouter("--provider", "together,novita", "hi");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("The capital of France is Paris.\n");
  expect(run.stderr).toMatch(
    /hfkit\/router-multi:together failed \(server-error\); trying hfkit\/router-multi:novita\n/,
  );
  // A stream without usage (no include_usage) has no cost to say.
  expect(run.stderr).toMatch(/served by novita \(hfkit\/router-multi\)\n$/);
  expect(chats()).toEqual([`${MODEL}:together`, `${MODEL}:novita`]);
});

it("--fallback-model (repeatable) is tried after the main model; --no-stream too", async () => {
  hub().inject(
    { type: "serverError", status: 503, body: '{"error":"overloaded"}', contentType: "application/json" },
    { model: MODEL, times: 1 },
  );
  const run = await onRouter(
    "--no-stream",
    "--fallback-model",
    "hfkit/tgi-3.2",
    "--fallback-model",
    "hfkit/tgi-2.0",
    "hi",
  );
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("The capital of France is Paris.\n");
  expect(run.stderr).toMatch(/hfkit\/router-multi:auto failed \(overloaded\); trying hfkit\/tgi-3\.2:auto\n/);
  expect(run.stderr).toMatch(/served by hf-inference \(hfkit\/tgi-3\.2, about \$[\d.e-]+\)\n$/);
  expect(chats()).toEqual([MODEL, "hfkit/tgi-3.2"]);
});

it("an empty provider name in --provider is bad usage, nothing sent", async () => {
  const bad = await onRouter("--provider", "together,,novita", "hi");
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--provider together,,novita: a provider's name is empty/);
  expect(chats()).toEqual([]);
});

it("a provider list does not combine with --endpoint or --base-url", async () => {
  const run = await hfkit(["chat", "--endpoint", hub().url, "--provider", "auto,hf-inference", "hi"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/--provider auto,hf-inference does not combine with --endpoint/);
});

it("every candidate failing is one error naming each, a non-zero exit", async () => {
  hub().inject({ type: "serverError", status: 502 }, { model: MODEL });
  const run = await onRouter("--provider", "together,novita", "hi");
  expect(run.code).not.toBe(0);
  expect(run.stderr).toMatch(
    /Every candidate failed: hfkit\/router-multi:together server-error .*hfkit\/router-multi:novita server-error/,
  );
  expect(run.stdout).toBe("");
});

it("hfkit proxy --provider a,b --router-url: requests that name no provider fail over; the answer names who served", async () => {
  const child = spawn(
    process.execPath,
    [
      CLI,
      "proxy",
      "--target",
      "https://router.huggingface.co",
      "--router-url",
      hub().url,
      "--provider",
      "together,novita",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    const url = await new Promise<string>((resolve) =>
      child.stdout.setEncoding("utf8").once("data", (c: string) => resolve(c.trim())),
    );
    hub().inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer hf_cli_proxy" },
      body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.headers.get("x-inference-provider")).toBe("novita");
    expect(
      ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content,
    ).toBe("The capital of France is Paris.");
    expect(chats()).toEqual([`${MODEL}:together`, `${MODEL}:novita`]);
  } finally {
    const exited = new Promise((resolve) => child.on("close", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

it("hfkit proxy: an empty provider name or a router URL that is not http(s) is bad usage", async () => {
  expect((await hfkit(["proxy", "--target", hub().url, "--provider", "a,"])).code).toBe(2);
  const bad = await hfkit(["proxy", "--target", hub().url, "--router-url", "ftp://x"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--router-url ftp:\/\/x: an http:\/\/ or https:\/\/ URL/);
});

it("--stats: after the answer, its time to first token, tokens/s, tokens, attempts and the provider that served it", async () => {
  hub().inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
  const run = await onRouter("--stats", "--provider", "together,novita", "hi");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("The capital of France is Paris.\n");
  expect(run.stderr).toMatch(
    /\nfirst token \d+ ms · [\d.]+ tokens\/s · \d+ in, \d+ out · \d+ ms in all · 2 attempts · served by novita\n$/,
  );
  // The stream asked for its usage, so the count is the server's.
  expect(
    hub()
      .requests.filter((r) => r.method === "POST")
      .map((r) => (r.body as { stream_options?: unknown }).stream_options),
  ).toEqual([{ include_usage: true }, { include_usage: true }]);
  const whole = await onRouter("--stats", "--no-stream", "hi");
  expect(whole.stderr).toMatch(/^first token \d+ ms · \d+ in, \d+ out · \d+ ms in all · served by together\n$/);
});
