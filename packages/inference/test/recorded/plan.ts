import { expect } from "vitest";
import type { ChatCompletionArgs, Options } from "../../dist/index.js";
import { type Exchange, requestJson } from "./fixtures";
import type { ReplayServer, SeenRequest } from "./server";

/** The access token the tests pass; it must never appear in an error. */
export const TOKEN = "hf_recordedReplayT0kenXq7w2Zp9";

type Json = Record<string, unknown>;

/** How the SDK is pointed at the replay server so that it asks for the recorded path. */
export interface Route {
  options: Pick<Options, "baseUrl" | "endpointUrl">;
  /** `model` for the arguments (undefined: the recorded request had none). */
  model: string | undefined;
  kind: "baseUrl" | "endpointUrl";
  /** The path the SDK must request. */
  path: string;
}

/**
 * `{base}/models/{id}/v1/chat/completions` with `model: id` in the body is the `baseUrl` route;
 * anything else is an endpoint: `endpointUrl` is the recorded URL, used as is when it ends in
 * `/chat/completions`, else with `/v1/chat/completions` appended (ARCHITECTURE.md, "Where a call goes").
 */
export function routeFor(ex: Exchange, origin: string): Route {
  const path = new URL(ex.url).pathname;
  const model = requestJson(ex)?.model as string | undefined;
  const m = /^(.*?)\/models\/(.+)\/v1\/chat\/completions$/.exec(path);
  if (m && m[2] === model) {
    return { options: { baseUrl: origin + m[1] }, model, kind: "baseUrl", path };
  }
  const trimmed = path.replace(/\/+$/, "");
  const sdkPath = trimmed.endsWith("/chat/completions")
    ? trimmed
    : trimmed.endsWith("/v1")
      ? `${trimmed}/chat/completions`
      : `${trimmed}/v1/chat/completions`;
  return { options: { endpointUrl: origin + path }, model, kind: "endpointUrl", path: sdkPath };
}

/** Arguments that steer the client and never go on the wire (targets/endpoints/tgi.ts). */
const CLIENT_KEYS = ["provider", "accessToken", "endpointUrl"];

/**
 * The recorded request as the SDK's arguments: the body minus `stream` (the call chooses it).
 * `dropNulls` leaves out parameters recorded as `null` (Python's client sends every unset one).
 */
export function argsFrom(recorded: Json, dropNulls: boolean): ChatCompletionArgs {
  const args: Json = {};
  for (const [k, v] of Object.entries(recorded)) {
    // A recorded `provider` named where the request went; the replay sends it to an endpoint, and an
    // endpoint with a third-party provider is refused before any request (as @huggingface/inference does).
    if (k === "stream" || k === "provider" || (dropNulls && v === null)) continue;
    args[k] = v;
  }
  return args as unknown as ChatCompletionArgs;
}

/**
 * The body the SDK must send for `recorded`, by the documented mappings: `model` defaults to "tgi" on
 * an endpoint; `provider` steers the client and is not sent; `top_p: 0` is greedy
 * (`temperature: 0`), `top_p: 1`, `presence_penalty: 0` and `n: 1` are defaults; a string `stop`
 * becomes a list; `stream` is always explicit; `stream_options` only with a stream.
 */
export function expectedBody(recorded: Json, route: Route, stream: boolean, dropNulls: boolean): Json {
  const body: Json = {};
  for (const [k, v] of Object.entries(recorded)) {
    if (CLIENT_KEYS.includes(k) || (dropNulls && v === null)) continue;
    body[k] = v;
  }
  if (route.kind === "endpointUrl" && body.model === undefined) body.model = "tgi";
  if (body.top_p === 0) {
    delete body.top_p;
    body.temperature = 0;
  } else if (body.top_p === 1) delete body.top_p;
  if (body.presence_penalty === 0) delete body.presence_penalty;
  if (body.n === 1) delete body.n;
  if (typeof body.stop === "string") body.stop = [body.stop];
  body.stream = stream;
  if (!stream) delete body.stream_options;
  return body;
}

const withoutNulls = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

/**
 * Checks one request the server saw: method, path, JSON headers, the bearer token, the body.
 * `nullsAsAbsent`: a top-level `null` counts as not sent (what TGI and OpenAI make of it).
 */
export function expectRequest(
  seen: SeenRequest | undefined,
  path: string,
  body: Json | undefined,
  nullsAsAbsent = false,
): void {
  expect(seen, "the SDK sent no request").toBeDefined();
  const req = seen as SeenRequest;
  expect(req.method).toBe("POST");
  expect(req.path).toBe(path);
  expect(String(req.headers["content-type"])).toMatch(/^application\/json/);
  expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
  const sent = JSON.parse(req.body) as Json;
  if (!body) expect(Array.isArray(sent.messages)).toBe(true);
  else if (nullsAsAbsent) expect(withoutNulls(sent)).toStrictEqual(withoutNulls(body));
  else expect(sent).toStrictEqual(body);
}

/** A chat call for `ex` against `server`: the SDK options, its arguments and what it must send. */
export interface CallPlan {
  route: Route;
  args: ChatCompletionArgs;
  /** What the server must receive; undefined when the recorder did not keep the request body. */
  body: Json | undefined;
  /**
   * The recorded request is not a chat request the SDK can send (no `messages` list: another task's
   * `{inputs, parameters}`, or a request the server rejected for that), so the call sends
   * `chatRequestFor(recorded)` instead.
   */
  rewritten: boolean;
}

/**
 * The nearest valid chat request to a recorded one that is not: `messages` made a one-message list
 * (of the recorded string, `inputs` or `prompt`); a generate request's `max_new_tokens` becomes
 * `max_tokens` and its other fields, which the chat route does not take, are left out.
 */
export function chatRequestFor(recorded: Json): Json {
  if (Array.isArray(recorded.messages)) return recorded;
  const text = [recorded.messages, recorded.inputs, recorded.prompt].find((v) => typeof v === "string") as
    string | undefined;
  const messages = [{ role: "user", content: text ?? "Complete the equation 1+1= ,just the answer" }];
  if (recorded.inputs === undefined) return { ...recorded, messages };
  const parameters = (recorded.parameters ?? {}) as Json;
  const maxTokens = parameters.max_new_tokens ?? recorded.max_tokens;
  return {
    ...(recorded.model === undefined ? {} : { model: recorded.model }),
    messages,
    ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
  };
}

/** When the recorder kept no request body: a chat request of the same route. */
const FALLBACK_MESSAGES = [{ role: "user", content: "What is deep learning?" }];

export function planCall(
  ex: Exchange,
  server: ReplayServer,
  stream: boolean,
  { dropNulls = true, args: override }: { dropNulls?: boolean; args?: Json } = {},
): CallPlan {
  const route = routeFor(ex, server.origin);
  const original = override ?? requestJson(ex);
  if (!original) {
    const model = /\/models\/(.+)\/v1\/chat\/completions$/.exec(route.path)?.[1];
    const args = { model, messages: FALLBACK_MESSAGES } as ChatCompletionArgs;
    return { route: { ...route, model }, args, body: undefined, rewritten: false };
  }
  const recorded = chatRequestFor(original);
  return {
    route,
    args: argsFrom(recorded, dropNulls),
    body: expectedBody(recorded, route, stream, dropNulls),
    rewritten: recorded !== original,
  };
}

/** A logger that keeps warnings for the test instead of printing them. */
export function quietLogger(): { warn(message: string): void; messages: string[] } {
  const messages: string[] = [];
  return { warn: (m: string) => void messages.push(m), messages };
}
