import { CHAT_HELP, chat } from "./commands/chat";
import { MOCK_HUB_HELP, mockHub, PROXY_HELP, proxy } from "./commands/serve";
import { snippet } from "./commands/snippet";
import { EXIT, type Io, UsageError } from "./io";
import { report } from "./report";
import { VERSION } from "./version";

/** Each command resolves to nothing (success) or its own exit code; `help` undefined: it prints its own. */
const COMMANDS: Record<string, { run: (argv: string[], io: Io) => Promise<number | void>; help?: string }> = {
  chat: { run: chat, help: CHAT_HELP },
  proxy: { run: proxy, help: PROXY_HELP },
  snippet: { run: snippet },
  "mock-hub": { run: mockHub, help: MOCK_HUB_HELP },
};

const HELP = `hfkit ${VERSION} — Hugging Face inference from the command line

Commands:
  hfkit chat [PROMPT]        stream a chat answer; no prompt on a terminal: a conversation (hfkit chat --help)
  hfkit proxy --target URL   an OpenAI-compatible proxy in front of HF backends
  hfkit snippet MODEL_ID     ready-to-run code for a model (JS, Python, cURL)
  hfkit mock-hub             start the local emulator of the HF backends, with scripted models and faults

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
    return report(error, io, rest.includes("--verbose"));
  }
}
