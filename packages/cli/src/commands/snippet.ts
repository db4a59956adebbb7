import { readFile } from "node:fs/promises";
import { runSnippetCommand } from "@hfkit/snippets";
import type { Io } from "../io";

/** `hfkit snippet MODEL_ID …`: code for a model, from the Hub API or --model-file; never the user's token. */
export function snippet(argv: string[], io: Io): Promise<number> {
  return runSnippetCommand(argv, {
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    readFile: (path) => readFile(path, "utf8"),
    fetch: (url, init) => fetch(url, init),
  });
}
