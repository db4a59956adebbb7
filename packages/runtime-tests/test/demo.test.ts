import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_DIR } from "./snippets";
import { staleReason } from "../../../scripts/build-if-stale.mjs";

const reasonOf = staleReason as (dir: string, sharedInputs?: string[]) => string | undefined;

/** What `pnpm demo` prints once built: pnpm's banner for the script, then the demo's own lines, nothing else. */
const DEMO_LINES = [
  /^mock hub on http:\/\/127\.0\.0\.1:\d+$/,
  /^$/,
  /^> streaming from hfkit\/tgi-2\.0 \(no \[DONE\], socket left open by the server\)$/,
  /^The capital of France is Paris\.$/,
  /^ {2}\(stream completed in \d+ ms\)$/,
  /^$/,
  /^> a non-streamed call to hfkit\/tgi-3\.2$/,
  /^ {2}"The capital of France" \(finish_reason: length, usage: \{.*\}\)$/,
  /^$/,
  /^> a validation error that TGI 2\.0 sends inside a 200 stream, and then nothing$/,
  /^ {2}ValidationError: Input validation error: .+$/,
];

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
  firstLineMs: number;
  totalMs: number;
}

function runDemo(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn("pnpm", ["demo"], {
      cwd: REPO_DIR,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    let firstLineMs = -1;
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
      if (firstLineMs < 0 && stdout.includes("mock hub on ")) firstLineMs = Date.now() - started;
    });
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, firstLineMs, totalMs: Date.now() - started });
    });
  });
}

describe("pnpm demo", () => {
  it("prints only its own lines (after pnpm's two-line banner), and builds nothing when built", async () => {
    const { stdout, stderr, code, firstLineMs, totalMs } = await runDemo();
    expect(code, stderr).toBe(0);
    const banner = `\n> hfkit-workspace@ demo ${REPO_DIR}\n> node scripts/build-if-stale.mjs inference mock-hub && node packages/demo/demo.mjs\n\n`;
    expect(stdout.startsWith(banner), stdout).toBe(true);
    const lines = stdout.slice(banner.length).replace(/\n$/, "").split("\n");
    expect(lines).toHaveLength(DEMO_LINES.length);
    lines.forEach((line, i) => expect(line).toMatch(DEMO_LINES[i]!));
    // Built by `pnpm test` just before: nothing to build, so nothing on stderr (how long it takes is the machine's).
    // (Should a source change meanwhile, the one line that says so is all the build may print.)
    expect(stderr).toMatch(/^(building @hfkit\/[^\n]+… done in [\d.]+ s\n)?$/);
    console.log(`pnpm demo: first line after ${firstLineMs} ms, done after ${totalMs} ms`);
  });
});

describe("scripts/build-if-stale.mjs", () => {
  const dir = mkdtempSync(join(tmpdir(), "hfkit-stale-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = (path: string, seconds: number) => utimesSync(join(dir, path), seconds, seconds);

  it("a package is stale when not built, or when a source, its package.json or a shared input is newer than its oldest output", () => {
    mkdirSync(join(dir, "src/nested"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    writeFileSync(join(dir, "src/nested/a.ts"), "");
    writeFileSync(join(dir, "shared.json"), "{}");
    const shared = [join(dir, "shared.json")];
    expect(reasonOf(dir, shared)).toBe("not built");

    mkdirSync(join(dir, "dist"));
    writeFileSync(join(dir, "dist/index.js"), "");
    writeFileSync(join(dir, "dist/index.d.ts"), "");
    for (const file of ["package.json", "src/nested/a.ts", "shared.json"]) at(file, 1_000);
    at("dist/index.js", 2_000);
    at("dist/index.d.ts", 2_001);
    expect(reasonOf(dir, shared)).toBeUndefined();

    at("src/nested/a.ts", 2_000.5); // after the first output was written, before the last
    expect(reasonOf(dir, shared)).toMatch(/src\/nested\/a\.ts changed$/);
    at("src/nested/a.ts", 1_000);
    at("package.json", 3_000);
    expect(reasonOf(dir, shared)).toMatch(/package\.json changed$/);
    at("package.json", 1_000);
    at("shared.json", 3_000);
    expect(reasonOf(dir, shared)).toMatch(/shared\.json changed$/);
  });
});
