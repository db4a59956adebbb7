import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { type DocBlock, markdownBlocks, REPO_DIR } from "./snippets";

/** The `hfkit` command of the clone, as `pnpm hfkit` runs it. */
const CLI = join(REPO_DIR, "packages/cli/bin/hfkit.mjs");

/** A `hfkit mock-hub …` line of a shell block (`npx hfkit`, `pnpm hfkit` or `hfkit`), with what follows it. */
const MOCK_HUB_LINE = /^\s*(?:npx |pnpm )?hfkit mock-hub\b([^#\n]*)/gm;

/** A sample, and the flags of the `hfkit mock-hub` line the page shows before it (`[]`: none shown, or none given). */
export interface PageSample {
  block: DocBlock;
  hubFlags: string[];
}

/**
 * A page's `ts` samples (not marked `fragment`), each with the `hfkit mock-hub` line last shown above it on the page:
 * the hub a reader has running when they reach the sample. `--port N` is dropped (any free port serves).
 */
export function pageSamples(page: string): PageSample[] {
  const samples: PageSample[] = [];
  let hubFlags: string[] = [];
  for (const block of markdownBlocks(page)) {
    if (block.lang === "sh") {
      for (const [, rest] of joinedLines(block.code).matchAll(MOCK_HUB_LINE))
        hubFlags = withoutPort(rest!.trim().split(/\s+/).filter(Boolean));
    } else if (block.lang === "ts" && !/\bfragment\b/.test(block.meta)) {
      samples.push({ block, hubFlags });
    }
  }
  return samples;
}

/** A shell block's lines with their continuations joined (`\` at a line's end), as the shell reads them. */
function joinedLines(code: string): string {
  return code.replace(/\\\r?\n/g, " ");
}

function withoutPort(flags: string[]): string[] {
  return flags.filter((flag, i) => !/^--port(=|$)/.test(flag) && flags[i - 1] !== "--port");
}

/** A running `hfkit mock-hub`, and the variables it printed for the shell where code runs. */
export interface PageHub {
  env: Record<string, string>;
  stop(): void;
}

/** Starts `hfkit mock-hub FLAGS` on a free port and takes its `export NAME=VALUE` lines, as a reader pastes them. */
export function startPageHub(flags: string[]): Promise<PageHub> {
  const child = spawn(process.execPath, [CLI, "mock-hub", ...flags, "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-4000)));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`hfkit mock-hub ${flags.join(" ")} exited ${code}\n${stderr}`)));
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const env = exported(stdout);
      if (env.HF_INFERENCE_ENDPOINT === undefined || (flags.includes("--strict") && env.HF_TOKEN === undefined)) return;
      resolve({ env, stop: () => stop(child) });
    });
  });
}

function exported(printed: string): Record<string, string> {
  return Object.fromEntries(
    [...printed.matchAll(/^export ([A-Z_]+)=(\S+)\n/gm)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, "")]),
  );
}

function stop(child: ChildProcess): void {
  child.removeAllListeners("exit");
  child.kill("SIGKILL");
}
