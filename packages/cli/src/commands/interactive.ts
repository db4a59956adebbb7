import { createInterface } from "node:readline";
import type { ChatCompletionInputMessage } from "@hfkit/inference";
import { EXIT } from "../io";
import { report } from "../report";
import { answer, type Session } from "./answer";

const EXIT_WORDS = new Set(["/exit", "/quit"]);

/**
 * A conversation: a "> " prompt, each answer streamed, the history (user and assistant turns) sent
 * with every request. /exit, /quit or end of input (Ctrl-D) ends it (exit 0). Ctrl-C while an answer
 * streams cancels that answer and its turn; Ctrl-C at the prompt exits 130. A failed turn prints its
 * one-line error and the prompt comes back.
 */
export async function converse(s: Session, history: ChatCompletionInputMessage[], first?: string): Promise<number> {
  const { io } = s;
  const terminal = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal, prompt: "> " });
  // Created now, so no line typed while the first answer streams is lost.
  const lines = rl[Symbol.asyncIterator]();
  let code: number = EXIT.ok;
  // At a terminal readline reads Ctrl-C itself (raw mode); elsewhere it is the process's SIGINT.
  rl.on("SIGINT", () => io.interrupts.fire());
  const releaseIdle = io.interrupts.push(() => {
    code = EXIT.interrupted;
    io.stdout.write("\n");
    rl.close();
  });

  const turn = async (text: string): Promise<void> => {
    history.push({ role: "user", content: text });
    try {
      const reply = await answer(s, history);
      if (reply === undefined) history.pop();
      else history.push({ role: "assistant", content: reply });
    } catch (error) {
      history.pop();
      report(error, io, s.verbose);
    }
  };

  try {
    if (first) await turn(first);
    for (;;) {
      rl.prompt();
      const next = await lines.next();
      if (next.done) {
        // Ctrl-D at a terminal: the shell's prompt on a line of its own.
        if (terminal && code === EXIT.ok) io.stdout.write("\n");
        break;
      }
      const text = String(next.value).trim();
      if (EXIT_WORDS.has(text)) break;
      if (text) await turn(text);
    }
  } finally {
    releaseIdle();
    rl.close();
  }
  return code;
}
