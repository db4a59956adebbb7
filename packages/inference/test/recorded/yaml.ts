/**
 * The YAML that VCR.py writes, and nothing more: block mappings and sequences (a sequence may sit at
 * its key's indentation), plain scalars, single- and double-quoted scalars over several lines with
 * YAML's line folding and escapes, `{}` and `[]`. Plain scalars stay strings, except `null` and `~`.
 * Anything else (anchors, tags, block scalars, flow collections with content) is refused, loudly.
 */

export type YamlValue = string | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
}

export function parseYaml(source: string): YamlValue {
  const reader = new Reader(source.replace(/^\uFEFF/, "").split(/\r?\n/));
  const value = reader.node(0);
  reader.expectEnd();
  return value;
}

class Reader {
  private at = 0;

  constructor(private readonly lines: string[]) {}

  /** The next line with content (blank lines and comments skipped), without consuming it. */
  private peek(): Line | undefined {
    while (this.at < this.lines.length) {
      const raw = this.lines[this.at] ?? "";
      const text = raw.trimStart();
      if (text !== "" && !text.startsWith("#")) return { indent: raw.length - text.length, text: text.trimEnd() };
      this.at++;
    }
    return undefined;
  }

  expectEnd(): void {
    const line = this.peek();
    if (line) this.fail(`unexpected content: ${line.text.slice(0, 60)}`);
  }

  private fail(message: string): never {
    throw new Error(`YAML line ${this.at + 1}: ${message}`);
  }

  /** The block node starting at the next content line, which must be indented by at least `min`. */
  node(min: number): YamlValue {
    const line = this.peek();
    if (!line || line.indent < min) return null;
    if (isSequenceItem(line.text)) return this.sequence(line.indent);
    if (keyOf(line.text) !== undefined) return this.mapping(line.indent);
    this.at++;
    return this.scalar(line.text, line.indent - 1);
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = this.peek(); line && line.indent === indent && isSequenceItem(line.text); line = this.peek()) {
      const rest = line.text.slice(1).trimStart();
      if (rest === "") {
        this.at++;
        items.push(this.node(indent + 1));
        continue;
      }
      // "- key: value" opens a mapping whose keys sit two columns right of the dash.
      const column = indent + (line.text.length - rest.length);
      this.lines[this.at] = " ".repeat(column) + rest;
      items.push(keyOf(rest) !== undefined ? this.mapping(column) : this.itemScalar(rest, indent));
    }
    return items;
  }

  private itemScalar(text: string, indent: number): YamlValue {
    this.at++;
    return this.scalar(text, indent);
  }

  private mapping(indent: number): { [key: string]: YamlValue } {
    const out: { [key: string]: YamlValue } = {};
    for (let line = this.peek(); line && line.indent === indent && !isSequenceItem(line.text); line = this.peek()) {
      const key = keyOf(line.text);
      if (key === undefined) this.fail(`expected "key: value", got: ${line.text.slice(0, 60)}`);
      const rest = line.text.slice(key.length + 1).trimStart();
      this.at++;
      if (Object.hasOwn(out, key)) this.fail(`duplicate key ${key}`);
      if (rest !== "") out[key] = this.scalar(rest, indent);
      else {
        const next = this.peek();
        if (next && next.indent === indent && isSequenceItem(next.text)) out[key] = this.sequence(indent);
        else out[key] = this.node(indent + 1);
      }
    }
    return out;
  }

  /**
   * A scalar whose first line (already consumed) is `first`; its continuation lines are those indented
   * more than `parentIndent`.
   */
  private scalar(first: string, parentIndent: number): YamlValue {
    if (first.startsWith("'") || first.startsWith('"')) return this.quoted(first);
    if (first === "{}") return {};
    if (first === "[]") return [];
    if (/^[&*!|>[{@`%]/.test(first)) this.fail(`unsupported YAML construct: ${first.slice(0, 40)}`);
    const parts = [stripComment(first)];
    for (;;) {
      const start = this.at;
      const next = this.peek();
      if (!next || next.indent <= parentIndent) {
        this.at = start;
        break;
      }
      for (let i = start; i < this.at; i++) parts.push("");
      parts.push(stripComment(next.text));
      this.at++;
    }
    const text = fold(parts);
    return text === "null" || text === "~" ? null : text;
  }

  /** A single- or double-quoted scalar; the lines it spans are consumed. */
  private quoted(first: string): string {
    const quote = first[0] as "'" | '"';
    let out = "";
    /** Characters before this index came from escapes: folding never trims them. */
    let kept = 0;
    let line = first.slice(1);
    for (;;) {
      let i = 0;
      while (i < line.length) {
        const ch = line[i] as string;
        if (ch === quote) {
          if (quote === "'" && line[i + 1] === "'") {
            out += "'";
            i += 2;
            continue;
          }
          const after = line.slice(i + 1).trim();
          if (after !== "" && !after.startsWith("#")) this.fail(`text after a closing quote: ${after.slice(0, 40)}`);
          return out;
        }
        if (quote === '"' && ch === "\\") {
          if (i === line.length - 1) break; // an escaped line break: joined with nothing
          const [value, width] = escape(line, i + 1, (m) => this.fail(m));
          out += value;
          kept = out.length;
          i += 1 + width;
          continue;
        }
        out += ch;
        i++;
      }
      const escapedBreak = quote === '"' && i === line.length - 1;
      if (!escapedBreak) {
        out = out.slice(0, kept) + out.slice(kept).replace(/[ \t]+$/, "");
      }
      // `this.at` is the line after the current one: skip the empty lines, then take the next.
      let empty = 0;
      while (this.at < this.lines.length && (this.lines[this.at] ?? "").trim() === "") {
        empty++;
        this.at++;
      }
      if (this.at >= this.lines.length) this.fail("unterminated quoted scalar");
      line = (this.lines[this.at++] ?? "").trimStart();
      if (escapedBreak) out += "\n".repeat(empty);
      else out += empty > 0 ? "\n".repeat(empty) : " ";
      kept = escapedBreak ? out.length : kept;
    }
  }
}

function isSequenceItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

/** The key of a `key: value` or `key:` line, when the line is one (keys are plain here). */
function keyOf(text: string): string | undefined {
  if (/^['"]/.test(text)) return undefined;
  const m = /^([^\s#][^:]*?):(?: |$)/.exec(text);
  return m ? m[1] : undefined;
}

function stripComment(text: string): string {
  const at = text.search(/\s#/);
  return (at < 0 ? text : text.slice(0, at)).trim();
}

/** Line breaks of a flow scalar fold to a space; each empty line stands for one newline. */
function fold(parts: string[]): string {
  let out = parts[0] ?? "";
  let empty = 0;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === "") {
      empty++;
      continue;
    }
    out += (empty > 0 ? "\n".repeat(empty) : " ") + part;
    empty = 0;
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};

/** The escape after a backslash at `text[at]`: its value and how many characters it took. */
function escape(text: string, at: number, fail: (message: string) => never): [string, number] {
  const ch = text[at] as string;
  const simple = SIMPLE_ESCAPES[ch];
  if (simple !== undefined) return [simple, 1];
  const digits = ch === "x" ? 2 : ch === "u" ? 4 : ch === "U" ? 8 : 0;
  const hex = text.slice(at + 1, at + 1 + digits);
  if (digits === 0 || !new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) fail(`unknown escape \\${ch}`);
  return [String.fromCodePoint(Number.parseInt(hex, 16)), 1 + digits];
}
