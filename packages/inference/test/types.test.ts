import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
const project = fileURLToPath(new URL("./types/tsconfig.json", import.meta.url));

it("code typed against @huggingface/inference type-checks under strict with our .d.ts and no Node types", () => {
  let output = "";
  try {
    execFileSync(process.execPath, [tsc, "-p", project], { encoding: "utf8" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
}, 60_000);
