/**
 * What an hfkit call's events say, as the attributes of the OpenTelemetry GenAI conventions (semantic-conventions
 * v1.41.0): the request's parameters, the server, and the few attributes the metrics share with the span.
 */
import type { Attributes } from "@opentelemetry/api";

/** `gen_ai.provider.name`: hfkit's calls go to Hugging Face (the router or an endpoint) whichever provider serves. */
export const PROVIDER_NAME = "huggingface";

/** The numeric parameters hfkit reports, by their `gen_ai.request.*` name. */
const NUMERIC: ReadonlyArray<readonly [string, string]> = [
  ["temperature", "gen_ai.request.temperature"],
  ["top_p", "gen_ai.request.top_p"],
  ["top_k", "gen_ai.request.top_k"],
  ["max_tokens", "gen_ai.request.max_tokens"],
  ["max_new_tokens", "gen_ai.request.max_tokens"],
  ["frequency_penalty", "gen_ai.request.frequency_penalty"],
  ["presence_penalty", "gen_ai.request.presence_penalty"],
  ["seed", "gen_ai.request.seed"],
];

type Parameters = Readonly<Record<string, number | string | boolean>>;

/** The request's parameters as `gen_ai.request.*` attributes (hfkit's `start` event joins `stop` with commas). */
export function requestAttributes(parameters: Parameters): Attributes {
  const out: Attributes = {};
  for (const [key, name] of NUMERIC) {
    const value = parameters[key];
    if (typeof value === "number") out[name] = value;
  }
  const n = parameters.n;
  if (typeof n === "number" && n !== 1) out["gen_ai.request.choice.count"] = n;
  const stop = parameters.stop;
  if (typeof stop === "string" && stop !== "") out["gen_ai.request.stop_sequences"] = stop.split(",");
  return out;
}

/** `server.address` and `server.port` of an attempt's host (`host`, `host:port`, `[::1]:port`). */
export function serverAttributes(host: string): Attributes {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  if (!match?.[1]) return {};
  const address = match[1].replace(/^\[|\]$/g, "");
  return match[2] ? { "server.address": address, "server.port": Number(match[2]) } : { "server.address": address };
}
