/**
 * The value a prefix of a JSON text holds so far: a streamed answer cut anywhere (inside a string, a number, a
 * key, after a comma) reads as the object built up to there. A key whose value has not begun is left out; a string
 * cut short is the text so far; a number or literal cut short is left out until it is whole. Loaded with the
 * structured output only.
 *
 * Read incrementally, so that a stream costs its length, not its square: `PartialJson` takes the text piece by
 * piece and reads each character once; a value once whole (a member, a closed object or array) is built once and
 * shared by every later value; only the containers still open are copied for each value asked.
 */

const WHITE = /\s/;
/** What a number may be once it ends: JSON's grammar. */
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const HEX4 = /^[0-9a-fA-F]{4}$/;
/** The most nesting read: deeper than this, the rest is left out (a hostile answer cannot exhaust the stack). */
const MAX_DEPTH = 200;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t",
}; // prettier-ignore
const LITERALS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ["true", true],
  ["false", false],
  ["null", null],
]);
const WORDS = [...LITERALS.keys()];

/**
 * The most members the values taken from one reader may copy, per character read: past it, `affordable()` is false
 * until more text has come (a list of 100 000 items must not cost 100 000 copies a token).
 */
export const COPIES_PER_CHAR = 64;

/** The work of every reader of this process (tests count it): characters read, and members copied into values. */
export const partialJsonWork = { chars: 0, copied: 0 };

/** What the reader expects next. The last three read nothing more. */
const enum Next {
  Value, FirstItem, FirstKey, Key, Colon, Separator, Text, Escape, Number, Literal, Done, Stopped, Failed,
} // prettier-ignore

/** A container not yet closed: its members read whole so far (only ever shown copied), how many, the key being read. */
interface Open {
  readonly members: Record<string, unknown> | unknown[];
  count: number;
  key: string;
}

/** No value: the text ended before it began, or it is left out (a number not known to be whole). */
const NONE: unique symbol = Symbol("none");

const isWhite = (c: string): boolean => (c <= " " ? c === " " || (c >= "\t" && c <= "\r") : c > "~" && WHITE.test(c));
const isNumberChar = (c: string): boolean =>
  (c >= "0" && c <= "9") || c === "." || c === "-" || c === "+" || c === "e" || c === "E";
/** A member named by the model (`__proto__` defined, not assigned: it must not set the prototype). */
function define(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== "__proto__") o[key] = value;
  else Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The value of `text` read as far as it goes; undefined when no value has begun (or the text is not JSON). */
export function parsePartialJson(text: string): unknown {
  const reader = new PartialJson();
  reader.feed(text);
  return reader.value();
}

/** A JSON text read piece by piece: `feed` each piece as it comes, `value()` whenever the value so far is wanted. */
export class PartialJson {
  private next = Next.Value;
  private readonly stack: Open[] = [];
  private root: unknown;
  /** The string (or key) read so far, or the characters of a number or literal. */
  private text = "";
  private isKey = false;
  /** An escape begun in a string: `""` after the backslash, then `u` and the hex digits so far. */
  private escape = "";
  private read = 0;
  private copied = 0;

  feed(piece: string): void {
    this.read += piece.length;
    partialJsonWork.chars += piece.length;
    for (let i = 0; i < piece.length && this.next < Next.Done;) i = this.step(piece, i);
  }

  /** Whether `value()` now keeps the members copied by every value taken within COPIES_PER_CHAR per character read. */
  affordable(): boolean {
    return this.copied + this.cost() <= COPIES_PER_CHAR * this.read;
  }

  /** The members `value()` copies now: those of each container still open (a value already whole is shared). */
  private cost(): number {
    let members = 0;
    for (const open of this.stack) members += open.count;
    return members;
  }

  /** The value so far: a new object for each container still open, the same one for each value already whole. */
  value(): unknown {
    if (this.next === Next.Failed) return undefined;
    if (this.next === Next.Done) return this.root;
    const cost = this.cost();
    this.copied += cost;
    partialJsonWork.copied += cost;
    const text: unknown = (this.next === Next.Text || this.next === Next.Escape) && !this.isKey ? this.text : NONE;
    const value = this.stack.reduceRight((child, { members, key }) => {
      if (Array.isArray(members)) {
        const copy = members.slice();
        if (child !== NONE) copy.push(child);
        return copy;
      }
      const copy = { ...members };
      if (child !== NONE) define(copy, key, child);
      return copy;
    }, text);
    return value === NONE ? undefined : value;
  }

