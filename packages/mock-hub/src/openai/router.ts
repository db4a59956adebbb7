import type { FaultRegistry } from "../faults.js";
import { isRecord, isRefused, jsonResponse, parseJson, textResponse } from "../http.js";
import { resolveModel } from "../models.js";
import { CREATED } from "../tgi/chat-output.js";
import type { FaultType, ModelConfig, RouterFault } from "../types.js";
import { DIALECTS, isOpenAiServer } from "./dialects.js";

/** The HF router (`router.huggingface.co/v1/chat/completions`): `org/name[:provider | :fastest | :cheapest | :preferred]`. */

const POLICIES = new Set(["fastest", "cheapest", "preferred"]);

export type RouterDecision = { model: string; provider: string } | { refusal: Response };

type Models = ReadonlyMap<string, ModelConfig>;

/**
 * The provider that serves the body's `model`, or the router's refusal. Undefined when the body names no
 * configured model (nor an unknown one with a provider): the plain default-model chat route answers.
 */
export function routeByModel(text: string, models: Models): RouterDecision | undefined {
  const body = parseJson(text);
  const requested = isRecord(body) && typeof body.model === "string" ? body.model : "";
  const [name = "", suffix] = requested.split(":", 2);
  const named = suffix && !POLICIES.has(suffix) ? suffix : undefined;
  if (!models.has(name)) return named ? { refusal: withProvider(textResponse(404, "Not Found"), named) } : undefined;
  const { providers } = resolveModel(name, models);
  if (named) {
    if (providers.includes(named)) return { model: name, provider: named };
    return { refusal: withProvider(notServedBy(named), named) };
  }
  const [first] = providers;
  if (first !== undefined) return { model: name, provider: first };
  return { refusal: noProviderEnabled(name) };
}

/** 400: the provider does not serve the model (a bare string, as the router sends it). */
function notServedBy(provider: string): Response {
  return jsonResponse(400, { error: `Model not supported by provider ${provider}` });
}

/** 400 `model_not_supported`: none of the providers the caller enabled serves the model. */
export function noProviderEnabled(model: string): Response {
  const message = `The requested model '${model}' is not supported by any provider you have enabled.`;
  return jsonResponse(400, {
    error: { message, type: "invalid_request_error", param: "model", code: "model_not_supported" },
  });
}

const ROUTER_FAULTS: readonly FaultType[] = ["modelNotServed", "providerNotEnabled", "toolsUnsupported"];

/** The router's scripted refusal of `provider` for `model`, if any (`toolsUnsupported` only for a body with tools). */
export function routerFault(
  faults: FaultRegistry,
  model: string,
  provider: string,
  text: string,
): Response | undefined {
  const types = sendsTools(text) ? ROUTER_FAULTS : ROUTER_FAULTS.filter((type) => type !== "toolsUnsupported");
  const rule = faults.peek(model, types, provider);
  if (!rule) return undefined;
  const fault = faults.use(rule) as RouterFault;
  if (fault.type === "modelNotServed") return notServedBy(provider);
  if (fault.type === "providerNotEnabled") return noProviderEnabled(model);
  const message = `Provider ${provider} does not support tools for model '${model}'.`;
  return jsonResponse(400, {
    error: { message, type: "invalid_request_error", param: "tools", code: "tools_not_supported" },
  });
}

function sendsTools(text: string): boolean {
  const body = parseJson(text);
  return isRecord(body) && Array.isArray(body.tools) && body.tools.length > 0;
}

/** The router names the provider that answered on every answer (a refused connection has none). */
export function withProvider(response: Response, provider: string): Response {
  if (isRefused(response)) return response;
  const headers = new Headers(response.headers);
  headers.set("x-inference-provider", provider);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** `GET /v1/models`: a server lists its one model; the router (no `id`) every model some provider serves. */
export function modelList(id: string | undefined, models: Models): Response {
  const data =
    id === undefined ? [...models.keys()].flatMap((modelId) => routerEntry(modelId, models)) : serverEntry(id, models);
  if (data.length === 0) return jsonResponse(404, { error: "Not Found" });
  return jsonResponse(200, { object: "list", data });
}

type Entry = Record<string, unknown>;

function serverEntry(id: string, models: Models): Entry[] {
  const { backend } = resolveModel(id, models);
  if (backend === "transformers") return [];
  const ownedBy = isOpenAiServer(backend) ? DIALECTS[backend].ownedBy : id;
  return [{ id, object: "model", created: CREATED, owned_by: ownedBy }];
}

/** The default price of a provider, in dollars per million tokens. */
const PRICING = { input: 0.1, output: 0.3 };

function routerEntry(id: string, models: Models): Entry[] {
  const { routerProviders, architecture, maxTotalTokens } = resolveModel(id, models);
  if (routerProviders.length === 0) return [];
  const providers = routerProviders.map((p) => {
    const contextLength = p.contextLength === undefined ? maxTotalTokens : p.contextLength;
    const pricing = p.pricing === undefined ? PRICING : p.pricing;
    return {
      provider: p.provider,
      status: p.status ?? "live",
      ...(contextLength === null ? {} : { context_length: contextLength }),
      ...(pricing === null ? {} : { pricing }),
      supports_tools: p.supportsTools ?? true,
      supports_structured_output: p.supportsStructuredOutput ?? true,
      is_model_author: p.isModelAuthor ?? false,
    };
  });
  const input = architecture.inputModalities ?? ["text"];
  const output = architecture.outputModalities ?? ["text"];
  const arch = { input_modalities: input, output_modalities: output };
  return [{ id, object: "model", created: CREATED, owned_by: id.split("/")[0], architecture: arch, providers }];
}
