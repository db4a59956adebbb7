/**
 * Failover's commitment point, for chat and the Responses API alike: a streamed candidate is committed to at
 * the first value that carries something the user sees — text, a tool call, reasoning or a refusal — not at its
 * first chunk. What comes before (a role-only chunk, `response.created`) is held back; a failure there (an error
 * event, a cut, a stall) moves the call as a failure before any chunk does. Held values are handed on in order,
 * once each, when content arrives or the stream ends well. The hold is bounded: at {@link HELD_CHUNKS} values or
 * {@link HELD_BYTES} held, the candidate is committed to (it is alive and sending: never failed away from).
 */
import { noop, type Source } from "../core/source";
import { isRecord, type JsonObject } from "../core/json";

/** The most values held back before the first content; the next one commits. */
export const HELD_CHUNKS = 64;

/** The most bytes (as JSON) held back before the first content; the value that passes it commits. */
export const HELD_BYTES = 1024 * 1024;

const filled = (v: unknown): boolean => (typeof v === "string" ? v !== "" : Array.isArray(v) ? v.length > 0 : false);

/** A chat delta with text, reasoning (whichever name the server used), a refusal or a tool call. */
function deltaShows(delta: unknown): boolean {
  if (!isRecord(delta)) return false;
  const { content, reasoning, reasoning_content, refusal, tool_calls } = delta;
  return filled(content) || filled(reasoning) || filled(reasoning_content) || filled(refusal) || filled(tool_calls);
}

/** A part of an output item with text (or a refusal). */
const partShows = (part: unknown): boolean => isRecord(part) && (filled(part.text) || filled(part.refusal));

/** A Responses event with content: a non-empty delta, a whole text, a function call named. */
function eventShows(event: JsonObject): boolean {
  const type = String(event.type);
  if (type.endsWith(".delta")) return filled(event.delta);
  if (type.endsWith("_text.done") || type === "response.refusal.done") {
    return filled(event.text) || filled(event.refusal);
  }
  const item = event.item;
  if (!type.startsWith("response.output_item.") || !isRecord(item)) return false;
  return item.type === "function_call" || (Array.isArray(item.content) && item.content.some(partShows));
}

/** True for a chat chunk or a Responses event that carries something the user sees. */
export function carriesContent(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (Array.isArray(value.choices)) return value.choices.some((c: unknown) => isRecord(c) && deltaShows(c.delta));
  return typeof value.type === "string" && eventShows(value);
}

/** JSON's length of a value read from JSON (what holding it costs, near enough). */
const sizeOf = (value: unknown): number => JSON.stringify(value)?.length ?? 0;

/**
 * Reads `source` up to its commitment point: resolves to a source that yields every value read, in order, then
 * the rest; rejects, the source closed, when it fails before (the failure is the candidate's, as before a chunk).
 */
export async function committed<T>(source: Source<T>): Promise<Source<T>> {
  const held: (T | undefined)[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const value = source.poll();
      if (value !== undefined) {
        held.push(value);
        if (carriesContent(value) || held.length >= HELD_CHUNKS || (bytes += sizeOf(value)) >= HELD_BYTES) break;
      } else if (source.ended) {
        const failure = source.failure();
        if (failure) throw failure;
        break;
      } else await source.pull(noop);
    }
  } catch (error) {
    source.close();
    throw error;
  }
  return heldFirst(held, source);
}

/** `source` with `held` yielded first; each held value released as it is taken. */
function heldFirst<T>(held: (T | undefined)[], source: Source<T>): Source<T> {
  let next = 0;
  const waiting = (): boolean => next < held.length;
  return {
    poll() {
      if (!waiting()) return source.poll();
      const value = held[next];
      held[next++] = undefined;
      return value;
    },
    get ended() {
      return !waiting() && source.ended;
    },
    failure: () => (waiting() ? undefined : source.failure()),
    pull: (then) => source.pull(then),
    close() {
      held.length = next = 0;
      source.close();
    },
  };
}
