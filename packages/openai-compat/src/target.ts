import type { Options } from "@hfkit/inference";

/**
 * What a URL serves, and so where a chat call for it goes:
 * - `"router"`: the HF router (`https://router.huggingface.co`, `…/v1`): the model in the body, `org/name[:provider]`;
 * - `"endpoint"`: a dedicated endpoint or any OpenAI-protocol server: `{endpoint}/v1/chat/completions`;
 * - `"hf-inference"`: an hf-inference-style base: `{base}/models/{model}/v1/chat/completions`.
 */
export type TargetKind = "router" | "endpoint" | "hf-inference";

export const HF_ROUTER_HOST = "router.huggingface.co";
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
 */
export function proxyRoute(target: string, kind: TargetKind, endpoint: boolean | undefined, model: unknown, provider?: string): Options {
  if (kind === "router") return { provider: provider ?? "auto" };
  if (kind === "endpoint") return { endpointUrl: target };
  const router = new URL(target).host === HF_ROUTER_HOST;
  return endpoint !== false && !router && namesNoModel(model) ? { endpointUrl: target } : { baseUrl: target };
}

/**
 * The SDK's route options for a chat URL an OpenAI client built from its `baseURL` (`prefix`: the path
 * before `[/v1]/chat/completions`), and the model the URL names:
 * 1. `endpoint: true`: the base is a dedicated endpoint, whatever it looks like;
 * 2. `{base}/models/{id}`: an hf-inference base and the model `id`;
 * 3. the HF router's host: the router for `/v1`, else an hf-inference base (`…/hf-inference/v1`);
 * 4. unless `endpoint: false`, an endpoint when the URL looks like one ({@link looksLikeEndpoint}) or
 *    the body's model names no Hub model ({@link namesNoModel});
 * 5. else an hf-inference base with the model in the body (`{base}/v1`).
 */
export function adapterRoute(url: URL, prefix: string, model: unknown, endpoint: boolean | undefined): { route: Options; model?: string } {
  const base = `${url.origin}${prefix}`;
  if (endpoint === true) return { route: { endpointUrl: base } };
  const m = /^(.*)\/models\/(.+)$/.exec(prefix);
  if (m) return { route: { baseUrl: `${url.origin}${m[1]}` }, model: m[2] };
  if (url.host === HF_ROUTER_HOST) return { route: prefix === "" ? { provider: "auto" } : { baseUrl: base } };
  if (endpoint !== false && (looksLikeEndpoint(url) || namesNoModel(model))) return { route: { endpointUrl: base } };
  return { route: { baseUrl: base } };
}
