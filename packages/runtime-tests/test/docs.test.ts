import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "./harness";
import { type PageHub, pageSamples, startPageHub } from "./pageHub";
import { DOCS_DIR, markdownBlocks, REPO_DIR } from "./snippets";

// Every `ts` block of the docs and of the root README runs as a Node script the way the page tells a reader to run
// it: against `hfkit mock-hub`, started with the flags of the last `hfkit mock-hub` line the page shows above the
// block (a `--fault`, say; none shown: plain `hfkit mock-hub`), with only the variables it prints (no HF_TOKEN but
// with --strict). Nothing else is set up: no fault, no fetch redirected. What it prints must be what its
// `// prints:` comments show, line for line (`…` stands for what varies, such as a request id); a block without one
// must print nothing. docs/runtimes.md's blocks run in their own runtimes, in the matrix. A block marked
// `ts fragment` is a piece of a program and is not run.
const PAGES = [
  "README.md",
  ...readdirSync(DOCS_DIR)
    .filter((file) => file.endsWith(".md") && file !== "runtimes.md")
    .map((file) => `docs/${file}`),
].filter((page) => pageSamples(page).length > 0);

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
  const pattern = expected
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`).test(line);
}

/**
 * Loaded before each sample: any host but loopback is refused, so a sample that would need the network fails here
 * as it would offline. It redirects nothing.
 */
const OFFLINE_GUARD = `const loopback = new Set(["127.0.0.1", "localhost", "[::1]"]);
const original = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url);
  if (loopback.has(url.hostname)) return original(input, init);
  return Promise.reject(new TypeError("a docs sample tried to reach " + url.host + ": it must run offline"));
};
`;

let dir: string;
let guard: string;
/** The hubs started, by their flags: one plain hub for every page, one of its own for a page that shows flags. */
const hubs = new Map<string, Promise<PageHub>>();
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hfkit-docs-"));
  symlinkSync(resolve(import.meta.dirname, "../node_modules"), join(dir, "node_modules"), "dir");
  guard = join(dir, "offline-guard.mjs");
  writeFileSync(guard, OFFLINE_GUARD);
});
afterAll(async () => {
  for (const hub of hubs.values()) (await hub.catch(() => undefined))?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function hubFor(page: string, flags: string[]): Promise<PageHub> {
  const key = flags.length === 0 ? "" : `${page} ${flags.join(" ")}`;
  if (!hubs.has(key)) hubs.set(key, startPageHub(flags));
  return hubs.get(key)!;
}

/** Whatever the test's own environment holds for the Hub, the router or a token is not the reader's. */
const UNSET = {
  HF_TOKEN: undefined,
  HUGGING_FACE_HUB_TOKEN: undefined,
  HF_ENDPOINT: undefined,
  HF_INFERENCE_ENDPOINT: undefined,
};

async function runSample(name: string, code: string, hub: PageHub): Promise<string> {
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
  return run(process.execPath, ["--import", guard, file], dir, 60_000, { ...UNSET, ...hub.env });
}

describe.each(PAGES)("%s", (page) => {
  const samples = pageSamples(page).map((sample) => [sample.block.line, sample] as const);
  it.each(samples)("the ts block at line %i runs", async (line, { block, hubFlags }) => {
    const hub = await hubFor(page, hubFlags);
    const stdout = await runSample(`${page}-${line}`, block.code, hub);
    const expected = printedLines(block.code);
    // A line that matches its expected line (`…` standing for anything) is shown as that line, so a diff shows only mismatches.
    const printed = stdout
      .replace(/\n$/, "")
      .split("\n")
      .map((line, i) => (matchesLine(line, expected[i]) ? expected[i] : line));
    expect(printed).toEqual(expected);
  });
});

it("no fence carries setup a reader cannot see: a code block's fence says at most fragment, install= or runtime=", () => {
  const pages = [
    "README.md",
    ...readdirSync(DOCS_DIR)
      .filter((file) => file.endsWith(".md"))
      .map((file) => `docs/${file}`),
  ];
  const hidden = pages.flatMap((page) =>
    markdownBlocks(page)
      .filter((block) => block.meta !== "" && !/^(fragment|install=\w+|runtime=[\w-]+)$/.test(block.meta))
      .map((block) => `${page}:${block.line}: \`\`\`${block.lang} ${block.meta}`),
  );
  expect(hidden).toEqual([]);
});

// pnpm runs its own command, not the workspace's script, for these names (`pnpm docs` opens a package's web
// page): a script by such a name is run with `pnpm run <name>`.
const PNPM_COMMANDS = new Set([
  "docs",
  "pack",
  "publish",
  "version",
  "init",
  "link",
  "install",
  "update",
  "audit",
  "bin",
  "root",
  "prune",
  "rebuild",
  "outdated",
  "list",
  "why",
  "exec",
  "dlx",
  "store",
  "env",
  "setup",
  "deploy",
  "patch",
  "licenses",
  "cache",
  "config",
  "bugs",
  "repo",
  "view",
  "help",
]);

it("every `pnpm <name>` in the README and docs runs the root script it names (none is shadowed by pnpm's own command)", () => {
  const scripts = Object.keys(
    (JSON.parse(readFileSync(join(REPO_DIR, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
  );
  const pages = [
    "README.md",
    ...readdirSync(DOCS_DIR)
      .filter((file) => file.endsWith(".md"))
      .map((file) => `docs/${file}`),
  ];
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
