/**
 * The published types: a user's file per major (test/types/ai5.ts, ai6.ts, ai7.ts) compiles with tsc against
 * the build (`pnpm build` first), which names no `@ai-sdk/provider` (a user may not have it), while a model of
 * the wrong specification does not compile.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const PACKAGE_DIR = resolve(import.meta.dirname, "..");
const TYPES_DIR = join(PACKAGE_DIR, "test/types");
const TSC = join(PACKAGE_DIR, "../../node_modules/typescript/bin/tsc");

function tsc(project: string): Promise<string> {
  return new Promise((done) =>
    execFile(process.execPath, [TSC, "-p", project], { cwd: TYPES_DIR, timeout: 60_000 }, (_error, stdout) =>
      done(stdout),
    ),
  );
}

it("the built .d.ts files import nothing from @ai-sdk/provider", () => {
  const declarations = readdirSync(join(PACKAGE_DIR, "dist")).filter((file) => /\.d\.c?ts$/.test(file));
  expect(declarations.length).toBeGreaterThanOrEqual(8);
  for (const file of declarations)
    expect(readFileSync(join(PACKAGE_DIR, "dist", file), "utf8")).not.toMatch(/from ["']@ai-sdk\//);
});

it("a user's file for each of ai 5, 6 and 7 compiles; ai 5 given the v3 models does not", async () => {
  expect(await tsc("tsconfig.json")).toBe("");
  const wrong = join(TYPES_DIR, `wrong-${process.pid}.ts`);
  const config = join(TYPES_DIR, `tsconfig-${process.pid}.json`);
  writeFileSync(
    wrong,
    'import { hfkit } from "@hfkit/ai-sdk";\nimport { generateText } from "ai5";\nexport const x = generateText({ model: hfkit("m"), prompt: "p" });\n',
  );
  writeFileSync(config, JSON.stringify({ extends: "./tsconfig.json", files: [wrong] }));
  try {
    expect(await tsc(config)).toMatch(/Type '"v3"' is not assignable to type '"v2"'/);
  } finally {
    rmSync(wrong, { force: true });
    rmSync(config, { force: true });
  }
}, 120_000);
