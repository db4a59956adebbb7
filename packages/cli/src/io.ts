/** What a command may touch, so tests can run commands in-process as well as spawned. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Resolves when the user asks to stop (SIGINT / SIGTERM) — for long-running commands. */
  untilStopped(): Promise<void>;
}

/** Exit codes: 0 ok, 1 the call failed, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

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

export function positiveNumber(name: string, value: string | undefined, integer = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${name} must be a ${integer ? "whole number" : "number"} >= 0 (got "${value}")`);
  }
  return n;
}
