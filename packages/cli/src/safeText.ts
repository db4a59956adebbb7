/** Every control character (C0, DEL, C1); a `\r\n` pair is matched whole so it can stay. */
const CONTROLS = /\r\n|\p{Cc}/gu;
const KEPT = new Set(["\n", "\t", "\r\n"]);

/**
 * Text from a server as a terminal may show it: every control character but `\n`, `\t` and `\r\n`
 * becomes a visible `\u001b`-style escape, so no escape sequence (OSC 52 clipboard, window title, CSI
 * cursor moves, 8-bit CSI `\u009b`) and no bare `\r` reaches the terminal. Each character is escaped on
 * its own, so a sequence split across streamed chunks is caught too. The escapes are JSON's: a JSON
 * text passed through stays valid JSON with the same value.
 */
export function printable(text: string): string {
  return text.replace(CONTROLS, (c) => (KEPT.has(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}
