/**
 * What production refuses before any backend answers (an id that cannot exist; in strict mode, a model the hub
 * does not serve; the tokens: `credentials.ts`), and the task a model the hub does not know answers in lenient mode.
 */
import { taskOfBody } from "./bodyTask.js";
import { mappedTask, servesModel } from "./hubApi.js";
import { bodyModel } from "./log.js";
import { jsonResponse } from "./http.js";
import { bareModel, isWellFormedId } from "./modelIds.js";
import type { ResolvedModel } from "./models.js";
import { noProviderEnabled } from "./openai/router.js";
import { modelNotFound } from "./proxy.js";
import type { Route } from "./routes.js";
import type { ModelConfig } from "./types.js";

type Models = ReadonlyMap<string, ModelConfig>;
type KnownRoute = Exclude<Route, { kind: "unknown" }>;
const POLICIES = ["fastest", "cheapest", "preferred"];

/**
 * The answer to a model id that cannot exist (in both modes) or, in strict mode, that the hub does not serve:
 * hf-inference's 404 for a path's model, the router's 400 `model_not_supported` for a body's (an unknown one
 * with a `:provider` is the router's own 404, answered later). An endpoint's name is not a Hub id.
 */
export function modelRefusal(
  route: KnownRoute,
  path: string,
  text: string,
  models: Models,
  strict: boolean,
): Response | undefined {
  const unknown = (id: string): boolean => !isWellFormedId(id) || (strict && !servesModel(id, models));
  if (route.model !== undefined)
    return /^\/(hf-inference\/)?models\//.test(path) && unknown(route.model) ? modelNotFound(route.model) : undefined;
  const requested =
    route.kind === "chat" || route.kind === "responses" || route.kind === "completions" ? bodyModel(text) : undefined;
  if (!requested || requested === "tgi") return undefined;
  const name = bareModel(requested);
  const namesProvider = name !== requested && !POLICIES.includes(requested.slice(name.length + 1));
  return !isWellFormedId(name) || (unknown(name) && !namesProvider) ? noProviderEnabled(requested) : undefined;
}

/**
 * The task `POST /models/{id}` answers: the model's own (its default mapping's included); for a model the hub
 * does not know (lenient mode), the task its request's body asks for.
 */
export function withTask(route: KnownRoute, model: ResolvedModel, text: string, models: Models): ResolvedModel {
  if (route.kind !== "pipeline" || route.task !== undefined || model.task !== undefined) return model;
  const task = servesModel(model.id, models) ? mappedTask(model.id, models) : taskOfBody(text);
  return task === undefined ? model : { ...model, task };
}

/**
 * Strict mode: a model of another task than text generation asked for text (chat, completions, generate,
 * responses) is refused as production refuses it: by the router as a model no provider serves for it, by
 * hf-inference with its pipeline's 404.
 */
export function taskRefusal(route: KnownRoute, model: ResolvedModel, text: string): Response | undefined {
  if (model.task === undefined || route.kind === "pipeline" || route.kind === "info" || route.kind === "models")
    return undefined;
  return route.model === undefined
    ? noProviderEnabled(bodyModel(text) ?? model.id)
    : jsonResponse(404, { error: "Not Found" });
}
