import { InputError, type Options } from "@hfkit/inference";

/**
 * What a URL serves, and so where a chat call for it goes:
 * - `"router"`: the HF router (`https://router.huggingface.co`, `…/v1`): the model in the body, `org/name[:provider]`;
 * - `"endpoint"`: a dedicated endpoint or any OpenAI-protocol server: `{endpoint}/v1/chat/completions`;
 * - `"hf-inference"`: an hf-inference-style base: `{base}/models/{model}/v1/chat/completions`.
 */
export type TargetKind = "router" | "endpoint" | "hf-inference";

export const HF_ROUTER_HOST = "router.huggingface.co";
const HF_ROUTER_URL = `https://${HF_ROUTER_HOST}`;
const ENDPOINT_HOST = /\.endpoints\.huggingface\.cloud$/i;
/** A path segment `endpoints/{name}` (as in `{host}/endpoints/my-tgi`). */
const ENDPOINT_PATH = /(^|\/)endpoints\/[^/]+/;

/** A path with doubled and trailing slashes dropped. */
const tidy = (path: string): string => path.replace(/\/{2,}/g, "/").replace(/\/+$/, "");

/**
 * The part of an OpenAI-style chat path before its route, tolerantly: `…/v1/chat/completions`,
 * `…/chat/completions` (no `/v1`), a trailing slash, doubled slashes. Undefined for another path.
 */
export function chatPrefix(pathname: string): string | undefined {
  return /^(.*?)(?:\/v1)?\/chat\/completions$/.exec(tidy(pathname))?.[1];
}

/** The OpenAI routes served through the hfkit core: chat completions and the Responses API. */
export type OpenAIRoute = "chat" | "responses";

/**
 * Which served route an OpenAI-style path is, and the part before it, tolerantly as {@link chatPrefix}
 * (`…[/v1]/responses[/]`); undefined for any other path (`GET /v1/responses/{id}` among them).
 */
export function openAIRoute(pathname: string): { route: OpenAIRoute; prefix: string } | undefined {
  const chat = chatPrefix(pathname);
  if (chat !== undefined) return { route: "chat", prefix: chat };
  const prefix = /^(.*?)(?:\/v1)?\/responses$/.exec(tidy(pathname))?.[1];
  return prefix === undefined ? undefined : { route: "responses", prefix };
}

/** Whether `path` is OpenAI's model list, tolerantly: `/v1/models`, `/models`, a trailing slash. */
export function isModelsPath(path: string): boolean {
  return /^(?:\/v1)?\/models$/.test(tidy(path));
}

/** A variable of the environment, where the runtime has one (never in a browser); blank as unset. */
function envValue(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    return env?.[name]?.trim() || undefined;
  } catch {
    return undefined; // Deno without --allow-env
  }
}

/** A base URL: absolute http(s) without `user:password@`, else an InputError naming its source (never echoing it). */
function checkedBase(value: string, field: "routerUrl" | "HF_INFERENCE_ENDPOINT"): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Said below.
  }
  const web = url?.protocol === "http:" || url?.protocol === "https:";
  if (url && web && !url.username && !url.password) return value.replace(/\/+$/, "");
  const why =
    "must be an absolute http:// or https:// URL without `user:password@` (a mock hub's: http://127.0.0.1:8123)";
  throw new InputError(`\`${field}\` ${why}`, field);
}

/**
 * Where the HF router is: the `routerUrl` option, else `HF_INFERENCE_ENDPOINT` (the mock hub's URL, to run
 * offline; read as the SDK reads it), else `https://router.huggingface.co`. A malformed one is an InputError naming it.
 */
export function routerBase(routerUrl: string | undefined): string {
  if (routerUrl !== undefined) return checkedBase(routerUrl, "routerUrl");
  const fromEnv = envValue("HF_INFERENCE_ENDPOINT");
  return fromEnv === undefined ? HF_ROUTER_URL : checkedBase(fromEnv, "HF_INFERENCE_ENDPOINT");
}

