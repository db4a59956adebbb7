import { readFile } from "node:fs/promises";
import { runSnippetCommand } from "@hfkit/snippets";
import type { Io } from "../io";
import { printable } from "../safeText";

/** `hfkit snippet MODEL_ID …`: code for a model, from the Hub API or --model-file; never the user's token. */
export function snippet(argv: string[], io: Io): Promise<number> {
  // Snippets and errors quote the Hub's answer (model ids, tags).
  const shown = (stream: Io["stdout"]) => ({ write: (text: string) => stream.write(printable(text)) });
  return runSnippetCommand(argv, {
    stdout: shown(io.stdout),
    stderr: shown(io.stderr),
    env: io.env,
    readFile: (path) => readFile(path, "utf8"),
    fetch: (url, init) => fetch(url, init),
  });
}
