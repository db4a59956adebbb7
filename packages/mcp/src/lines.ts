/**
 * A stdio server's stdout as messages, one a line, each within its bound (in place of the SDK's read buffer, which
 * keeps up to 10 MiB of one line whatever the request). Past the largest message allowed, or past `maxListBytes`
 * while connecting, nothing more is kept and the connection breaks; an answer within it but past its own request's
 * bound (a call's) becomes that bound's error for the request, and the connection goes on.
 */
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { limitAnswer, type Reading, type requestOf } from "./limits";

type RequestId = string | number;
/** A request the client sent. */
export type Sent = NonNullable<ReturnType<typeof requestOf>>;

const NEWLINE = 0x0a;
const decoder = new TextDecoder();

/** The messages of a server's stdout, read within `reading`'s bounds; `answered(id)` is the request an answer ends. */
export class BoundedLines {
  /** The parts of the line being read, and its size so far. */
  private parts: Uint8Array[] = [];
  private size = 0;
  /** Lines read whole, not yet taken as messages. */
  private lines: { bytes: Uint8Array; size: number }[] = [];

  constructor(
    private readonly reading: Reading,
    private readonly answered: (id: RequestId) => Sent | undefined,
  ) {}

  /** Takes what the server wrote; once the connection broke, nothing more is kept (the server is being stopped). */
  append(chunk: Uint8Array): void {
    for (let from = 0; ;) {
      const end = chunk.indexOf(NEWLINE, from);
      if (end === -1) {
        if (from < chunk.length) this.take(chunk.subarray(from), 0);
        return;
      }
      if (!this.take(chunk.subarray(from, end), 1)) return;
      this.lines.push({ bytes: joined(this.parts, this.size), size: this.size });
      this.parts = [];
      this.size = 0;
      from = end + 1;
    }
  }

  /** The next message read whole; null when none is. */
  readMessage(): JSONRPCMessage | null {
    const line = this.lines.shift();
    if (line === undefined) return null;
    const message = deserializeMessage(decoder.decode(line.bytes).replace(/\r$/, ""));
    if (!("id" in message) || message.id === undefined || "method" in message) return message; // not an answer
    const sent = this.answered(message.id);
    if (sent === undefined || line.size <= this.reading.limitFor(sent.method)) return message;
    return limitAnswer(message.id, this.reading.tooLarge(sent.method, sent.tool));
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
    this.lines = [];
  }

  /** Keeps `part` of the line being read (and its line end, `ending` bytes); false when it passes a bound. */
  private take(part: Uint8Array, ending: number): boolean {
    if (this.reading.broken.aborted) return false;
    const overBudget = this.reading.count(part.length + ending);
    this.size += part.length;
    if (overBudget || this.size > this.reading.messageBytes) {
      this.reading.break(this.reading.tooLarge());
      this.clear();
      return false;
    }
    this.parts.push(part);
    return true;
  }
}

function joined(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
