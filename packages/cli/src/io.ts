import type { Interrupts } from "./interrupts";

/** What a command may touch, so tests can run commands in-process as well as spawned. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** What Ctrl-C does: a command pushes a handler while it has something to cancel. */
  interrupts: Interrupts;
  /** Resolves when the user asks to stop (Ctrl-C / SIGTERM) — for long-running commands. */
  untilStopped(): Promise<void>;
}

/** Exit codes: 0 ok, 1 the call failed, 2 bad usage, 130 interrupted (Ctrl-C). */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export class UsageError extends Error {
  override name = "UsageError";
}

export function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (c: string) => (text += c));
    stream.on("end", () => resolve(text));
    stream.on("error", reject);
  });
}
