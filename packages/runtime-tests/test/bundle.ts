import { join } from "node:path";
import { build, type BuildOptions, type Metafile } from "esbuild";

export interface Bundle {
  code: string;
  metafile: Metafile;
}

/** Bundles `entry` of the app directory into one file in memory, the way a user's bundler would. */
export async function bundle(appDir: string, entry: string, options: BuildOptions): Promise<Bundle> {
  const result = await build({
    entryPoints: [join(appDir, entry)],
    absWorkingDir: appDir,
    bundle: true,
    write: false,
    metafile: true,
    logLevel: "silent",
    ...options,
  });
  const output = result.outputFiles?.[0];
  if (!output || !result.metafile) throw new Error(`esbuild produced no output for ${entry}`);
  return { code: output.text, metafile: result.metafile };
}

/** How a Worker is bundled (wrangler's conditions), and a Vercel edge function (Next.js' conditions). */
export const WORKERD: BuildOptions = {
  platform: "neutral",
  format: "esm",
  conditions: ["workerd", "worker", "browser"],
  mainFields: ["module", "main"],
};
export const EDGE: BuildOptions = {
  platform: "neutral",
  format: "iife",
  conditions: ["edge-light", "worker", "browser"],
  mainFields: ["module", "main"],
};
export const NEUTRAL: BuildOptions = { platform: "neutral", format: "esm", mainFields: ["module", "main"] };
export const BROWSER: BuildOptions = { platform: "browser", format: "esm" };
