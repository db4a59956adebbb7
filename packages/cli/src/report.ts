import { AbortError, AuthenticationError, InferenceError, InputError } from "@hfkit/inference";
import { colorOn, paint } from "./color";
import { EXIT, type Io, UsageError } from "./io";
import { printable } from "./safeText";

const TOKENS_URL = "https://huggingface.co/settings/tokens";

/** An error with what to do about it, added where the context is known (e.g. "raise --timeout"). */
export class Explained extends Error {
  constructor(
    readonly error: unknown,
    readonly hint: string,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** Prints the error as one line on stderr (a stack only with `verbose`); answers the exit code. */
export function report(error: unknown, io: Pick<Io, "stderr" | "env">, verbose: boolean): number {
  const hint = error instanceof Explained ? error.hint : undefined;
  const cause = error instanceof Explained ? error.error : error;
  if (cause instanceof AbortError) return EXIT.interrupted;
  const { line, code } = describe(cause, io.env);
  const p = paint(colorOn(io.stderr, io.env));
  // An error's message and stack may quote a server's body: shown escaped, painted after.
  io.stderr.write(`${p.bold(p.red("hfkit:"))} ${printable(`${line}${hint ? `; ${hint}` : ""}`)}\n`);
  const stack = (cause as Error | undefined)?.stack;
  if (verbose && stack) io.stderr.write(`${p.dim(printable(stack))}\n`);
  return code;
}

function describe(error: unknown, env: Record<string, string | undefined>): { line: string; code: number } {
  const e = (error ?? {}) as Error & { code?: string; port?: number };
  const firstLine = String(e.message ?? error).split("\n")[0] ?? "";
  // An InputError is a bad option or argument, found before any request: bad usage too.
  if (error instanceof UsageError || error instanceof InputError || e.code?.startsWith("ERR_PARSE_ARGS")) {
    return { line: `${error instanceof InputError ? `${e.name}: ` : ""}${firstLine}`, code: EXIT.usage };
  }
  if (e.code === "EADDRINUSE" || e.code === "EACCES") {
    const why = e.code === "EADDRINUSE" ? "is in use" : "needs privileges";
    return { line: `port ${e.port ?? "?"} ${why} (${e.code}); choose another with --port`, code: EXIT.failed };
  }
  const label = error instanceof InferenceError ? `${e.name}: ` : "";
  let line = `${label}${firstLine}`;
  // Without one, the SDK's error says that none was sent and to set HF_TOKEN: said once.
  if (error instanceof AuthenticationError && env.HF_TOKEN?.trim()) {
    line += `; HF_TOKEN was refused: check it, or make a new one at ${TOKENS_URL}`;
  }
  return { line, code: EXIT.failed };
}
