import { spawn, type StdioOptions } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hfkit } from "./run";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());

function run(
  command: string,
  args: string[],
  cwd: string,
  stdio: StdioOptions,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio, env: { ...process.env, FORCE_COLOR: "0" } });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr?.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

it("`pnpm -s hfkit snippet … > f.mjs` writes only the snippet; `node f.mjs` runs it against the mock hub", async () => {
  const dir = await mkdtemp(join(tmpdir(), "hfkit-snippet-"));
  // Where the snippet runs, `@hfkit/inference` must resolve (as after `npm i @hfkit/inference`).
  await mkdir(join(dir, "node_modules", "@hfkit"), { recursive: true });
  await symlink(join(ROOT, "packages", "inference"), join(dir, "node_modules", "@hfkit", "inference"), "dir");
  const model = join(dir, "model.json");
  await writeFile(model, JSON.stringify({ id: "org/chat", pipeline_tag: "text-generation", tags: ["conversational"] }));

  const file = join(dir, "f.mjs");
  const fd = openSync(file, "w");
  const args = [
    "-s",
    "hfkit",
    "snippet",
    "org/chat",
    "--model-file",
    model,
    "--lang",
    "js",
    "--client",
    "hfkit",
    "--base-url",
    hub.url,
  ];
  const made = await run("pnpm", args, ROOT, ["ignore", fd, "pipe"]).finally(() => closeSync(fd));
  expect(made.code, made.stderr).toBe(0);
  const code = await readFile(file, "utf8");
  expect(code.startsWith("// npm i @hfkit/inference\nimport ")).toBe(true);
  expect(code).not.toContain("hfkit-workspace");

  const ran = await run(process.execPath, [file], dir, ["ignore", "pipe", "pipe"]);
  expect(ran).toMatchObject({ code: 0, stdout: "The capital of France is Paris.", stderr: "" });
  expect(hub.requests.at(-1)?.path).toBe("/models/org/chat/v1/chat/completions");
});

it("`pnpm exec hfkit` at the workspace root runs the CLI and prints only its output (the bin is linked at install)", async () => {
  const version = JSON.parse(await readFile(join(ROOT, "packages/cli/package.json"), "utf8")).version as string;
  const run1 = await run("pnpm", ["exec", "hfkit", "--version"], ROOT, ["ignore", "pipe", "pipe"]);
  expect(run1.code).toBe(0);
  expect(run1.stdout).toBe(`${version}\n`);
});

it("`hfkit snippet MODEL` with HF_ENDPOINT at a mock hub prints what a --model-file of the Hub's data gives, offline", async () => {
  const dir = await mkdtemp(join(tmpdir(), "hfkit-snippet-hub-"));
  const cases = [
    ["hfkit/tgi-3.2", { pipeline_tag: "text-generation", tags: ["conversational"] }],
    ["hfkit/transformers-chat", { pipeline_tag: "text-generation", tags: [] }],
  ] as const;
  for (const [id, data] of cases) {
    const file = join(dir, `${id.replace("/", "-")}.json`);
    await writeFile(file, JSON.stringify({ id, ...data }));
    const offline = await hfkit(["snippet", id, "--model-file", file]);
    const fromHub = await hfkit(["snippet", id], { env: { HF_ENDPOINT: hub.url, HF_TOKEN: "hf_snippet" } });
    expect(fromHub.code, fromHub.stderr).toBe(0);
    expect(fromHub.stdout, id).toBe(offline.stdout);
    expect(hub.requests.at(-1)).toMatchObject({
      method: "GET",
      path: `/api/models/${id}`,
      headers: { authorization: "Bearer hf_snippet" },
    });
  }
  // A model of another task: the Hub's pipeline tag says which, as for a real one.
  const fillMask = await hfkit(["snippet", "hfkit/fill-mask"], { env: { HF_ENDPOINT: hub.url } });
  expect(fillMask).toMatchObject({
    code: 1,
    stderr:
      "hfkit snippet: no snippets for hfkit/fill-mask (pipeline_tag: fill-mask): only text-generation and chat models have them\n",
  });
  // What chat answers, snippet knows: a model the hub does not list is answered by both (lenient mode).
  const env = { HF_ENDPOINT: hub.url, HF_INFERENCE_ENDPOINT: hub.url };
  const listed = "meta-llama/Llama-3.1-8B-Instruct";
  expect(await hfkit(["chat", "-m", listed, "hi"], { env })).toMatchObject({
    code: 0,
    stdout: "The capital of France is Paris.\n",
  });
  const unlisted = await hfkit(["snippet", listed], { env });
  expect(unlisted.code, unlisted.stderr).toBe(0);
  expect(unlisted.stdout).toContain(listed);
  // An id that cannot exist is the Hub's 404 (and chat's 400).
  const missing = await hfkit(["snippet", "acme/a..b"], { env });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/model acme\/a\.\.b not found on the Hub \(HTTP 404/);
});
