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

/**
 * `doc` with `section` (its markers `begin` … `end` included) in place of the section between those markers; where
 * there is none yet, after the marker `after` when given and present, else before "## Running", else at the end.
 */
export function withSection(doc, section, begin, end, after) {
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from !== -1 && to > from) return doc.slice(0, from) + section + doc.slice(to + end.length);
  const mark = after === undefined ? -1 : doc.indexOf(after);
  if (mark !== -1) {
    const at = mark + after.length;
    return `${doc.slice(0, at)}\n\n${section}${doc.slice(at)}`;
  }
  const running = doc.indexOf("\n## Running");
  return running === -1
    ? `${doc.trimEnd()}\n\n${section}\n`
    : `${doc.slice(0, running)}\n${section}\n${doc.slice(running)}`;
}
