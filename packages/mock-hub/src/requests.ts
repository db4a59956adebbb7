/** What the hub knows of a request before it answers: its route, the provider serving it, its record and log name. */
import { isRecord, parseJson } from "./http.js";
import { bodyModel } from "./log.js";
import { routeByModel, type RouterDecision } from "./openai/router.js";
import { matchRoute, type Route } from "./routes.js";
import type { ModelConfig, RecordedRequest } from "./types.js";

export interface Routing {
  route: Route;
  /** The router's decision for a body's model (a configured one, or an unknown one with a `:provider`). */
  routed: RouterDecision | undefined;
  /** The provider that serves a router request: the router's pick, or hf-inference on its own path. */
  provider: string | undefined;
}

export function routing(
  request: Request,
  text: string,
  basePath: string | undefined,
  models: ReadonlyMap<string, ModelConfig>,
): Routing {
  const pathname = new URL(request.url).pathname;
  const route = matchRoute(request.method, pathname, basePath);
  const byBody = (route.kind === "chat" || route.kind === "responses") && route.model === undefined;
  const routed = byBody ? routeByModel(text, models) : undefined;
  const picked = routed && "provider" in routed ? routed.provider : undefined;
  return { route, routed, provider: picked ?? (pathname.startsWith("/hf-inference/") ? "hf-inference" : undefined) };
}

/** The model a request names, for its log line: the Hub API's or a route's path, else the body's `model`. */
export function namedModel(request: Request, text: string, basePath: string | undefined): string | undefined {
  const pathname = new URL(request.url).pathname;
  const path = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  const hub = /^\/api\/models\/([^/]+(?:\/(?!revision\/)[^/]+)?)/.exec(path);
  if (hub) return hub[1];
  const route = matchRoute(request.method, pathname, basePath);
  return (route.kind === "unknown" ? undefined : route.model) ?? bodyModel(text);
}

export function record(
  request: Request,
  text: string,
  requestId: string,
  provider: string | undefined,
): RecordedRequest {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const body = text === "" ? undefined : (parseJson(text) ?? text);
  const recorded = {
    method: request.method,
    path: url.pathname + url.search,
    headers,
    body,
    time: Date.now(),
    requestId,
  };
  return provider === undefined ? recorded : { ...recorded, provider };
}

/** A route that answers for a model. */
export type ModelRoute = Exclude<Route, { kind: "unknown" | "models" }>;

/** The path's model, else the body's `model` (`"tgi"`, none, or a `:provider` suffix aside). */
export function modelIdFor(route: ModelRoute, text: string, defaultModel: string): string {
  if (route.model !== undefined) return route.model;
  if (route.kind !== "chat" && route.kind !== "completions" && route.kind !== "responses") return defaultModel;
  const body = parseJson(text);
  const named = isRecord(body) && typeof body.model === "string" ? body.model.split(":")[0] : undefined;
  return !named || named === "tgi" ? defaultModel : named;
}

/** The body names a model: a non-empty string other than `"tgi"`. */
export function namesModel(text: string): boolean {
  const body = parseJson(text);
  const model = isRecord(body) ? body.model : undefined;
  return typeof model === "string" && model !== "" && model !== "tgi";
}
