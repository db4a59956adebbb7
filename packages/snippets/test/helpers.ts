import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModelData, SnippetLanguage, SnippetOptions } from "../src";

const here = dirname(fileURLToPath(import.meta.url));
export const PACKAGE_DIR = resolve(here, "..");
export const GOLDEN_DIR = join(here, "golden");
/** The built SDK the JS snippets are pointed at. */
export const INFERENCE_DIST = resolve(PACKAGE_DIR, "../inference/dist/index.js");
export const EXTENSIONS: Record<SnippetLanguage, string> = { js: "mjs", python: "py", sh: "sh" };
export const ANSWER = "The capital of France is Paris.";

export interface GoldenCase {
  model: ModelData;
  options: SnippetOptions;
}

export const GOLDEN_CASES: Record<string, GoldenCase> = JSON.parse(
  readFileSync(join(GOLDEN_DIR, "cases.json"), "utf8"),
);

export const goldenFiles = (name: string): string[] => readdirSync(join(GOLDEN_DIR, name)).sort();

export const CHAT_MODEL: ModelData = { id: "acme/chat", pipeline_tag: "text-generation", tags: ["conversational"] };
export const GENERATION_MODEL: ModelData = { id: "acme/gpt2", pipeline_tag: "text-generation", tags: [] };

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (20 s at most), never through a proxy. */
export function run(file: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const env = { ...process.env, NO_PROXY: "127.0.0.1,localhost", no_proxy: "127.0.0.1,localhost", ...extraEnv };
  return new Promise((done) => {
    execFile(file, args, { env, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

let python: Promise<string> | undefined;

/** The interpreter behind `python3`, found once: a version manager's shim costs seconds a call. */
export function python3(): Promise<string> {
  python ??= run("python3", ["-c", "import sys; print(sys.executable)"]).then((r) => r.stdout.trim() || "python3");
  return python;
}

/** `python3 -m py_compile FILE`, its bytecode kept out of the source tree. */
export async function pyCompile(file: string): Promise<Run> {
  const cache = mkdtempSync(join(tmpdir(), "hfkit-pycache-"));
  try {
    return await run(await python3(), ["-m", "py_compile", file], { PYTHONPYCACHEPREFIX: cache });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/**
 * A scratch folder inside this package, so that a snippet's bare imports (`openai`) resolve from
 * this package's node_modules.
 */
export function scratchDir(): { write(name: string, content: string): string; remove(): void } {
  const dir = mkdtempSync(join(PACKAGE_DIR, "node_modules", ".snippet-run-"));
  return {
    write(name, content) {
      const file = join(dir, name);
      writeFileSync(file, content);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The snippet's `@hfkit/inference` import pointed at the built package. */
export function useBuiltInference(content: string): string {
  const from = 'from "@hfkit/inference";';
  if (!content.includes(from)) throw new Error(`no @hfkit/inference import in:\n${content}`);
  return content.replace(from, `from ${JSON.stringify(INFERENCE_DIST)};`);
}
