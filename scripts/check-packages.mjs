// Every package the workspace publishes (not `private`) must pack cleanly and completely: its tarball holds
// the LICENSE and a README whose links work on the registry, its package.json names homepage, bugs and
// repository (scripts/package-contents.mjs), publint (strict) passes, and `attw --pack` (types resolve the
// same way under node10, node16 CJS/ESM and bundlers). Run after a build.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { contentProblems } from "./package-contents.mjs";

const published = readdirSync("packages")
  .map((name) => join("packages", name))
  .filter((dir) => existsSync(join(dir, "package.json")))
  .filter((dir) => !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private);

const failed = [];
const rootLicense = readFileSync("LICENSE", "utf8");
for (const dir of published) {
  console.log(`\n$ check the contents of ${dir}'s tarball and package.json`);
  const problems = contentProblems(dir, rootLicense);
  for (const problem of problems) console.log(`  ${dir}: ${problem}`);
  if (problems.length > 0) failed.push(`contents of ${dir}`);
  else console.log("  LICENSE, README.md (absolute links only), homepage, bugs, repository: present");
  for (const [tool, args] of [
    ["publint", [dir, "--strict"]],
    ["attw", ["--pack", dir]],
  ]) {
    console.log(`\n$ ${tool} ${args.join(" ")}`);
    const { status } = spawnSync(tool, args, { stdio: "inherit" });
    if (status !== 0) failed.push(`${tool} ${dir}`);
  }
}
console.log(
  failed.length
    ? `\nFailed: ${failed.join(", ")}`
    : `\n${published.length} packages pack cleanly: ${published.join(", ")}`,
);
process.exit(failed.length ? 1 : 0);
