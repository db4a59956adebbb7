// Every package the workspace publishes (not `private`) must pack cleanly: publint (strict) and
// `attw --pack` (types resolve the same way under node10, node16 CJS/ESM and bundlers). Run after a build.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";

const published = readdirSync("packages")
  .map((name) => join("packages", name))
  .filter((dir) => existsSync(join(dir, "package.json")))
  .filter((dir) => !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private);

const failed = [];
for (const dir of published) {
  for (const [tool, args] of [["publint", [dir, "--strict"]], ["attw", ["--pack", dir]]]) {
    console.log(`\n$ ${tool} ${args.join(" ")}`);
    const { status } = spawnSync(tool, args, { stdio: "inherit" });
    if (status !== 0) failed.push(`${tool} ${dir}`);
  }
}
console.log(failed.length ? `\nFailed: ${failed.join(", ")}` : `\n${published.length} packages pack cleanly: ${published.join(", ")}`);
process.exit(failed.length ? 1 : 0);
