import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
const dir = fileURLToPath(new URL("./types/", import.meta.url));

/** tsc's diagnostics for one project of test/types, one a line (`file(line,col): error …`), or "". */
async function check(project: string): Promise<string> {
  try {
    const args = [tsc, "-p", project, "--pretty", "false"];
    await promisify(execFile)(process.execPath, args, { cwd: dir, encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** The diagnostics of the test's own files: with `exactOptionalPropertyTypes` on, hfkit's src has its own. */
function ofTestFiles(output: string): string {
  return output
    .split("\n")
    .filter((line) => /^[\w.-]+\.ts\(/.test(line))
    .join("\n");
}

it("code typed against @huggingface/inference type-checks under strict with our .d.ts and no Node types", async () => {
  expect(await check("tsconfig.json")).toBe("");
}, 60_000);

describe.concurrent(
  "tasks-io*.ts: every task's @huggingface/tasks input and output, as a 4.13 user writes them",
  () => {
    it("compiles against hfkit's src", async () => {
      expect(await check("tsconfig.hfkit.json")).toBe("");
    }, 180_000);

    it("compiles against @huggingface/inference 4.13 itself", async () => {
      expect(await check("tsconfig.hf.json")).toBe("");
    }, 180_000);

    it("compiles against both with exactOptionalPropertyTypes on", async () => {
      expect(await check("tsconfig.hf-exact.json")).toBe("");
      expect(ofTestFiles(await check("tsconfig.hfkit-exact.json"))).toBe("");
    }, 180_000);
  },
);
