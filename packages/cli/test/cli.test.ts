import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let hub: MockHub;

beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hfkit(
  args: string[],
  { stdin, env = {} }: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

describe("hfkit chat", () => {
  it("refuses an endpoint URL with user:password@ (exit 2) without printing the credential, even with --verbose", async () => {
    const secret = "hf_CliSecret0123456789abcdef";
    const endpoint = hub.url.replace("http://", `http://someone:${secret}@`);
    const run = await hfkit(["chat", "--endpoint", endpoint, "--verbose", "Hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/InputError: `endpointUrl` must not carry `user:password@`/);
    expect(run.stderr + run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain("someone");
    expect(hub.requests).toHaveLength(0);
  });

  it("streams the answer to stdout", async () => {
    const run = await hfkit([
      "chat",
      "--base-url",
      hub.url,
      "--model",
      "hfkit/tgi-3.2",
      "What is the capital of France?",
    ]);
    expect(run).toMatchObject({ code: 0, stdout: "The capital of France is Paris.\n", stderr: "" });
  });

  it("reads the prompt from stdin, sends the system message, max tokens and temperature", async () => {
    const run = await hfkit(
      [
        "chat",
        "--base-url",
        hub.url,
        "--model",
        "hfkit/tgi-3.2",
        "--system",
        "Be brief",
        "--max-tokens",
        "2",
        "--temperature",
        "0",
      ],
      { stdin: "Capital of France?\n" },
    );
    expect(run.stdout).toBe("The capital\n");
    expect(hub.requests.at(-1)?.body).toMatchObject({
      messages: [
        { role: "system", content: "Be brief" },
        { role: "user", content: "Capital of France?" },
      ],
      max_tokens: 2,
      temperature: 0,
    });
  });

  it("takes the token from HF_TOKEN only; without one, no Authorization", async () => {
    await hfkit(["chat", "--base-url", hub.url, "--model", "hfkit/tgi-3.2", "hi"], { env: { HF_TOKEN: "hf_env" } });
    expect(hub.requests.at(-1)?.headers.authorization).toBe("Bearer hf_env");
    await hfkit(["chat", "--base-url", hub.url, "--model", "hfkit/tgi-3.2", "hi"]);
    expect(hub.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it("shows loading progress on stderr (plain lines when not a terminal), then the answer", async () => {
    // Loading for one request, however long the process takes to start.
    hub.inject({ type: "loading", estimatedTime: 0.3, durationMs: 60_000 }, { model: "hfkit/tgi-3.2", times: 1 });
    const run = await hfkit(["chat", "--base-url", hub.url, "--model", "hfkit/tgi-3.2", "hi"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("Model hfkit/tgi-3.2 is loading (about 0 s)...\n");
    expect(run.stdout).toBe("The capital of France is Paris.\n");
  });

  it("an error is one clear line on stderr and a non-zero exit; the stack only with --verbose", async () => {
    const run = await hfkit(["chat", "--base-url", hub.url, "--model", "org/does-not-exist", "hi"], {
      env: { HF_TOKEN: "hf_secret" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^hfkit: NotFoundError: Model org\/does-not-exist does not exist \(HTTP 404, request id mock-\d+\)\n$/,
    );
    expect(run.stderr).not.toContain("hf_secret");
    const verbose = await hfkit(["chat", "--base-url", hub.url, "--model", "org/does-not-exist", "--verbose", "hi"]);
    expect(verbose.stderr.split("\n").length).toBeGreaterThan(3);
  });

  it("an in-stream validation error from TGI 2.0 ends the command instead of hanging", async () => {
    hub.inject({ type: "linger" }, { model: "hfkit/tgi-2.0" });
    const run = await hfkit(["chat", "--base-url", hub.url, "--model", "hfkit/tgi-2.0", "--max-tokens", "5000", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^hfkit: ValidationError: Input validation error/);
  });

  it("bad usage exits 2", async () => {
    for (const args of [
      ["chat"],
      ["chat", "--model", "m"],
      ["chat", "--model", "m", "--max-tokens", "x", "hi"],
      ["nope"],
    ]) {
      const run = await hfkit(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/^hfkit: /);
    }
  });
});

describe("hfkit", () => {
  it("--help and --version", async () => {
    expect((await hfkit(["--help"])).stdout).toContain("hfkit chat");
    expect((await hfkit(["chat", "--help"])).stdout).toContain("HF_TOKEN");
    expect((await hfkit(["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("mock-hub prints its URL and serves chat at its root until stopped", async () => {
    const child = spawn(process.execPath, [CLI, "mock-hub"], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise((resolve) => child.on("close", resolve));
    onTestFinished(() => void child.kill("SIGKILL"));
    // Its URL is the first line; the lines to export follow it.
    const url = await new Promise<string>((resolve) =>
      child.stdout.setEncoding("utf8").once("data", (c: string) => resolve(c.split("\n")[0]!.trim())),
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "any/model", messages: [{ role: "user", content: "hi" }] }),
    });
    expect((await res.json()).choices[0].message.content).toBe("The capital of France is Paris.");
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });

  it("proxy prints its URL and answers OpenAI's protocol", async () => {
    const child = spawn(process.execPath, [CLI, "proxy", "--target", hub.url], { stdio: ["ignore", "pipe", "pipe"] });
    const url = await new Promise<string>((resolve) =>
      child.stdout.setEncoding("utf8").once("data", (c: string) => resolve(c.trim())),
    );
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "hfkit/tgi-2.0", messages: [{ role: "user", content: "hi" }], stream: true }),
    });
    const text = await res.text();
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const exited = new Promise((resolve) => child.on("close", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

describe("hfkit snippet", () => {
  it("prints the snippets of a model from --model-file, with the placeholder token even when HF_TOKEN is set", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = await mkdtemp(join(tmpdir(), "hfkit-"));
    const file = join(dir, "model.json");
    await writeFile(
      file,
      JSON.stringify({ id: "org/chat", pipeline_tag: "text-generation", tags: ["conversational"] }),
    );
    const run = await hfkit(["snippet", "org/chat", "--model-file", file, "--lang", "sh"], {
      env: { HF_TOKEN: "hf_secret_env" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("/v1/chat/completions");
    expect(run.stdout).toContain("hf_***");
    expect(run.stdout).not.toContain("hf_secret_env");
    expect((await hfkit(["snippet"])).code).toBe(2);
  });

  it("--help (and -h) says what it prints, each option the parser takes, where the model's data comes from, and examples", async () => {
    const { runSnippetCommand } = await import("@hfkit/snippets");
    let usage = "";
    const io = { stdout: { write: (t: string) => (usage += t) }, stderr: { write: () => true }, env: {} };
    await runSnippetCommand(["--help"], {
      ...io,
      readFile: async () => "",
      fetch: async () => Promise.reject(new Error("no")),
    });
    const flags = usage.match(/--[a-z][a-z-]*/g) ?? [];
    expect(flags.length).toBeGreaterThanOrEqual(6);
    for (const args of [
      ["snippet", "--help"],
      ["snippet", "-h"],
    ]) {
      const run = await hfkit(args);
      expect(run.code).toBe(0);
      for (const flag of flags) expect(run.stdout, flag).toMatch(new RegExp(`^  ${flag}\\b`, "m"));
      expect(run.stdout).toContain("HF_ENDPOINT");
      expect(run.stdout).toContain("hf_***");
      expect(run.stdout).toMatch(/^ {2}e\.g\. hfkit snippet \S+/m);
    }
  });
});