  /** Reads on from `s[i]`; answers where to go on. */
  private step(s: string, i: number): number {
    switch (this.next) {
      case Next.Text:
        return this.readText(s, i);
      case Next.Escape:
        return this.readEscape(s.charAt(i), i);
      case Next.Number:
        return this.readNumber(s, i);
      case Next.Literal:
        return this.readLiteral(s.charAt(i), i);
    }
    const c = s.charAt(i);
    if (isWhite(c)) return i + 1;
    switch (this.next) {
      case Next.Value:
        return this.begin(c, i);
      case Next.FirstItem:
        return c === "]" ? this.close(i) : this.begin(c, i);
      case Next.FirstKey:
        if (c === "}") return this.close(i);
      // falls through: a key, as after a comma
      case Next.Key:
        return c === '"' ? this.startText(true, i) : this.fail();
      case Next.Colon:
        if (c !== ":") return this.fail();
        this.next = Next.Value;
        return i + 1;
      default:
        return this.separator(c, i);
    }
  }

  /** A value begins with `c` (deeper than MAX_DEPTH, the rest of the text is left out). */
  private begin(c: string, i: number): number {
    if (this.stack.length > MAX_DEPTH) {
      this.next = Next.Stopped;
      return i;
    }
    if (c === "{" || c === "[") {
      this.stack.push({ members: c === "{" ? {} : [], count: 0, key: "" });
      this.next = c === "{" ? Next.FirstKey : Next.FirstItem;
      return i + 1;
    }
    if (c === '"') return this.startText(false, i);
    if (c === "-" || (c >= "0" && c <= "9")) {
      this.text = c;
      this.next = Next.Number;
      return i + 1;
    }
    this.text = "";
    this.next = Next.Literal;
    return this.readLiteral(c, i);
  }

  /** After a member: a comma (another follows) or the container's closing bracket. */
  private separator(c: string, i: number): number {
    const inArray = Array.isArray(this.stack.at(-1)?.members);
    if (c === ",") {
      this.next = inArray ? Next.Value : Next.Key;
      return i + 1;
    }
    return c === (inArray ? "]" : "}") ? this.close(i) : this.fail();
  }

  private close(i: number): number {
    this.whole(this.stack.pop()?.members);
    return i + 1;
  }

  /** A value was read whole: a member of the innermost open container, or the root. */
  private whole(value: unknown): void {
    const open = this.stack.at(-1);
    if (open === undefined) {
      this.root = value;
      this.next = Next.Done;
      return;
    }
    if (Array.isArray(open.members)) open.members.push(value);
    else define(open.members, open.key, value);
    open.count++;
    this.next = Next.Separator;
  }

  private startText(isKey: boolean, i: number): number {
    this.isKey = isKey;
    this.text = "";
    this.next = Next.Text;
    return i + 1;
  }

  /** A string's characters up to its closing quote or an escape. */
  private readText(s: string, i: number): number {
    let j = i;
    while (j < s.length && s[j] !== '"' && s[j] !== "\\") j++;
    this.text += s.slice(i, j);
    if (j === s.length) return j;
    if (s[j] === "\\") {
      this.next = Next.Escape;
      this.escape = "";
    } else if (this.isKey) {
      const open = this.stack.at(-1);
      if (open) open.key = this.text;
      this.next = Next.Colon;
    } else this.whole(this.text);
    return j + 1;
  }

  /** One character of an escape: a `\uXXXX` is checked once its four digits are in. */
  private readEscape(c: string, i: number): number {
    if (this.escape === "" && c !== "u") {
      const text = ESCAPES[c];
      if (text === undefined) return this.fail();
      this.text += text;
      this.next = Next.Text;
      return i + 1;
    }
    this.escape += c;
    if (this.escape.length < 5) return i + 1;
    const hex = this.escape.slice(1);
    if (!HEX4.test(hex)) return this.fail();
    this.text += String.fromCharCode(parseInt(hex, 16));
    this.next = Next.Text;
    return i + 1;
  }

  /** A number's characters; the first other character ends it, and it must then be JSON's. */
  private readNumber(s: string, i: number): number {
    let j = i;
    while (j < s.length && isNumberChar(s.charAt(j))) j++;
    this.text += s.slice(i, j);
    if (j === s.length) return j;
    if (!NUMBER.test(this.text)) return this.fail();
    this.whole(Number(this.text));
    return j;
  }

  /** One character of `true`, `false` or `null`. */
  private readLiteral(c: string, i: number): number {
    this.text += c;
    if (LITERALS.has(this.text)) this.whole(LITERALS.get(this.text));
    else if (!WORDS.some((word) => word.startsWith(this.text))) return this.fail();
    return i + 1;
  }

  /** Not JSON: no partial value, now or later. */
  private fail(): number {
    this.next = Next.Failed;
    return Infinity;
  }
}
