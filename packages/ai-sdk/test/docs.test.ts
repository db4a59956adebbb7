/**
 * Every `js` block of docs/ai-sdk.md (not marked `fragment`) runs as a Node script against the mock hub,
 * importing the built package (`pnpm build` first) and `ai` as a user's app would, with HF_TOKEN set and
 * the HF hosts sent to the hub; each `// prints: X` comment is checked against the output.
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { useHub } from "./helpers";

const PACKAGE_DIR = resolve(import.meta.dirname, "..");
const PAGE = resolve(PACKAGE_DIR, "../../docs/ai-sdk.md");

interface Block {
  line: number;
  code: string;
}

function jsBlocks(): Block[] {
  const text = readFileSync(PAGE, "utf8");
  return [...text.matchAll(/^```js([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => !/\bfragment\b/.test(m[1] ?? ""))
    .map((m) => ({ line: text.slice(0, m.index).split("\n").length, code: m[2] ?? "" }));
}

/** Loaded before a sample: the router's and the endpoints' hosts answered by the hub; no other host. */
function redirect(hubUrl: string): string {
  return `const hub = ${JSON.stringify(hubUrl)};
const original = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const u = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url);
  let target;
  if (u.hostname === "router.huggingface.co") target = hub + u.pathname + u.search;
  else if (u.hostname === "127.0.0.1") target = u.href;
  else return Promise.reject(new TypeError("a docs sample tried to reach " + u.host));
  return original(target, typeof input === "object" && !(input instanceof URL) ? new Request(target, input) : init);
};
`;
}

function run(file: string, preload: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const env = { ...process.env, HF_TOKEN: "hf_docs_sample", AI_SDK_LOG_WARNINGS: "false" };
    execFile(process.execPath, ["--import", preload, file], { cwd: PACKAGE_DIR, env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolvePromise(stdout);
    });
  });
}

const ctx = useHub();

describe("docs/ai-sdk.md", () => {
  const blocks = jsBlocks();

  it("has runnable samples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each(blocks.map((block) => [block.line, block] as const))("the js block at line %i runs and prints what it says", async (line, block) => {
    // Inside the package, so `@hfkit/ai-sdk` resolves to its own build and `ai` to its devDependency.
    const file = join(PACKAGE_DIR, `.docs-sample-${process.pid}-${line}.mjs`);
    const preload = join(PACKAGE_DIR, `.docs-redirect-${process.pid}-${line}.mjs`);
    writeFileSync(file, block.code);
    writeFileSync(preload, redirect(ctx.hub.url));
    try {
      const stdout = await run(file, preload);
      const expected = [...block.code.matchAll(/\/\/ prints: (.+)$/gm)].map((m) => m[1]!.trim());
      expect(expected.length).toBeGreaterThan(0);
      for (const text of expected) expect(stdout).toContain(text);
      expect(ctx.hub.requests.length).toBeGreaterThan(0);
      expect(ctx.hub.requests.every((r) => r.headers.authorization === undefined || r.headers.authorization === "Bearer hf_docs_sample")).toBe(true);
    } finally {
      rmSync(file, { force: true });
      rmSync(preload, { force: true });
    }
  }, 60_000);
});
