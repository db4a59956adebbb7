/**
 * A string an ECMAScript `pattern` matches, found by walking the pattern once: the first alternative, each
 * optional or repeated part once (`{n,m}`: n, at least one), the first character a class or escape allows.
 * Best effort: undefined for what it cannot walk (lookarounds, back-references) or when the result does not match.
 */
export function samplePattern(pattern: string): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, "u");
  } catch {
    return undefined;
  }
  try {
    const sample = new Walker(pattern).alternatives();
    return regex.test(sample) ? sample : undefined;
  } catch {
    return undefined;
  }
}

/** Letters first, then digits, then punctuation: a class takes the first it allows. */
const CANDIDATES = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890 -_.@/:+",
  ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)),
];

const CONTROL: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v", 0: "\0" };

class Walker {
  private at = 0;

  constructor(private readonly source: string) {}

  /** The first alternative of a `|` list (the others are read past). */
  alternatives(): string {
    const first = this.sequence();
    while (this.source[this.at] === "|") {
      this.at++;
      this.sequence();
    }
    return first;
  }

  private sequence(): string {
    let out = "";
    while (this.at < this.source.length && this.source[this.at] !== "|" && this.source[this.at] !== ")") {
      const atom = this.atom();
      out += atom.repeat(this.quantifier());
    }
    return out;
  }

  private atom(): string {
    const char = this.source[this.at++] ?? "";
    if (char === "^" || char === "$") return "";
    if (char === ".") return "a";
    if (char === "(") return this.group();
    if (char === "[") return firstMatching(this.classText());
    return char === "\\" ? this.escape() : char;
  }

  private group(): string {
    if (this.source.startsWith("?:", this.at)) this.at += 2;
    else if (/^\?<[A-Za-z]/.test(this.source.slice(this.at))) this.at = this.source.indexOf(">", this.at) + 1;
    else if (this.source[this.at] === "?") throw new Error("lookaround");
    const inner = this.alternatives();
    if (this.source[this.at++] !== ")") throw new Error("unclosed group");
    return inner;
  }

  /** `[…]` as written (escapes kept), for the engine to judge candidates against. */
  private classText(): string {
    const start = this.at - 1;
    while (this.at < this.source.length && this.source[this.at] !== "]")
      this.at += this.source[this.at] === "\\" ? 2 : 1;
    return this.source.slice(start, ++this.at);
  }

  private escape(): string {
    const char = this.source[this.at++] ?? "";
    if (char === "b" || char === "B") return "";
    if (/[1-9k]/.test(char)) throw new Error("back-reference");
    if (/[dDwWsS]/.test(char)) return firstMatching(`\\${char}`);
    if (char === "p" || char === "P") return firstMatching(`\\${char}${this.braced()}`);
    return CONTROL[char] ?? char;
  }

  private braced(): string {
    const end = this.source.indexOf("}", this.at) + 1;
    const text = this.source.slice(this.at, end);
    this.at = end;
    return text;
  }

  /** How many times the atom before is written: once for `?`, `*`, `+`; `{n,m}`: n, at least one when m allows. */
  private quantifier(): number {
    const char = this.source[this.at];
    let count = 1;
    if (char === "?" || char === "*" || char === "+") this.at++;
    else if (char === "{") {
      const [low = 1, high = low] = this.braced()
        .slice(1, -1)
        .split(",")
        .map((part) => (part === "" ? Infinity : Number(part)));
      count = Math.min(Math.max(low, Math.min(1, high)), 1000);
    } else return 1;
    if (this.source[this.at] === "?") this.at++;
    return count;
  }
}

function firstMatching(charClass: string): string {
  const regex = new RegExp(`^${charClass}$`, "u");
  const found = CANDIDATES.find((candidate) => regex.test(candidate));
  if (found === undefined) throw new Error("no candidate");
  return found;
}
