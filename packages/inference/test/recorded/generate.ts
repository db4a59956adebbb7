import { expect } from "vitest";
import type { Options, TextGenerationArgs } from "../../dist/index.js";
import { title } from "./catalog";
import { type Exchange, requestJson } from "./fixtures";
import { TOKEN } from "./plan";
import { type Outcome, parseLoose, sseEvents } from "./reference";
import type { SeenRequest } from "./server";

/**
 * TGI's `generate` / `generate_stream` and the transformers pipeline, as recorded: where the SDK's
 * `textGeneration` / `textGenerationStream` must send the recorded request, the body it must send
 * (by the documented mappings), and what it must give back, read from the recorded bytes alone.
 */

type Json = Record<string, unknown>;

/**
 * How the SDK is pointed at the replay server. `{base}/models/{org/name}` is the model's root, where
 * both TGI's `generate` and the pipeline answer (router.ts `generationRoute`): the `baseUrl` route
 * with `model`, or a dedicated endpoint whose root is the recorded path (no `model` needed).
 */
export interface GenerateRoute {
  options: Pick<Options, "baseUrl" | "endpointUrl">;
  model: string | undefined;
  kind: "baseUrl" | "endpointUrl";
  /** The path the SDK must request: the recorded one. */
  path: string;
}

export const ROUTE_KINDS = ["baseUrl", "endpointUrl"] as const;

export function generateRoute(ex: Exchange, origin: string, kind: GenerateRoute["kind"]): GenerateRoute {
  const path = new URL(ex.url).pathname;
  const m = /^(.*?)\/models\/(.+)$/.exec(path);
  if (!m) throw new Error(`${title(ex)}: not a model's root`);
  if (kind === "baseUrl") return { options: { baseUrl: origin + m[1] }, model: m[2], kind, path };
  return { options: { endpointUrl: origin + path }, model: undefined, kind, path };
}

/**
 * The keys a recorded generate request has. `inputs` and `parameters` are the arguments; `stream` is
 * chosen by the call (textGeneration or textGenerationStream); `model` (huggingface.js put it in the
 * body too) names the model of the URL, which is where the SDK puts it; `options` is
 * huggingface.js's per-call options object, empty in every recording, which the SDK takes as its
 * second argument and never sends.
 */
const REQUEST_KEYS = new Set(["inputs", "parameters", "stream", "model", "options"]);

/**
 * When the recorder kept no request body (huggingface_hub's async tests): a generate request of the
 * same route, as those tests make it (`"test"`, one new token).
 */
export const FALLBACK_REQUEST: Json = { inputs: "test", parameters: { max_new_tokens: 1 } };

/** The recorded generate request, or the fallback; refuses any key it does not know what to do with. */
export function recordedGenerateRequest(ex: Exchange): { request: Json; recorded: boolean } {
  const json = requestJson(ex);
  if (ex.requestBody !== null && !json) throw new Error(`${title(ex)}: the recorded request is not JSON`);
  if (!json) return { request: FALLBACK_REQUEST, recorded: false };
  for (const key of Object.keys(json)) {
    if (!REQUEST_KEYS.has(key)) throw new Error(`${title(ex)}: no mapping written for the request key \`${key}\``);
  }
  if (typeof json.inputs !== "string") throw new Error(`${title(ex)}: \`inputs\` is not a string`);
  const options = json.options;
  if (
    options !== undefined &&
    !(typeof options === "object" && options !== null && Object.keys(options).length === 0)
  ) {
    throw new Error(`${title(ex)}: recorded client options ${JSON.stringify(options)}`);
  }
  return { request: json, recorded: true };
}

const withoutNulls = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

/**
 * The SDK's arguments for a recorded request: `inputs` and `parameters`. `dropNulls` leaves out the
 * parameters recorded as `null` (huggingface_hub sends every unset one).
 */
export function generateArgs(request: Json, route: GenerateRoute, dropNulls: boolean): TextGenerationArgs {
  const args: Json = { inputs: request.inputs };
  if (route.model !== undefined) args.model = route.model;
  if (request.parameters !== undefined) {
    const parameters = request.parameters as Json;
    args.parameters = dropNulls ? withoutNulls(parameters) : { ...parameters };
  }
  return args as TextGenerationArgs;
}

