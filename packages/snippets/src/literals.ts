/** Values that render the same way in JavaScript, Python and JSON. */
export type Literal = string | number | boolean | null | Literal[] | LiteralObject;
export type LiteralObject = { [key: string]: Literal | undefined };

interface Syntax {
  indent: string;
  key(name: string): string;
  true: string;
  false: string;
  null: string;
}

const JS: Syntax = {
  indent: "  ",
  key: (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)),
  true: "true",
  false: "false",
  null: "null",
};

const PYTHON: Syntax = {
  indent: "    ",
  key: (name) => JSON.stringify(name),
  true: "True",
  false: "False",
  null: "None",
};

function render(value: Literal, syntax: Syntax, level: number): string {
  if (value === null) return syntax.null;
  if (typeof value === "boolean") return value ? syntax.true : syntax.false;
  // A JSON string literal is also a valid JavaScript and Python string literal.
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  const inner = syntax.indent.repeat(level + 1);
  const entries = Array.isArray(value)
    ? value.map((item) => render(item, syntax, level + 1))
    : Object.entries(value)
        .filter((entry): entry is [string, Literal] => entry[1] !== undefined)
        .map(([name, item]) => `${syntax.key(name)}: ${render(item, syntax, level + 1)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return open + close;
  return `${open}\n${entries.map((entry) => `${inner}${entry},\n`).join("")}${syntax.indent.repeat(level)}${close}`;
}

/** A JavaScript expression, formatted as Prettier would (2 spaces, trailing commas). */
export const jsLiteral = (value: Literal, level = 0): string => render(value, JS, level);

/** A Python expression (4 spaces, trailing commas). */
export const pyLiteral = (value: Literal, level = 0): string => render(value, PYTHON, level);

/** `name(arg=value, ...)`: on one line while short and flat, else one argument per line. */
export function pyCall(name: string, args: Array<[string | null, Literal | undefined]>): string {
  const given = args.filter((arg): arg is [string | null, Literal] => arg[1] !== undefined);
  const parts = given.map(([key, value]) => (key === null ? "" : `${key}=`) + pyLiteral(value, 1));
  const oneLine = `${name}(${parts.join(", ")})`;
  if (oneLine.length <= 88 && !oneLine.includes("\n")) return oneLine;
  return `${name}(\n${parts.map((part) => `    ${part},\n`).join("")})`;
}

/** A word for a POSIX shell: as is when it has nothing special, else single-quoted. */
export function shellWord(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, "'\\''")}'`;
}
