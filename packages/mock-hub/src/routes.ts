/** The URL space of the real services: hf-inference paths, the router's, a dedicated endpoint's. */

export type Route =
  /** `model` undefined: taken from the body (`"tgi"` or none → the default model). */
  | { kind: "chat"; model: string | undefined }
  /** OpenAI's Responses API; `model` undefined: taken from the body (the router's route). */
  | { kind: "responses"; model: string | undefined }
  /** TGI's `/` (compat generate) or the transformers pipeline. */
  | { kind: "pipeline"; model: string | undefined; task?: string }
  | { kind: "generate"; model: string | undefined; stream: boolean }
  /** OpenAI's (legacy) `/v1/completions`; `model` undefined: taken from the body. */
  | { kind: "completions"; model: string | undefined }
  | { kind: "info"; model: string | undefined }
  /** OpenAI's `GET /v1/models`; `model` undefined: the router's list. */
  | { kind: "models"; model: string | undefined }
  | { kind: "unknown" };

const MODEL = "([^/]+(?:/[^/]+)?)";
/** An endpoint's name; one `/` allowed, so `/endpoints/org/name` serves model `org/name`. */
const ENDPOINT = MODEL;

const PATTERNS: ReadonlyArray<{
  method: string;
  pattern: RegExp;
  route: (model: string | undefined, task?: string) => Route;
}> = [
  { method: "POST", pattern: /^\/v1\/chat\/completions$/, route: () => ({ kind: "chat", model: undefined }) },
  { method: "POST", pattern: re(`/models/${MODEL}/v1/chat/completions`), route: (model) => ({ kind: "chat", model }) },
  {
    method: "POST",
    pattern: re(`/endpoints/${ENDPOINT}/v1/chat/completions`),
    route: (model) => ({ kind: "chat", model }),
  },
  { method: "POST", pattern: /^\/v1\/responses$/, route: () => ({ kind: "responses", model: undefined }) },
  { method: "POST", pattern: re(`/models/${MODEL}/v1/responses`), route: (model) => ({ kind: "responses", model }) },
  {
    method: "POST",
    pattern: re(`/endpoints/${ENDPOINT}/v1/responses`),
    route: (model) => ({ kind: "responses", model }),
  },
  { method: "POST", pattern: /^\/v1\/completions$/, route: () => ({ kind: "completions", model: undefined }) },
  {
    method: "POST",
    pattern: re(`/models/${MODEL}/v1/completions`),
    route: (model) => ({ kind: "completions", model }),
  },
  {
    method: "POST",
    pattern: re(`/endpoints/${ENDPOINT}/v1/completions`),
    route: (model) => ({ kind: "completions", model }),
  },
  { method: "GET", pattern: /^\/v1\/models$/, route: () => ({ kind: "models", model: undefined }) },
  { method: "GET", pattern: re(`/models/${MODEL}/v1/models`), route: (model) => ({ kind: "models", model }) },
  { method: "GET", pattern: re(`/endpoints/${ENDPOINT}/v1/models`), route: (model) => ({ kind: "models", model }) },
  { method: "GET", pattern: /^\/info$/, route: () => ({ kind: "info", model: undefined }) },
  { method: "GET", pattern: re(`/models/${MODEL}/info`), route: (model) => ({ kind: "info", model }) },
  { method: "GET", pattern: re(`/endpoints/${ENDPOINT}/info`), route: (model) => ({ kind: "info", model }) },
  { method: "POST", pattern: /^\/generate$/, route: (model) => ({ kind: "generate", model, stream: false }) },
  { method: "POST", pattern: /^\/generate_stream$/, route: (model) => ({ kind: "generate", model, stream: true }) },
  {
    method: "POST",
    pattern: re(`/endpoints/${ENDPOINT}/generate`),
    route: (model) => ({ kind: "generate", model, stream: false }),
  },
  {
    method: "POST",
    pattern: re(`/endpoints/${ENDPOINT}/generate_stream`),
    route: (model) => ({ kind: "generate", model, stream: true }),
  },
  {
    method: "POST",
    pattern: re(`/models/${MODEL}/pipeline/(feature-extraction|sentence-similarity)`),
    route: (model, task) => ({ kind: "pipeline", model, task }),
  },
  { method: "POST", pattern: re(`/endpoints/${ENDPOINT}`), route: (model) => ({ kind: "pipeline", model }) },
  { method: "POST", pattern: re(`/models/${MODEL}`), route: (model) => ({ kind: "pipeline", model }) },
];

function re(path: string): RegExp {
  return new RegExp(`^${path}/?$`);
}

/** `basePath` (an msw base URL's path) and the router's `/hf-inference` prefix are stripped first. */
export function matchRoute(method: string, pathname: string, basePath = ""): Route {
  let path = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  if (path.startsWith("/hf-inference/")) path = path.slice("/hf-inference".length);
  for (const candidate of PATTERNS) {
    const match = candidate.method === method ? candidate.pattern.exec(path) : null;
    if (match) return candidate.route(match[1] === undefined ? undefined : decodeURIComponent(match[1]), match[2]);
  }
  return { kind: "unknown" };
}
