// After `changeset version`: each package's src/version.ts says the version its package.json now has
// (the SDK sends it as its User-Agent; a test checks they agree).
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

for (const name of readdirSync("packages")) {
  const file = join("packages", name, "src/version.ts");
  if (!existsSync(file)) continue;
  const { version } = JSON.parse(readFileSync(join("packages", name, "package.json"), "utf8"));
  const source = readFileSync(file, "utf8");
  const updated = source.replace(/(export const VERSION = ")[^"]*(")/, `$1${version}$2`);
  if (updated !== source) {
    writeFileSync(file, updated);
    console.log(`${file}: ${version}`);
  }
}
