import { isRecord, isRefused, parseJson } from "./http.js";
import type { FaultType, MockHubConfig } from "./types.js";

/** What one log line says of a request. */
export interface LoggedRequest {
  method: string;
  url: string;
  /** The model it named, if any. */
  model: string | undefined;
  response: Response;
  /** From its arrival to its status line. */
  ms: number;
  /** The scripted faults it met. */
  faults: readonly FaultType[];
}

/** Query values that may be secrets: by the parameter's name, or a Hugging Face token's prefix. */
const SECRET_NAME = /token|key|secret|auth|sig|pass|cred/i;

/** Where the lines go: `console.error` for `true`, the function given, nowhere by default. */
export function logSink(log: MockHubConfig["log"]): ((line: string) => void) | undefined {
  if (typeof log === "function") return log;
  return log === true ? (line) => console.error(line) : undefined;
}

/** `POST /v1/chat/completions model=hfkit/tgi-3.2 503 4ms fault=serverError`: never a header, a body or a secret. */
export function logLine({ method, url, model, response, ms, faults }: LoggedRequest): string {
  const status = isRefused(response) ? "refused" : String(response.status);
  const fault = faults.length > 0 ? ` fault=${faults.join(",")}` : "";
  // A model id from a body may hold anything: kept to one line of printable characters.
  const named = model === undefined ? "" : ` model=${model.replace(/[^\x21-\x7e]/g, "?")}`;
  return `${method} ${safePath(url)}${named} ${status} ${ms}ms${fault}`;
}

function safePath(url: string): string {
  const { pathname, searchParams } = new URL(url);
  const pairs = [...searchParams].map(
    ([name, value]) => `${name}=${SECRET_NAME.test(name) || /^hf_/i.test(value) ? "***" : value}`,
  );
  return pairs.length === 0 ? pathname : `${pathname}?${pairs.join("&")}`;
}

/** The body's `model`, for a log line (the path's, when it names one, is passed instead). */
export function bodyModel(text: string): string | undefined {
  const body = text.length > 0 && text.length < 1_000_000 ? parseJson(text) : undefined;
  return isRecord(body) && typeof body.model === "string" ? body.model : undefined;
}
