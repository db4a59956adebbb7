import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";

const packageDir = resolve(import.meta.dirname, "..");
const inferenceDir = resolve(packageDir, "../inference");

declare module "vitest" {
  export interface ProvidedContext {
    /** A user's project: the app beside node_modules holding the packed @hfkit/inference. */
    appDir: string;
  }
}

/** Installs the SDK as a user gets it: `pnpm pack`, unpacked into a fresh node_modules (it needs no other package). */
export default function setup(project: TestProject): () => void {
  if (!existsSync(join(inferenceDir, "dist/index.js"))) {
    throw new Error("packages/inference is not built: run `pnpm build` first (`pnpm test` does)");
  }
  const appDir = mkdtempSync(join(tmpdir(), "hfkit-runtime-app-"));
  execFileSync("pnpm", ["pack", "--pack-destination", appDir], { cwd: inferenceDir, stdio: "pipe" });
  const tarball = readdirSync(appDir).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${appDir}`);
  const sdkDir = join(appDir, "node_modules/@hfkit/inference");
  mkdirSync(sdkDir, { recursive: true });
  execFileSync("tar", ["-xzf", join(appDir, tarball), "-C", sdkDir, "--strip-components=1"]);
  cpSync(join(packageDir, "app"), appDir, { recursive: true });
  const manifest = {
    name: "hfkit-runtime-app",
    private: true,
    type: "module",
    dependencies: { "@hfkit/inference": "*" },
  };
  writeFileSync(join(appDir, "package.json"), JSON.stringify(manifest, null, 2));
  project.provide("appDir", appDir);
  return () => rmSync(appDir, { recursive: true, force: true });
}
