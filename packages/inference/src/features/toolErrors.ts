/**
 * The one place the tool runner makes its errors. A tool's words (what it threw, a validator's failure) reach the
 * model as the call's answer and stay in the run's steps, which apps print: the token is redacted from the message
 * and from the whole cause chain (`sealError`), and each of them is cut (a tool may throw megabytes).
 */
import { sealError, serverText } from "../core/redact";
import { ToolError } from "../core/toolError";
import type { ToolCallStatus } from "../types";

/** The most characters of a ToolError's message (what the model is sent), and of each message of its cause chain. */
export const MAX_ERROR_CHARS = 1_000;
/** The most characters of each stack of the cause chain. */
const MAX_STACK_CHARS = 4_000;
/** The most causes kept of a chain: a longer one ends in a note. */
const MAX_CAUSES = 8;

type Status = Exclude<ToolCallStatus, "ok">;

/** A ToolError saying `message`, with `from.cause` (what was thrown) if given: both redacted and cut. */
export function toolError(status: Status, tool: string, message: string, secret?: string, from?: { cause: unknown }) {
  let options: { cause: unknown } | undefined;
  try {
    options = from && { cause: kept(from.cause, secret, 0) };
  } catch {
    options = { cause: "[a thrown value that could not be read]" }; // a getter that throws: nothing of it is kept
  }
  return sealError(new ToolError(status, tool, serverText(message, secret, MAX_ERROR_CHARS), options), secret);
}

/** What a thrown value says, whatever it is: String() of some objects throws, JSON.stringify of others. */
export function said(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return String(thrown.message);
    if (typeof thrown !== "object" || thrown === null) return String(thrown);
    return JSON.stringify(thrown) ?? Object.prototype.toString.call(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}

/**
 * `thrown` as a cause: an error that is short enough stays itself (`sealError` replaces it by a redacted copy when
 * it holds a credential); a longer one becomes a copy cut to size; any other object, its words cut to size.
 */
function kept(thrown: unknown, secret: string | undefined, depth: number): unknown {
  if (!(thrown instanceof Error)) {
    const plain = typeof thrown !== "object" && typeof thrown !== "function" && typeof thrown !== "string";
    return plain ? thrown : serverText(said(thrown), secret, MAX_ERROR_CHARS);
  }
  const { cause, stack } = thrown;
  const message = said(thrown);
  const inner = cause === undefined ? undefined : depth < MAX_CAUSES ? kept(cause, secret, depth + 1) : "[more causes]";
  const short = message.length <= MAX_ERROR_CHARS && (stack ?? "").length <= MAX_STACK_CHARS;
  if (short && inner === cause) return thrown;
  const text = serverText(message, secret, MAX_ERROR_CHARS);
  const copy = new Error(text, inner === undefined ? undefined : { cause: inner });
  copy.name = serverText(String(thrown.name), secret, 100);
  copy.stack = stack && serverText(String(stack), secret, MAX_STACK_CHARS);
  return copy;
}
