import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Fault, MockHub } from "@hfkit/mock-hub";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, startHub } from "./harness";
import { DOCS_DIR, markdownBlocks, REPO_DIR, writeFetchToHub, type DocBlock } from "./snippets";

// Every `ts` block of the docs and of the root README runs as a Node script against the mock hub, with
// HF_TOKEN set as a user's would be. What it prints must be what its `// prints:` comments show, line for
// line (`…` stands for what varies, such as a request id); a block without one must print nothing. A block
// whose fence says `fault={...}` runs while the hub answers the first request with that fault, as the real
// service would (a loading model, a rate limit). docs/runtimes.md's blocks run in their own runtimes, in the
// matrix. A block marked `ts fragment` is a piece of a program and is not run.
const PAGES = [
  "README.md",
  ...readdirSync(DOCS_DIR)
    .filter((file) => file.endsWith(".md") && file !== "runtimes.md")
    .map((file) => `docs/${file}`),
].filter((page) => samplesOf(page).length > 0);

function samplesOf(page: string): DocBlock[] {
  return markdownBlocks(page).filter((block) => block.lang === "ts" && !/\bfragment\b/.test(block.meta));
}

function faultOf(block: DocBlock): Fault | undefined {
  const json = /\bfault=(\{.*\})/.exec(block.meta)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as Fault);
}

/**
 * The output a block says it prints, line by line: each `// prints: X` is one line, and a `// prints:` alone
 * on its line is followed by one `// X` comment line per line printed.
 */
function printedLines(code: string): string[] {
  const lines: string[] = [];
  let listing = false;
  for (const line of code.split("\n")) {
    const comment = /^\s*\/\/ ?(.*)$/.exec(line)?.[1];
    if (listing && comment !== undefined) {
      lines.push(comment);
      continue;
    }
    listing = false;
    const printed = /\/\/ prints:(.*)$/.exec(line)?.[1];
    if (printed === undefined) continue;
    if (printed.trim() === "") listing = true;
    else lines.push(printed.trim());
  }
  return lines.length > 0 ? lines : [""];
}

function matchesLine(line: string, expected: string | undefined): boolean {
  if (expected === undefined) return false;
  const pattern = expected.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${pattern}$`).test(line);
}

let hub: MockHub;
let dir: string;
let redirect: string;
beforeAll(async () => {
  hub = await startHub();
  dir = mkdtempSync(join(tmpdir(), "hfkit-docs-"));
  symlinkSync(resolve(import.meta.dirname, "../node_modules"), join(dir, "node_modules"), "dir");
  redirect = writeFetchToHub(dir, hub.url, "fetch-to-hub.cjs");
});
afterAll(async () => {
  await hub?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * docs/getting-started.md runs as a newcomer's code would, offline: no token, no `fetch` redirected, only the two
 * variables `hfkit mock-hub` prints (`HF_ENDPOINT`, `HF_INFERENCE_ENDPOINT`) pointing at the mock hub.
 */
const OFFLINE_PAGES = new Set(["docs/getting-started.md"]);

async function runSample(name: string, code: string, page: string): Promise<string> {
  const result = await build({
    stdin: { contents: code, loader: "ts", resolveDir: dir, sourcefile: name },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const file = join(dir, `${name.replace(/\W+/g, "-")}.mjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  if (OFFLINE_PAGES.has(page)) return run(process.execPath, [file], dir, 60_000, { HF_TOKEN: "", HF_ENDPOINT: hub.url, HF_INFERENCE_ENDPOINT: hub.url });
  return run(process.execPath, ["--import", redirect, file], dir, 60_000, { HF_TOKEN: "hf_docs_sample" });
}

describe.each(PAGES)("%s", (page) => {
  it.each(samplesOf(page).map((block) => [block.line, block] as const))("the ts block at line %i runs", async (line, block) => {
    const fault = faultOf(block);
    const rule = fault && hub.inject(fault, { times: 1 });
    try {
      const stdout = await runSample(`${page}-${line}`, block.code, page);
      const expected = printedLines(block.code);
      // A line that matches its expected line (`…` standing for anything) is shown as that line, so a diff shows only mismatches.
      const printed = stdout.replace(/\n$/, "").split("\n").map((line, i) => (matchesLine(line, expected[i]) ? expected[i] : line));
      expect(printed).toEqual(expected);
      if (rule) expect(rule.hits).toBe(1);
    } finally {
      rule?.remove();
    }
  });
});

// pnpm runs its own command, not the workspace's script, for these names (`pnpm docs` opens a package's web
// page): a script by such a name is run with `pnpm run <name>`.
const PNPM_COMMANDS = new Set(["docs", "pack", "publish", "version", "init", "link", "install", "update", "audit", "bin", "root", "prune", "rebuild", "outdated", "list", "why", "exec", "dlx", "store", "env", "setup", "deploy", "patch", "licenses", "cache", "config", "bugs", "repo", "view", "help"]);

it("every `pnpm <name>` in the README and docs runs the root script it names (none is shadowed by pnpm's own command)", () => {
  const scripts = Object.keys((JSON.parse(readFileSync(join(REPO_DIR, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
  const pages = ["README.md", ...readdirSync(DOCS_DIR).filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`)];
  const shadowed: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(REPO_DIR, page), "utf8");
    for (const [, name] of text.matchAll(/\bpnpm (?:-s |--silent )?([a-z][\w:-]*)/g)) {
      if (scripts.includes(name!) && PNPM_COMMANDS.has(name!)) shadowed.push(`${page}: pnpm ${name}`);
    }
  }
  expect(shadowed).toEqual([]);
  expect(scripts).toContain("docs:api");
});
