// Compiled by `pnpm typecheck` only: Node's own streams, env, readFile and fetch fit SnippetCommandIO as is.
import { readFile } from "node:fs/promises";
import { runSnippetCommand, type SnippetCommandIO } from "../src";

export const nodeIO: SnippetCommandIO = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  readFile: (path) => readFile(path, "utf8"),
  fetch,
};

export const exitCode: Promise<number> = runSnippetCommand(process.argv.slice(3), nodeIO);
