/**
 * What the recorded bytes say, read independently of the SDK: a WHATWG event-stream parser, the
 * documented normalisation of TGI shapes, and the outcome a stream must have under the termination
 * rules of ARCHITECTURE.md.
 */

export interface SseEvent {
  type: string;
  data: string;
}

/**
 * The events of an event-stream text, per the WHATWG rules: LF, CRLF or CR line ends, a leading BOM
 * ignored, `data:` with or without one space, comments skipped, and an event dispatched only by a
 * blank line (an unterminated last event is discarded, as the spec says).
 */
export function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = body.split(/\r\n|\r|\n/);
  lines.pop(); // the text after the last line end is not a complete line
  let data: string[] = [];
  let type = "";
  for (const line of lines) {
    if (line === "") {
      if (data.length > 0) events.push({ type: type || "message", data: data.join("\n") });
      data = [];
      type = "";
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") data.push(value);
    else if (name === "event") type = value;
  }
  return events;
}

export const isDone = (data: string): boolean => data.trim() === "[DONE]";

type Json = Record<string, unknown>;

/** TGI's older finish reasons in OpenAI's words (BACKENDS.md, ARCHITECTURE.md). */
const FINISH_REASONS: Record<string, string> = { eos_token: "stop", stop_sequence: "stop" };

function normalizeToolCalls(calls: unknown): unknown {
  const list = Array.isArray(calls) ? calls : [calls];
  return list.map((call) => {
    const c = { ...(call as Json) };
    if (typeof c.id === "number") c.id = String(c.id);
    const fn = c.function as Json | undefined;
    if (fn && typeof fn.arguments === "object" && fn.arguments !== null) {
      c.function = { ...fn, arguments: JSON.stringify(fn.arguments) };
    }
    return c;
  });
}

/** A chunk's `usage: null` and a choice's `logprobs: null` are absent (undefined), as the SDK's types say. */
function absentForNull(object: Json, key: string): void {
  if (object[key] === null) object[key] = undefined;
}

function normalizeFinish(choice: Json): void {
  const reason = choice.finish_reason;
  // The EOS token's text that TGI < 2.1 sends with `eos_token` is not part of the answer.
  const delta = choice.delta as Json | undefined;
  if (reason === "eos_token" && typeof delta?.content === "string") delta.content = "";
  if (typeof reason === "string" && FINISH_REASONS[reason]) choice.finish_reason = FINISH_REASONS[reason];
}

/**
 * A stream chunk in OpenAI's shapes: `usage: null` and `logprobs: null` -> absent; `eos_token` / `stop_sequence` -> `stop` (the EOS text of an
 * `eos_token` chunk -> ""); a `tool_calls` delta
 * that is one object -> an array; numeric ids -> strings; object arguments -> JSON strings.
 */
export function normalizeChunk(chunk: Json): Json {
  const out = structuredClone(chunk);
  absentForNull(out, "usage");
  for (const choice of (out.choices as Json[] | undefined) ?? []) {
    absentForNull(choice, "logprobs");
    normalizeFinish(choice);
    const delta = choice.delta as Json | undefined;
    if (delta?.tool_calls) delta.tool_calls = normalizeToolCalls(delta.tool_calls);
  }
  return out;
}

/** A whole chat answer in OpenAI's shapes (same rules as the chunks). */
export function normalizeAnswer(answer: Json): Json {
  const out = structuredClone(answer);
  for (const choice of (out.choices as Json[] | undefined) ?? []) {
    absentForNull(choice, "logprobs");
    normalizeFinish(choice);
    const message = choice.message as Json | undefined;
    if (message?.tool_calls) message.tool_calls = normalizeToolCalls(message.tool_calls);
  }
  return out;
}

/** How a stream must end. */
export type Outcome =
  | { kind: "complete" }
  /** The body ends (or stays silent) before every choice has finished. */
  | { kind: "incomplete" }
  /** An error object inside the stream; `body` is the event's JSON. */
  | { kind: "error"; body: unknown };

export interface ExpectedStream {
  chunks: Json[];
  outcome: Outcome;
  /** The last event is `[DONE]`. */
  done: boolean;
}

/** The chunks a client must yield for this event-stream text, and how the stream must end (n = 1). */
export function expectedStream(text: string): ExpectedStream {
  const chunks: Json[] = [];
  let finished = false;
  for (const event of sseEvents(text)) {
    if (event.type === "error")
      return { chunks, outcome: { kind: "error", body: parseLoose(event.data) }, done: false };
    if (isDone(event.data))
      return { chunks, outcome: chunks.length > 0 ? { kind: "complete" } : { kind: "incomplete" }, done: true };
    const parsed = JSON.parse(event.data) as Json;
    if (parsed.error != null) return { chunks, outcome: { kind: "error", body: parsed }, done: false };
    const chunk = normalizeChunk(parsed);
    for (const choice of (chunk.choices as Json[] | undefined) ?? []) if (choice.finish_reason) finished = true;
    chunks.push(chunk);
  }
  return { chunks, outcome: finished ? { kind: "complete" } : { kind: "incomplete" }, done: false };
}

/** A body as an error carries it: JSON when it is JSON, else the text as sent. */
export function parseLoose(text: string): unknown {
  const t = text.trim();
  if (t.startsWith("{") || t.startsWith("[")) {
    try {
      return JSON.parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

/** The server's own words in an error body, in the shapes seen (TGI, OpenAI, the proxy, plain text). */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() || undefined;
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as Json;
  if (typeof b.error === "string") return b.error;
  if (typeof b.error === "object" && b.error !== null && typeof (b.error as Json).message === "string") {
    return (b.error as Json).message as string;
  }
  if (typeof b.message === "string") return b.message;
  return undefined;
}
