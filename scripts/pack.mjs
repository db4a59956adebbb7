// `pnpm pack:all [--out=DIR] [package …]`: packs the published packages (all, or the named directories of
// packages/) into DIR (default: ../hfkit-packs, beside the clone) as a user installs them before they are on
// the registry, and prints the `npm i` line. Run after `pnpm build`. Packing rewrites `workspace:*` to the
// version, so one `npm i` of several tarballs resolves their @hfkit dependencies from each other.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(import.meta.url), "../..");

/** The directory names under packages/ of every package that is not private. */
export function publishedPackages() {
  return readdirSync(join(ROOT, "packages"))
    .filter((name) => existsSync(join(ROOT, "packages", name, "package.json")))
    .filter((name) => !JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8")).private)
    .sort();
}

/** Packs `names` (directories of packages/) into `out`; answers the tarballs' absolute paths, in order. */
export async function packAll(out, names = publishedPackages()) {
  mkdirSync(out, { recursive: true });
  return Promise.all(
    names.map(async (name) => {
      const dir = join(ROOT, "packages", name);
      if (!existsSync(join(dir, "dist"))) throw new Error(`packages/${name} is not built: run \`pnpm build\` first`);
      const { stdout } = await promisify(execFile)("pnpm", ["pack", "--json", "--pack-destination", out], { cwd: dir });
      return resolve(out, JSON.parse(stdout).filename);
    }),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const out = resolve(
    args.find((arg) => arg.startsWith("--out="))?.slice("--out=".length) ?? join(ROOT, "../hfkit-packs"),
  );
  const names = args.filter((arg) => !arg.startsWith("--"));
  const tarballs = await packAll(out, names.length > 0 ? names : undefined);
  for (const tarball of tarballs) console.log(tarball);
  const sdk = tarballs.find((tarball) => tarball.includes("hfkit-inference-")) ?? tarballs[0];
  console.log(
    `\nIn your project: npm i ${sdk}\n(several in one npm i, e.g. the CLI with the packages it needs: npm i ${out}/*.tgz)`,
  );
}
