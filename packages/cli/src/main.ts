import { CHAT_HELP, chat } from "./commands/chat";
import { MOCK_HUB_HELP, mockHub, PROXY_HELP, proxy } from "./commands/serve";
import { SNIPPET_HELP, snippet } from "./commands/snippet";
import { EXIT, type Io, UsageError } from "./io";
import { report } from "./report";
import { VERSION } from "./version";

/** Each command resolves to nothing (success) or its own exit code; `help` undefined: it prints its own. */
const COMMANDS: Record<string, { run: (argv: string[], io: Io) => Promise<number | void>; help?: string }> = {
  chat: { run: chat, help: CHAT_HELP },
  proxy: { run: proxy, help: PROXY_HELP },
  snippet: { run: snippet, help: SNIPPET_HELP },
  "mock-hub": { run: mockHub, help: MOCK_HUB_HELP },
};

const HELP = `hfkit ${VERSION} — Hugging Face inference from the command line

Commands:
  hfkit chat [PROMPT]        stream a chat answer; no prompt on a terminal: a conversation (hfkit chat --help)
  hfkit proxy --target URL   an OpenAI-compatible proxy in front of HF backends
  hfkit snippet MODEL_ID     ready-to-run code for a model (JS, Python, cURL)
  hfkit mock-hub             start the local emulator of the HF backends (prints the lines to export), with scripted models and faults

  hfkit --help, hfkit --version

Exit codes: 0 ok, 1 the call failed, 2 bad usage, 130 interrupted (Ctrl-C).
Colour on a terminal only; NO_COLOR turns it off, FORCE_COLOR on.`;

/** Runs one command line; answers the exit code. Errors are one clear line (a stack only with --verbose). */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(`${HELP}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    return report(new UsageError(`unknown command "${name}" (try hfkit --help)`), io, false);
  }
  if (command.help && (rest.includes("--help") || rest.includes("-h"))) {
    io.stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }
  try {
    return (await command.run(rest, io)) ?? EXIT.ok;
  } catch (error) {
    return report(ownWords(error, name, command.help), io, rest.includes("--verbose"));
  }
}

/** Node's parser's errors in the CLI's own words: the option named plainly, and the nearest one the command has. */
function ownWords(error: unknown, name: string, help: string | undefined): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) return error;
  const message = error instanceof Error ? error.message : "";
  const option = /'(-{1,2}[^'\s]+)/.exec(message)?.[1];
  const known = [...new Set(help?.match(/--[a-z][a-z-]*/g) ?? [])];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    const near = nearest(option, known);
    return new UsageError(
      `unknown option ${option}${near ? `: did you mean ${near}?` : ""} (hfkit ${name} --help lists them)`,
    );
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const flag = /--[a-z][a-z-]*/.exec(message)?.[0] ?? option ?? "an option";
    return new UsageError(/argument missing/.test(message) ? `${flag} needs a value` : `${flag} takes no value`);
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return new UsageError(`hfkit ${name} takes no argument here (hfkit ${name} --help)`);
  return error;
}

/** The known option nearest `typed` (at most two edits away, or one a prefix of the other), if any. */
function nearest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const option of known) {
    const d = option.startsWith(typed) || typed.startsWith(option) ? 1 : distance(typed, option);
    if (d < bestDistance) {
      best = option;
      bestDistance = d;
    }
  }
  return best;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] ?? 0, ((d[i - 2] as number[])[j - 2] ?? 0) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] ?? Infinity;
}
