import { existsSync, readdirSync, readFileSync } from "node:fs";
import { RECORDINGS_DIR } from "./global-setup";
import { parseYaml, type YamlValue } from "./yaml";

/** The recorded real exchanges, read in place from `fixtures/recorded/` of the repository. */
export const RECORDED_DIR = requireDir(RECORDINGS_DIR);

/** `dir`, or a clear failure when it is not there (the suite must not pass on no data). */
export function requireDir(dir: string): string {
  if (!existsSync(dir)) {
    throw new Error(
      `The recorded fixtures are missing: expected the folder ${dir} ` +
        "(fixtures/recorded/ of the repository). The recorded suite cannot run without it.",
    );
  }
  return dir;
}

export const TAPE_FILES = ["huggingface-js-tapes-v2.8.1.json", "huggingface-js-tapes-2025-04.json"] as const;
export const CASSETTE_DIR = "huggingface_hub-cassettes";

/** One recorded HTTP exchange, whatever file it came from. */
export interface Exchange {
  /** Where it is recorded: `<tape file>#<key prefix>` or `<cassette>#<interaction index>`. */
  id: string;
  url: string;
  method: string;
  /** The request body as sent, or null when the recorder did not keep it. */
  requestBody: string | null;
  status: number;
  statusText: string;
  /** Response headers as recorded (a cassette may record several values for one name). */
  headers: Array<[string, string[]]>;
  /** The response body exactly as recorded. */
  body: string;
}

interface Tape {
  url: string;
  init: { method?: string; headers?: Record<string, string>; body?: string | null };
  response: { status: number; statusText: string; headers: Record<string, string>; body: string };
}

function readTapes(file: string): Exchange[] {
  const tapes = JSON.parse(readFileSync(RECORDED_DIR + file, "utf8")) as Record<string, Tape>;
  return Object.entries(tapes).map(([key, t]) => ({
    id: `${file}#${key.slice(0, 10)}`,
    url: t.url,
    method: t.init.method ?? "GET",
    requestBody: t.init.body ?? null,
    status: t.response.status,
    statusText: t.response.statusText,
    headers: Object.entries(t.response.headers).map(([name, value]) => [name, [value]]),
    body: t.response.body,
  }));
}

type Mapping = { [key: string]: YamlValue };

function field(value: YamlValue | undefined, key: string, where: string): YamlValue {
  if (value === null || value === undefined || typeof value !== "object" || Array.isArray(value) || !(key in value)) {
    throw new Error(`${where}: no \`${key}\` in the cassette`);
  }
  return (value as Mapping)[key] ?? null;
}

function text(value: YamlValue, where: string): string {
  if (typeof value !== "string") throw new Error(`${where}: expected a string`);
  return value;
}

export function readCassette(name: string): Exchange[] {
  const doc = parseYaml(readFileSync(`${RECORDED_DIR}${CASSETTE_DIR}/${name}`, "utf8"));
  const interactions = field(doc, "interactions", name);
  if (!Array.isArray(interactions)) throw new Error(`${name}: interactions is not a list`);
  return interactions.map((interaction, n) => {
    const where = `${name}#${n}`;
    const request = field(interaction, "request", where);
    const response = field(interaction, "response", where);
    const status = field(response, "status", where);
    const headers = field(response, "headers", where) as Mapping;
    const body = field(field(response, "body", where), "string", where);
    const requestBody = field(request, "body", where);
    return {
      id: where,
      url: text(field(request, "uri", where), where),
      method: text(field(request, "method", where), where),
      requestBody: requestBody === null ? null : text(requestBody, where),
      status: Number(text(field(status, "code", where), where)),
      statusText: text(field(status, "message", where), where),
      headers: Object.entries(headers).map(([k, v]) => [
        k,
        Array.isArray(v) ? v.map((x) => text(x, where)) : [text(v, where)],
      ]),
      body: body === null ? "" : text(body, where),
    };
  });
}

export const CASSETTES: string[] = readdirSync(`${RECORDED_DIR}${CASSETTE_DIR}`)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

/** Every recorded exchange of every file, in file order. */
export const ALL_EXCHANGES: Exchange[] = [...TAPE_FILES.flatMap(readTapes), ...CASSETTES.flatMap(readCassette)];

export function header(ex: Exchange, name: string): string | undefined {
  const lower = name.toLowerCase();
  return ex.headers.find(([k]) => k.toLowerCase() === lower)?.[1][0];
}

export function contentType(ex: Exchange): string {
  return header(ex, "content-type") ?? "";
}

export function requestJson(ex: Exchange): Record<string, unknown> | undefined {
  if (ex.requestBody === null) return undefined;
  try {
    const parsed = JSON.parse(ex.requestBody) as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
