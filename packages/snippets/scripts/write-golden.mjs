// Writes test/golden/<case>/<language>-<client>.<ext> from the built package, for one review by eye;
// the tests then compare every snippet with its file exactly. Run: pnpm --filter @hfkit/snippets golden
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getSnippets } from "../dist/index.js";

export const EXTENSIONS = { js: "mjs", python: "py", sh: "sh" };

const goldenDir = join(dirname(fileURLToPath(import.meta.url)), "../test/golden");
const cases = JSON.parse(readFileSync(join(goldenDir, "cases.json"), "utf8"));

for (const [name, { model, options }] of Object.entries(cases)) {
  const dir = join(goldenDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const snippet of getSnippets(model, options)) {
    const file = join(dir, `${snippet.language}-${snippet.client}.${EXTENSIONS[snippet.language]}`);
    writeFileSync(file, snippet.content);
    console.log(file);
  }
}
