import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { getSnippets } from "../src";
import { EXTENSIONS, GOLDEN_CASES, GOLDEN_DIR, goldenFiles, pyCompile, run, scratchDir } from "./helpers";

// Each test starts processes (node, python3, curl): slow on a busy 2-core machine, not hung.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

// Regenerate after a deliberate change with `pnpm --filter @hfkit/snippets golden`, then read the diff.
describe.each(Object.entries(GOLDEN_CASES))("golden %s", (name, { model, options }) => {
  const snippets = getSnippets(model, options);
  const fileOf = (s: { language: keyof typeof EXTENSIONS; client: string }) =>
    `${s.language}-${s.client}.${EXTENSIONS[s.language]}`;

  it("has one file per snippet, and no other", () => {
    expect(snippets.map(fileOf).sort()).toEqual(goldenFiles(name));
  });

  it.each(snippets.map((s) => [fileOf(s), s.content]))("%s is the reviewed text", (file, content) => {
    expect(content).toBe(readFileSync(join(GOLDEN_DIR, name, file), "utf8"));
  });
});

describe.concurrent("every golden file is valid in its language", () => {
  const files = Object.keys(GOLDEN_CASES).flatMap((name) => goldenFiles(name).map((file) => `${name}/${file}`));
  const path = (file: string) => join(GOLDEN_DIR, file);

  it.each(files.filter((f) => f.endsWith(".mjs")))("node --check %s", async (file) => {
    expect(await run(process.execPath, ["--check", path(file)])).toMatchObject({ code: 0 });
  });

  it.each(files.filter((f) => f.endsWith(".py")))("python3 -m py_compile %s", async (file) => {
    expect(await pyCompile(path(file))).toMatchObject({ code: 0, stderr: "" });
  });

  it.each(files.filter((f) => f.endsWith(".sh")))("sh -n %s", async (file) => {
    expect(await run("sh", ["-n", path(file)])).toMatchObject({ code: 0, stderr: "" });
  });

  it("the checks catch an invalid file", async () => {
    const scratch = scratchDir();
    try {
      expect((await run(process.execPath, ["--check", scratch.write("bad.mjs", "const x = {;\n")])).code).not.toBe(0);
      expect((await pyCompile(scratch.write("bad.py", 'print("a",\n'))).code).not.toBe(0);
      expect((await run("sh", ["-n", scratch.write("bad.sh", "curl 'x\n")])).code).not.toBe(0);
    } finally {
      scratch.remove();
    }
  });
});
