// Every page a benchmark writes goes through the repository's formatter, as `pnpm check` reads it: a run leaves the
// docs formatted (Prettier aligns the tables the writers emit plain).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const prettier = createRequire(import.meta.url).resolve("prettier/bin/prettier.cjs");

/** Writes `text` to `path`, then formats it in place; answers `path`. */
export function writeDoc(path, text) {
  writeFileSync(path, text);
  execFileSync(process.execPath, [prettier, "--write", "--log-level", "warn", path], { stdio: "inherit" });
  return path;
}