/**
 * The generate parameters as the SDK must send them (ARCHITECTURE.md, BACKENDS.md): `temperature: 0`
 * and `top_p: 0` are greedy, which `generate` and the pipeline take as `do_sample: false` with no
 * temperature (TGI rejects `temperature: 0` and `top_p: 0`); `top_p: 1` is the default, not sent
 * (TGI rejects 1.0 too). Everything else goes as given.
 */
export function mapParameters(p: Json): Json {
  const out = { ...p };
  if (out.temperature === 0 || out.top_p === 0) {
    out.do_sample = false;
    delete out.temperature;
    if (out.top_p === 0) delete out.top_p;
  }
  if (out.top_p === 1) delete out.top_p;
  return out;
}

/**
 * The body the SDK must send for a recorded request: `{inputs, parameters}` with the parameters
 * mapped (`return_full_text: false` unless set), and `stream: true` on a stream call only
 * (`stream: false` is the default, not sent).
 */
export function expectedGenerateBody(request: Json, stream: boolean, dropNulls: boolean): Json {
  const body: Json = { inputs: request.inputs };
  // The continuation only, unless the request says otherwise: `return_full_text: false` goes first.
  const parameters = (request.parameters ?? {}) as Json;
  body.parameters = { return_full_text: false, ...mapParameters(dropNulls ? withoutNulls(parameters) : parameters) };
  if (stream) body.stream = true;
  return body;
}

/** `body` with the `null` parameters left out: what TGI and the pipeline make of them (not set). */
function withoutNullParameters(body: Json): Json {
  const out = withoutNulls(body);
  if (typeof out.parameters === "object" && out.parameters !== null)
    out.parameters = withoutNulls(out.parameters as Json);
  return out;
}

/**
 * Checks one generate request the server saw: POST to the recorded path, JSON, the bearer token, the
 * body. `nullsAsAbsent`: a `null` (top level or parameter) counts as not sent.
 */
export function expectGenerateRequest(
  seen: SeenRequest | undefined,
  path: string,
  body: Json,
  nullsAsAbsent = false,
): void {
  expect(seen, "the SDK sent no request").toBeDefined();
  const req = seen as SeenRequest;
  expect(req.method).toBe("POST");
  expect(req.path).toBe(path);
  expect(String(req.headers["content-type"])).toMatch(/^application\/json/);
  expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
  const sent = JSON.parse(req.body) as Json;
  if (nullsAsAbsent) expect(withoutNullParameters(sent)).toStrictEqual(withoutNullParameters(body));
  else expect(sent).toStrictEqual(body);
}

/** What `textGeneration` resolves to: the first element of the recorded array, as recorded. */
export function recordedOutput(ex: Exchange): Json {
  const answer = JSON.parse(ex.body) as unknown;
  if (!Array.isArray(answer) || typeof answer[0] !== "object" || answer[0] === null) {
    throw new Error(`${title(ex)}: not a [{generated_text}] answer`);
  }
  return answer[0] as Json;
}

/**
 * What `textGeneration` answers for a recorded exchange: the recorded answer, and with a JSON grammar in the
 * request its text parsed into `parsed` (the grammar's schema is then checked too).
 */
export function expectedGenerateOutput(ex: Exchange, request: Json): Json {
  const output = recordedOutput(ex);
  const parameters = (request.parameters ?? {}) as Json;
  const grammar = parameters.grammar as Json | null | undefined;
  return grammar?.type === "json"
    ? { ...output, parsed: JSON.parse(String(output.generated_text)) as unknown }
    : output;
}

export interface ExpectedEvents {
  events: Json[];
  outcome: Outcome;
}

/**
 * The events a `generate_stream` text must give, as sent (no renaming: TGI's events are the API), up
 * to and including the first whose `generated_text` is a string, where the stream completes
 * (ARCHITECTURE.md, "Stream termination"); an error object ends it with that error; a text without a
 * final event is incomplete.
 */
export function expectedEvents(text: string): ExpectedEvents {
  const events: Json[] = [];
  for (const event of sseEvents(text)) {
    if (event.type === "error") return { events, outcome: { kind: "error", body: parseLoose(event.data) } };
    const parsed = JSON.parse(event.data) as Json;
    if (parsed.error != null) return { events, outcome: { kind: "error", body: parsed } };
    // Documented: an event without an index (older TGI) gets its position, counted from 1.
    events.push(parsed.index === undefined ? { ...parsed, index: events.length + 1 } : parsed);
    if (typeof parsed.generated_text === "string") return { events, outcome: { kind: "complete" } };
  }
  return { events, outcome: { kind: "incomplete" } };
}
