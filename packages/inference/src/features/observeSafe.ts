/**
 * What an `observe` event may carry of a server's or a model's words (a model's name, a provider, a request id, a
 * finish reason): every event passes here before it is told, so OpenTelemetry, the proxy's log and any observer
 * receive the same safe values, whatever the server sent.
 */
import { envToken } from "../core/environment";
import { serverText } from "../core/redact";
import type { CallEvent } from "../types";

/** The longest text an event carries: longer is cut. */
export const MAX_EVENT_TEXT = 200;

/** The most finish reasons an end tells (OpenAI's `n` stops at 128): a choice's index past them is not told. */
export const MAX_CHOICES = 128;

/**
 * The finish reasons told as they are: OpenAI's chat reasons, the Responses API's statuses, TGI's and vLLM's
 * own; any other is told as `"other"` (a server chooses its words, not a backend's cardinality).
 */
const FINISH_REASONS = new Set([
  ...["stop", "length", "tool_calls", "content_filter", "function_call"],
  ...["eos_token", "stop_sequence", "abort", "error"],
  ...["completed", "incomplete", "failed", "cancelled", "in_progress", "queued"],
]);

/** A finish reason as an event tells it: one of the known ones, else `"other"`. */
export const finishReason = (reason: unknown): string =>
  typeof reason === "string" && FINISH_REASONS.has(reason) ? reason : "other";

/** Text as telemetry may hold it: the token, HF tokens, `Bearer …` redacted; no control characters; ≤ 200 chars. */
export const eventText = (value: unknown, secret?: string): string =>
  serverText(value, secret, MAX_EVENT_TEXT).replace(/\p{Cc}/gu, "?");

/** A value of an event with each string in it (in a list, in an object: `parameters`, `error`) made safe. */
function safeValue(value: unknown, secret: string | undefined, depth: number): unknown {
  if (typeof value === "string") return eventText(value, secret);
  if (depth > 1 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.slice(0, MAX_CHOICES).map((v) => safeValue(v, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = safeValue(v, secret, depth + 1);
  return out;
}

/** `event` with every string it carries made safe, and an end's finish reasons each a known one or `"other"`. */
export function safeEvent<E extends CallEvent>(event: E, secret: string | undefined): E {
  const out = safeValue(event, secret, 0) as E;
  if (out.type === "end") out.finishReasons = out.finishReasons.map(finishReason);
  return out;
}

/** The token of a call made with `args`, as its sending takes it (a malformed `HF_TOKEN` fails the call, not this). */
export function secretOf(args: object): string | undefined {
  const token: unknown = Reflect.get(args, "accessToken");
  if (typeof token === "string") return token;
  try {
    return envToken();
  } catch {
    return undefined;
  }
}
