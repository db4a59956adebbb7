/** The recorded exchanges are part of the repository: a fresh clone runs `pnpm test:recorded` as it is. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import setup, { RECORDINGS_DIR, requireRecordings } from "./recorded/global-setup";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

it("reads the recordings from fixtures/recorded/ in the repository, with their licences", () => {
  expect(relative(ROOT, RECORDINGS_DIR)).toBe(join("fixtures", "recorded"));
  for (const file of ["README.md", "LICENSE-huggingface.js.txt", "LICENSE-huggingface_hub.txt"]) {
    expect(existsSync(join(RECORDINGS_DIR, file)), file).toBe(true);
  }
  const licence = (file: string) => readFileSync(join(RECORDINGS_DIR, file), "utf8");
  expect(licence("LICENSE-huggingface.js.txt")).toMatch(/^MIT License/);
  expect(licence("LICENSE-huggingface_hub.txt")).toMatch(/Apache License\s+Version 2\.0/);
  expect(() => setup()).not.toThrow();
});

it("a missing recordings folder is one error naming it; a present one passes", () => {
  const missing = join(tmpdir(), "no-such-recordings", "fixtures", "recorded");
  expect(() => requireRecordings(missing)).toThrow(`pnpm test:recorded needs the recorded exchanges in ${missing}`);
  expect(() => requireRecordings(missing)).toThrow("fixtures/recorded/ of the repository");
  expect(() => requireRecordings(mkdtempSync(join(tmpdir(), "recordings-")))).not.toThrow();
});

const SKIPPED = new Set(["node_modules", "dist", ".git", "coverage", "reports", ".stryker-tmp"]);
const SKIPPED_PATHS = new Set([join(ROOT, "fixtures"), join(ROOT, "docs", "api")]);

/** Text files a clone holds, without installed, built or recorded ones. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED.has(name) || SKIPPED_PATHS.has(path)) return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|cts|js|mjs|cjs|json|md|yaml|yml|sh)$|^run$/.test(name) ? [path] : [];
  });
}

it("nothing in the repository points at a folder beside it", () => {
  const beside = ["shared", "fixtures"].join("/");
  const offenders = sources(ROOT).filter((path) => readFileSync(path, "utf8").includes(beside));
  expect(offenders.map((path) => relative(ROOT, path))).toStrictEqual([]);
});
