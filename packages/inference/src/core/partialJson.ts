/**
 * The value a prefix of a JSON text holds so far: a streamed answer cut anywhere (inside a string, a number, a
 * key, after a comma) reads as the object built up to there. A key whose value has not begun is left out; a string
 * cut short is the text so far; a number or literal cut short is left out until it is whole. Loaded with the
 * structured output only.
 */

const WHITE = /[\s]/;
/** What a number may be once it ends: JSON's grammar. */
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
/** The most nesting read: deeper than this, the rest is left out (a hostile answer cannot exhaust the stack). */
const MAX_DEPTH = 200;

/** A value read, and whether the text held all of it. */
interface Read {
  value: unknown;
  /** The value was cut short (or not begun): leave it out of its container unless it is a string or a container. */
  cut: boolean;
  /** Nothing was read: the text ended before the value began. */
  none?: boolean;
}

/** The value of `text` read as far as it goes; undefined when no value has begun (or the text is not JSON). */
export function parsePartialJson(text: string): unknown {
  const reader = new PrefixReader(text);
  try {
    const read = reader.value(0);
    return kept(read) ? read.value : undefined;
  } catch {
    return undefined; // not JSON: no partial value
  }
}

/** A member read is kept when it is whole, or a string or container cut short (its part so far). */
const kept = (read: Read): boolean => !read.none && (!read.cut || typeof read.value === "string" || typeof read.value === "object");

class PrefixReader {
  private i = 0;
  constructor(private readonly s: string) {}

  private skip(): void {
    while (this.i < this.s.length && WHITE.test(this.s[this.i] ?? "")) this.i++;
  }

  private get ended(): boolean {
    return this.i >= this.s.length;
  }

  value(depth: number): Read {
    this.skip();
    if (this.ended) return { value: undefined, cut: true, none: true };
    if (depth > MAX_DEPTH) return { value: undefined, cut: true, none: true };
    const c = this.s[this.i];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    return this.literal();
  }

  private object(depth: number): Read {
    this.i++; // {
    const out: Record<string, unknown> = {};
    this.skip();
    if (this.s[this.i] === "}") {
      this.i++;
      return { value: out, cut: false };
    }
    for (;;) {
      this.skip();
      if (this.ended) return { value: out, cut: true };
      if (this.s[this.i] !== '"') throw new SyntaxError("a key must be a string");
      const key = this.string();
      if (key.cut) return { value: out, cut: true };
      this.skip();
      if (this.ended) return { value: out, cut: true };
      if (this.s[this.i] !== ":") throw new SyntaxError("a key must be followed by ':'");
      this.i++;
      const read = this.value(depth + 1);
      if (kept(read)) Object.defineProperty(out, key.value as string, { value: read.value, enumerable: true, writable: true, configurable: true });
      if (read.cut) return { value: out, cut: true };
      const next = this.separator("}");
      if (next === "cut") return { value: out, cut: true };
      if (next === "end") return { value: out, cut: false };
    }
  }

  private array(depth: number): Read {
    this.i++; // [
    const out: unknown[] = [];
    this.skip();
    if (this.s[this.i] === "]") {
      this.i++;
      return { value: out, cut: false };
    }
    for (;;) {
      const read = this.value(depth + 1);
      if (kept(read)) out.push(read.value);
      if (read.cut) return { value: out, cut: true };
      const next = this.separator("]");
      if (next === "cut") return { value: out, cut: true };
      if (next === "end") return { value: out, cut: false };
    }
  }

  /** After a member: a comma (another follows), the closing bracket, or the text's end. */
  private separator(close: string): "more" | "end" | "cut" {
    this.skip();
    if (this.ended) return "cut";
    const c = this.s[this.i++];
    if (c === ",") return "more";
    if (c === close) return "end";
    throw new SyntaxError(`expected ',' or '${close}'`);
  }

  private string(): Read {
    let out = "";
    let j = this.i + 1;
    for (;;) {
      const end = this.s.indexOf('"', j);
      const slash = this.s.indexOf("\\", j);
      if (slash >= 0 && (end < 0 || slash < end)) {
        out += this.s.slice(j, slash);
        const escaped = this.escape(slash);
        if (escaped === undefined) {
          this.i = this.s.length;
          return { value: out, cut: true };
        }
        out += escaped.text;
        j = escaped.next;
        continue;
      }
      if (end < 0) {
        this.i = this.s.length;
        return { value: out + this.s.slice(j), cut: true };
      }
      this.i = end + 1;
      return { value: out + this.s.slice(j, end), cut: false };
    }
  }

  /** The escape at `at` (a backslash): its text and where the string goes on; undefined when the text ends inside it. */
  private escape(at: number): { text: string; next: number } | undefined {
    const c = this.s[at + 1];
    if (c === undefined) return undefined;
    if (c === "u") {
      const hex = this.s.slice(at + 2, at + 6);
      if (hex.length < 4) return undefined;
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new SyntaxError("bad \\u escape");
      return { text: String.fromCharCode(parseInt(hex, 16)), next: at + 6 };
    }
    const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
    const text = simple[c];
    if (text === undefined) throw new SyntaxError("bad escape");
    return { text, next: at + 2 };
  }

  private number(): Read {
    const start = this.i;
    while (!this.ended && /[-+0-9.eE]/.test(this.s[this.i] ?? "")) this.i++;
    const text = this.s.slice(start, this.i);
    if (this.ended) return NUMBER.test(text) ? { value: Number(text), cut: true } : { value: undefined, cut: true, none: true };
    if (!NUMBER.test(text)) throw new SyntaxError("bad number");
    return { value: Number(text), cut: false };
  }

  private literal(): Read {
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      const have = this.s.slice(this.i, this.i + word.length);
      if (have === word) {
        this.i += word.length;
        return { value, cut: false };
      }
      if (this.i + have.length === this.s.length && word.startsWith(have)) {
        this.i = this.s.length;
        return { value: undefined, cut: true, none: true };
      }
    }
    throw new SyntaxError("not JSON");
  }
}
