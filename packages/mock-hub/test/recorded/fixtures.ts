import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The recorded real exchanges, read in place from `fixtures/recorded/` of the repository. */
const RECORDED_DIR = fileURLToPath(new URL("../../../../fixtures/recorded/", import.meta.url));

export function recordedDir(): string {
  if (!existsSync(RECORDED_DIR)) throw new Error(`The recorded fixtures are missing: expected ${RECORDED_DIR}`);
  return RECORDED_DIR;
}

export interface Tape {
  url: string;
  init: { method?: string; headers?: Record<string, string>; body?: string };
  response: { status: number; headers: Record<string, string>; body: string };
}

const TAPE_FILES = ["huggingface-js-tapes-v2.8.1.json", "huggingface-js-tapes-2025-04.json"];

/** The tape whose key starts with `prefix` (keys are hashes). */
export function tape(prefix: string): Tape {
  for (const file of TAPE_FILES) {
    const tapes = JSON.parse(readFileSync(recordedDir() + file, "utf8")) as Record<string, Tape>;
    const key = Object.keys(tapes).find((candidate) => candidate.startsWith(prefix));
    if (key) return tapes[key] as Tape;
  }
  throw new Error(`no recorded tape ${prefix}`);
}

export interface Interaction {
  method: string;
  uri: string;
  requestBody: string | null;
  status: number;
  contentType: string | undefined;
  body: string;
}

/** The inference interactions of a VCR cassette (Hub API look-ups left out), read with a minimal YAML reader. */
export function cassette(name: string): Interaction[] {
  const lines = readFileSync(`${recordedDir()}huggingface_hub-cassettes/${name}.yaml`, "utf8").split("\n");
  const starts = lines.flatMap((line, i) => (line.startsWith("- request:") ? [i] : []));
  return starts
    .map((start, n) => lines.slice(start, starts[n + 1] ?? lines.length))
    .filter((block) => !block.some((line) => line.startsWith("    uri: https://huggingface.co/api/")))
    .map(interaction);
}

function interaction(lines: string[]): Interaction {
  const responseAt = lines.findIndex((line) => line === "  response:");
  const request = lines.slice(0, responseAt);
  const response = lines.slice(responseAt);
  const value = (block: string[], key: string): string | null => {
    const i = block.findIndex((line) => line.startsWith(key));
    return i < 0 ? null : scalar(block, i, key.length);
  };
  const typeAt = response.findIndex((line) => /^ {6}content-type:$/i.test(line));
  return {
    method: value(request, "    method: ") ?? "",
    uri: value(request, "    uri: ") ?? "",
    requestBody: value(request, "    body: "),
    status: Number(value(response, "      code: ")),
    contentType: typeAt < 0 ? undefined : response[typeAt + 1]?.replace(/^ {6}- /, ""),
    body: value(response, "      string: ") ?? "",
  };
}

/** A plain or single-quoted YAML scalar starting at `column` of `lines[at]`, folded as YAML folds it. */
function scalar(lines: string[], at: number, column: number): string | null {
  const first = (lines[at] ?? "").slice(column);
  if (first.startsWith('"')) throw new Error("double-quoted YAML scalars are not read");
  if (!first.startsWith("'")) return first === "null" ? null : first;
  const parts: string[] = [];
  let rest = first.slice(1);
  for (let i = at; ; rest = (lines[++i] ?? "").trim()) {
    const end = closingQuote(rest);
    parts.push(end < 0 ? rest : rest.slice(0, end));
    if (end >= 0 || i >= lines.length) break;
  }
  return fold(parts).replace(/''/g, "'");
}

function closingQuote(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "'") continue;
    if (text[i + 1] === "'") i++;
    else return i;
  }
  return -1;
}

/** Line breaks fold to a space; each blank line stands for one newline. */
function fold(parts: string[]): string {
  let out = parts[0] ?? "";
  let blanks = 0;
  for (const [i, part] of parts.entries()) {
    if (i === 0) continue;
    if (part === "" && i < parts.length - 1) {
      blanks++;
      continue;
    }
    out += (blanks > 0 ? "\n".repeat(blanks) : " ") + part;
    blanks = 0;
  }
  return out;
}
