/**
 * Every `js` block of docs/ai-sdk.md (not marked `fragment`) runs as a Node script against the mock hub,
 * importing the built package (`pnpm build` first) and `ai` as a user's app would, with only the variables
 * `hfkit mock-hub` prints (`HF_ENDPOINT`, `HF_INFERENCE_ENDPOINT`; no token) and no other setup; each
 * `// prints: X` comment is checked against the output. A block that
 * imports only what `ai` 6 exports runs again with `ai` 6 (what `npm i ai` installs on Node 20).
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as ai6 from "ai6";
import { describe, expect, it } from "vitest";
import { useHub } from "./helpers";

const PACKAGE_DIR = resolve(import.meta.dirname, "..");
const PAGE = resolve(PACKAGE_DIR, "../../docs/ai-sdk.md");

interface Block {
  line: number;
  code: string;
}

/** The names a block imports from "ai". */
function aiImports(code: string): string[] {
  return [...code.matchAll(/import \{([^}]*)\} from "ai";/g)].flatMap((m) =>
    m[1]!
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/** Each block with `ai` 7, and with `ai` 6 when ai 6 exports every name it imports. */
function runs(blocks: Block[]): Array<[number, string, Block]> {
  return blocks.flatMap((block) => {
    const with6 = aiImports(block.code).every((name) => name in ai6)
      ? [
          [block.line, "ai 6", { ...block, code: block.code.replace(/ from "ai";/g, ' from "ai6";') }] as [
            number,
            string,
            Block,
          ],
        ]
      : [];
    return [[block.line, "ai 7", block] as [number, string, Block], ...with6];
  });
}

function jsBlocks(): Block[] {
  const text = readFileSync(PAGE, "utf8");
  return [...text.matchAll(/^```js([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => !/\bfragment\b/.test(m[1] ?? ""))
    .map((m) => ({ line: text.slice(0, m.index).split("\n").length, code: m[2] ?? "" }));
}

/** Loaded before a sample: any host but loopback is refused (it must run offline); it redirects nothing. */
const OFFLINE_GUARD = `const original = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const u = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url);
  if (u.hostname === "127.0.0.1") return original(input, init);
  return Promise.reject(new TypeError("a docs sample tried to reach " + u.host + ": it must run offline"));
};
`;

/** The sample run as the page tells a reader: with the variables `hfkit mock-hub` prints (no token), nothing else. */
function run(file: string, preload: string, hubUrl: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const { HF_TOKEN: _t, HUGGING_FACE_HUB_TOKEN: _h, ...inherited } = process.env;
    const env = { ...inherited, HF_ENDPOINT: hubUrl, HF_INFERENCE_ENDPOINT: hubUrl, AI_SDK_LOG_WARNINGS: "false" };
    execFile(
      process.execPath,
      ["--import", preload, file],
      { cwd: PACKAGE_DIR, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolvePromise(stdout);
      },
    );
  });
}

const ctx = useHub();

describe("docs/ai-sdk.md", () => {
  const blocks = jsBlocks();

  it("has runnable samples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it("runs the samples that ai 6 can with ai 6 too", () => {
    expect(runs(blocks).filter(([, major]) => major === "ai 6").length).toBeGreaterThanOrEqual(4);
  });

  it.each(runs(blocks))(
    "the js block at line %i runs with %s and prints what it says",
    async (line, major, block) => {
      // Inside the package, so `@hfkit/ai-sdk` resolves to its own build and `ai` to its devDependency.
      const tag = `${process.pid}-${line}-${major.replace(" ", "")}`;
      const file = join(PACKAGE_DIR, `.docs-sample-${tag}.mjs`);
      const preload = join(PACKAGE_DIR, `.docs-guard-${tag}.mjs`);
      writeFileSync(file, block.code);
      writeFileSync(preload, OFFLINE_GUARD);
      try {
        const stdout = await run(file, preload, ctx.hub.url);
        const expected = [...block.code.matchAll(/\/\/ prints: (.+)$/gm)].map((m) => m[1]!.trim());
        expect(expected.length).toBeGreaterThan(0);
        for (const text of expected) expect(stdout).toContain(text);
        expect(ctx.hub.requests.length).toBeGreaterThan(0);
        expect(ctx.hub.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
      } finally {
        rmSync(file, { force: true });
        rmSync(preload, { force: true });
      }
    },
    60_000,
  );
});
