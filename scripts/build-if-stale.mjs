// `node scripts/build-if-stale.mjs [package …]`: builds the named packages (directories of packages/; default:
// every package with a build script) only when one is not built or a source is newer than its build, quietly:
// one "building …" line on stderr, the build's own output only if it fails. `pnpm demo` runs it first, so a
// fresh clone builds once and every later demo starts at once.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(import.meta.url), "../..");
/** Inputs of every package's build besides its own src/, package.json, tsup and TypeScript configs. */
const SHARED_INPUTS = ["tsconfig.base.json", "pnpm-lock.yaml"];
const OWN_INPUTS = ["src", "package.json", "tsup.config.ts", "tsconfig.json"];

/** Every file under `path` (or `path` itself), skipping node_modules. */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.name !== "node_modules")
    .flatMap((entry) => files(join(path, entry.name)));
}

/**
 * Why the package in `dir` needs a build, or undefined when its dist/ is newer than all its inputs:
 * "not built", or which input changed after the oldest file of dist/ was written.
 */
export function staleReason(dir, sharedInputs = SHARED_INPUTS.map((file) => join(ROOT, file))) {
  const outputs = files(join(dir, "dist"));
  if (outputs.length === 0) return "not built";
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const inputs = [...OWN_INPUTS.flatMap((name) => files(join(dir, name))), ...sharedInputs.flatMap(files)];
  const changed = inputs.find((file) => statSync(file).mtimeMs > built);
  return changed ? `${relative(ROOT, changed)} changed` : undefined;
}

function buildable(name) {
  const manifest = join(ROOT, "packages", name, "package.json");
  return existsSync(manifest) && typeof JSON.parse(readFileSync(manifest, "utf8")).scripts?.build === "string";
}

/** Builds whichever of `names` is stale; answers whether it had to. */
export function buildIfStale(names = readdirSync(join(ROOT, "packages")).filter(buildable)) {
  const stale = names
    .map((name) => ({ name, reason: staleReason(join(ROOT, "packages", name)) }))
    .filter(({ reason }) => reason !== undefined);
  if (stale.length === 0) return false;
  const packages = stale.map(
    ({ name }) => JSON.parse(readFileSync(join(ROOT, "packages", name, "package.json"), "utf8")).name,
  );
  process.stderr.write(`building ${packages.join(", ")} (${stale[0].reason})… `);
  const started = Date.now();
  const filters = packages.flatMap((name) => ["--filter", name]);
  const result = spawnSync("pnpm", ["--silent", ...filters, "run", "build"], { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0) {
    process.stderr.write(
      `failed\n${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}\n`,
    );
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  buildIfStale(names.length > 0 ? names : undefined);
}
