/**
 * Each streamed chat chunk's event text as the server sent it, for calls with `keepEventText` and chunks hfkit left
 * as sent (no dialect fix, no split thinking, nothing a feature added): a relay writes those bytes instead of
 * serialising the chunk again. Held on the chunk under a symbol (JSON and `structuredClone` leave it out; a
 * WeakMap costs half a parse per chunk); `Symbol.for`, so the ES and CommonJS copies of the package read the same.
 */
const TEXT = Symbol.for("hfkit.eventText");

type Kept = { [TEXT]?: string | undefined };
const kept = (chunk: object): Kept => chunk;

/**
 * The event text `chunk` came in, as the server sent it (one line of JSON), when the call asked for it
 * (`keepEventText: true`) and hfkit changed nothing in the chunk; otherwise undefined. A copy made by spreading
 * the chunk carries the text too: change such a copy and its text no longer says what it holds.
 */
export const eventText = (chunk: object): string | undefined => kept(chunk)[TEXT];

/** Keeps `text` as the text of `chunk`, which is exactly what `text` parses to. */
export function keepEventText(chunk: object, text: string): void {
  kept(chunk)[TEXT] = text;
}

/** Called by whatever changes a chunk after it was read: its text is no longer what it holds. */
export function forgetEventText(chunk: object): void {
  const it = kept(chunk);
  if (it[TEXT] !== undefined) it[TEXT] = undefined;
}