/** A URL of the router's host moved onto {@link routerBase}: `…/v1/models` → `{base}/v1/models`. */
export function onRouter(url: URL, routerUrl: string | undefined): string {
  return `${routerBase(routerUrl)}${url.pathname}${url.search}`;
}

/** A body model that names no Hub model: absent, empty, or `"tgi"` (the Inference Endpoints convention). */
export function namesNoModel(model: unknown): boolean {
  return model === undefined || model === null || model === "" || model === "tgi";
}

/** A URL that is a dedicated endpoint by its look: host `*.endpoints.huggingface.cloud`, or a path segment `endpoints/{name}`. */
export function looksLikeEndpoint(url: URL): boolean {
  return ENDPOINT_HOST.test(url.hostname) || ENDPOINT_PATH.test(url.pathname);
}

/**
 * What the proxy's `target` serves: `endpoint: true` says an endpoint, `false` never one; else the HF
 * router by its host (path `""` or `/v1`), an endpoint by its look or by a path ending in `/v1`, else
 * an hf-inference base.
 */
export function targetKind(target: URL, endpoint: boolean | undefined): TargetKind {
  if (endpoint === true) return "endpoint";
  const path = tidy(target.pathname);
  if (target.host === HF_ROUTER_HOST) return path === "" || path === "/v1" ? "router" : "hf-inference";
  if (endpoint !== false && (looksLikeEndpoint(target) || path.endsWith("/v1"))) return "endpoint";
  return "hf-inference";
}

/** An endpoint's root: the URL without a trailing `/v1` or `/v1/chat/completions`. */
export function endpointRoot(url: string): string {
  return url.replace(/\/+$/, "").replace(/(\/v1)?(\/chat\/completions)?$/, "");
}

/**
 * The SDK's route options for one call of the proxy: an hf-inference target takes a call whose model
 * names no Hub model (absent, `""`, `"tgi"`) as a call to an endpoint at the target, unless `endpoint: false`.
 * A target on the router's host (`…/hf-inference`) is a path of {@link routerBase}.
 */
export function proxyRoute(
  target: string,
  kind: TargetKind,
  endpoint: boolean | undefined,
  model: unknown,
  provider?: string,
  routerUrl?: string,
): Options {
  if (kind === "router") return { provider: provider ?? "auto" };
  const url = new URL(target);
  const router = url.host === HF_ROUTER_HOST;
  const base = router ? onRouter(url, routerUrl) : target;
  if (kind === "endpoint") return { endpointUrl: base };
  return endpoint !== false && !router && namesNoModel(model) ? { endpointUrl: base } : { baseUrl: base };
}

/**
 * The SDK's route options for a chat URL an OpenAI client built from its `baseURL` (`prefix`: the path
 * before `[/v1]/chat/completions`; `origin`: where the URL's origin is, {@link routerBase} for the router's
 * host), and the model the URL names:
 * 1. `endpoint: true`: the base is a dedicated endpoint, whatever it looks like;
 * 2. `{base}/models/{id}`: an hf-inference base and the model `id`;
 * 3. the HF router's host: the router for `/v1`, else an hf-inference base (`…/hf-inference/v1`);
 * 4. unless `endpoint: false`, an endpoint when the URL looks like one ({@link looksLikeEndpoint}) or
 *    the body's model names no Hub model ({@link namesNoModel});
 * 5. else an hf-inference base with the model in the body (`{base}/v1`).
 */
export function adapterRoute(
  url: URL,
  prefix: string,
  model: unknown,
  endpoint: boolean | undefined,
  origin = url.origin,
): { route: Options; model?: string } {
  const base = `${origin}${prefix}`;
  if (endpoint === true) return { route: { endpointUrl: base } };
  const m = /^(.*)\/models\/(.+)$/.exec(prefix);
  if (m) return { route: { baseUrl: `${origin}${m[1]}` }, model: m[2] };
  if (url.host === HF_ROUTER_HOST) return { route: prefix === "" ? { provider: "auto" } : { baseUrl: base } };
  if (endpoint !== false && (looksLikeEndpoint(url) || namesNoModel(model))) return { route: { endpointUrl: base } };
  return { route: { baseUrl: base } };
}
