/**
 * Every `js` block of docs/mcp.md (not marked `fragment`) runs as a Node script, with this package's source as
 * `@hfkit/mcp`, from test/fixtures (so `node server.mjs` starts the test server) and against the mock hub, with only
 * the variables `hfkit mock-hub` prints (`HF_ENDPOINT`, `HF_INFERENCE_ENDPOINT`; no token) and no other setup. What it
 * prints must be what its `// prints:` comments say, line for line (`…` standing for what varies).
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PAGE = fileURLToPath(new URL("../../../docs/mcp.md", import.meta.url));
const SOURCE = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const FIXTURES = fileURLToPath(new URL("fixtures", import.meta.url));

function jsBlocks(): { line: number; code: string }[] {
  const text = readFileSync(PAGE, "utf8");
  return [...text.matchAll(/^```js([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((match) => !/\bfragment\b/.test(match[1] ?? ""))
    .map((match) => ({ line: text.slice(0, match.index).split("\n").length, code: match[2] ?? "" }));
}

/** Loaded before a sample: any host but loopback is refused (it must run offline); it redirects nothing. */
const OFFLINE_GUARD = `const original = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const u = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url);
  if (u.hostname === "127.0.0.1") return original(input, init);
  return Promise.reject(new TypeError("a docs sample tried to reach " + u.host + ": it must run offline"));
};
`;

function printedLines(code: string): string[] {
  return [...code.matchAll(/\/\/ prints: (.*)$/gm)].map((match) => match[1]?.trim() ?? "");
}

function matches(line: string | undefined, expected: string): boolean {
  const pattern = expected
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return line !== undefined && new RegExp(`^${pattern}$`).test(line);
}

function runNode(file: string, preload: string, hubUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { HF_TOKEN: _t, HUGGING_FACE_HUB_TOKEN: _h, ...inherited } = process.env;
    const env = { ...inherited, HF_ENDPOINT: hubUrl, HF_INFERENCE_ENDPOINT: hubUrl };
    execFile(
      process.execPath,
      ["--import", preload, file],
      { cwd: FIXTURES, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());

describe("docs/mcp.md", () => {
  const blocks = jsBlocks();

  it("has a runnable sample", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(1);
  });

  it.each(blocks.map((block) => [block.line, block] as const))(
    "the js block at line %i runs and prints what it says",
    async (line, block) => {
      // Beside this file, so that the packages left outside the bundle resolve from this package's node_modules.
      const file = fileURLToPath(new URL(`.docs-sample-${process.pid}-${line}.mjs`, import.meta.url));
      const preload = fileURLToPath(new URL(`.docs-guard-${process.pid}-${line}.mjs`, import.meta.url));
      try {
        await build({
          stdin: { contents: block.code, loader: "js", resolveDir: FIXTURES, sourcefile: `docs/mcp.md:${line}` },
          bundle: true,
          platform: "node",
          format: "esm",
          outfile: file,
          alias: { "@hfkit/mcp": SOURCE },
          external: ["@hfkit/inference", "@modelcontextprotocol/sdk"],
          logLevel: "silent",
        });
        writeFileSync(preload, OFFLINE_GUARD);
        const lines = (await runNode(file, preload, hub.url)).trimEnd().split("\n");
        const expected = printedLines(block.code);
        expect(lines).toHaveLength(expected.length);
        expected.forEach((text, i) =>
          expect(matches(lines[i], text), `line ${i + 1}: ${lines[i]} is not ${text}`).toBe(true),
        );
      } finally {
        rmSync(file, { force: true });
        rmSync(preload, { force: true });
      }
    },
    30_000,
  );
});
