import type { ParseArgsConfig } from "node:util";
import { UsageError } from "./io";

const NEGATIVE = /^-(\d|\.\d)/;

/**
 * The arguments for \`util.parseArgs\`, except that a value option followed by a negative number
 * (\`--max-tokens -1\`) takes it as its value (\`--max-tokens=-1\`), so the range check names the flag
 * instead of parseArgs calling the argument "ambiguous".
 */
export function withNegatives(argv: string[], options: NonNullable<ParseArgsConfig["options"]>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--") return [...out, ...argv.slice(i)];
    const name = arg.startsWith("--")
      ? arg.slice(2)
      : Object.keys(options).find((key) => arg === `-${options[key]?.short}`);
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === "string" && next !== undefined && NEGATIVE.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export interface Range {
  min: number;
  max?: number;
  integer?: boolean;
}

/** A numeric flag's value, or a usage error that names the flag and the allowed range. */
export function numberFlag(name: string, value: string | undefined, range: Range): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === "" ? NaN : Number(value);
  const { min, max, integer = false } = range;
  if (!Number.isFinite(n) || n < min || (max !== undefined && n > max) || (integer && !Number.isInteger(n))) {
    const kind = integer ? "a whole number" : "a number";
    const bounds = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${name} must be ${kind} ${bounds} (got "${value}")`);
  }
  return n;
}
