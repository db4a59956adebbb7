import { preflight, withCommonHeaders } from "./cors.js";
import { createEventStream, StreamTracker } from "./event-stream.js";
import type { Exchange } from "./exchange.js";
import { FaultRegistry } from "./faults.js";
import { eventStreamResponse, isRecord, jsonResponse, parseJson, refusedConnection, textResponse } from "./http.js";
import { DEFAULT_MODEL_ID, PREDEFINED_MODELS, resolveModel, type ResolvedModel } from "./models.js";
import { taskPipeline } from "./pipelines.js";
import { proxyGate, unauthorized } from "./proxy.js";
import { openAiChat } from "./openai/chat.js";
import { openAiResponses } from "./openai/responses.js";
import { isOpenAiServer } from "./openai/dialects.js";
import { routerToTgi } from "./structured.js";
import { modelList, routeByModel, routerFault, withProvider } from "./openai/router.js";
import { matchRoute, type Route } from "./routes.js";
import { providerFile, providerGet, providerRoute } from "./providerRoutes.js";
import { hubModelApi } from "./hubApi.js";
import { hasHfToken } from "./credentials.js";
import { modelRefusal, taskRefusal, withTask } from "./gate.js";
import { bodyModel, logLine, logSink } from "./log.js";
import { tgiChat } from "./tgi/chat.js";
import { tgiCompletions } from "./tgi/completions.js";
import { openAiCompletions } from "./openai/completions.js";
import { tgiGenerate } from "./tgi/generate.js";
import { tgiInfo } from "./tgi/info.js";
import { Timers } from "./timers.js";
import { transformersChat, transformersPipeline } from "./transformers.js";
import type { FaultType, MockHubConfig, MockHubCore, ModelConfig, RecordedRequest, StreamFault, StructuredOutputFault } from "./types.js";

const STRUCTURED_FAULTS: readonly FaultType[] = ["badJson", "schemaViolation"];
const STREAM_FAULTS: readonly FaultType[] = [
  "overloadedInStream", "responseFailed", "linger", "stall", "drop", "truncate", "malformed",
  "keepAlive", "slow", "bodyChunking", "lineEnding", "bom",
];

/** Everything a request may touch: the models, the scripted faults, the open streams, the timers. */
interface HubState {
  models: Map<string, ModelConfig>;
  defaultModel: string;
  /** Refuse a request without an HF token (`hf_…`), and a model the hub does not serve. */
  strict: boolean;
  timers: Timers;
  faults: FaultRegistry;
  streams: StreamTracker;
}

/** The emulator's core: web-standard Request in, Response out; no Node built-ins. */
export function createMockHub(config: MockHubConfig = {}): MockHubCore {
  const timers = new Timers();
  const state: HubState = {
    models: new Map(Object.entries({ ...PREDEFINED_MODELS, ...config.models })),
    defaultModel: config.defaultModel ?? DEFAULT_MODEL_ID,
    strict: config.strict ?? false,
    timers,
    faults: new FaultRegistry(timers),
    streams: new StreamTracker(),
  };
  const requests: RecordedRequest[] = [];
  const log = logSink(config.log);
  let counter = 0;
  restoreConfigFaults(state);
  return {
    requests,
    async handle(request, options = {}) {
      const started = Date.now();
      const requestId = `mock-${++counter}`;
      // A clone is read: a provider route may read the request's own bytes (a multipart form).
      const text = await request.clone().text();
      requests.push(record(request, text, requestId));
      const faults: FaultType[] = [];
      const seen = { ...state, faults: state.faults.observed((fault) => faults.push(fault.type)) };
      const response = await respond(seen, request, text, options.basePath).catch(internalError);
      const model = namedModel(request, text, options.basePath);
      log?.(logLine({ method: request.method, url: request.url, model, response, ms: Date.now() - started, faults }));
      return withCommonHeaders(response, request, requestId);
    },
    openStreams: () => state.streams.count(),
    setModel(id, model) {
      state.models.set(id, model);
      for (const rule of state.faults.rulesOf(id, "config")) rule.remove();
      addConfigFaults(state, id, model);
    },
    inject: (fault, options = {}) => state.faults.add(fault, options.model, options.times, "inject", options.provider),
    clearFaults: () => state.faults.clear(),
    reset() {
      requests.length = 0;
      state.faults.clear();
      restoreConfigFaults(state);
    },
    dispose() {
      state.faults.clear();
      state.timers.clear();
      state.streams.stopAll();
    },
  };
}

function addConfigFaults(state: HubState, id: string, model: ModelConfig): void {
  for (const fault of model.faults ?? []) state.faults.add(fault, id, undefined, "config");
}

function restoreConfigFaults(state: HubState): void {
  for (const [id, model] of state.models) addConfigFaults(state, id, model);
}

async function respond(state: HubState, request: Request, text: string, basePath: string | undefined): Promise<Response> {
  if (request.method === "OPTIONS") return preflight(request);
  const pathname = new URL(request.url).pathname;
  const path = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  // The Hub's model API and the files answers name are public; in strict mode the rest needs an HF token (`hf_…`).
  const open = request.method === "GET" ? (hubModelApi(request, path, state) ?? providerFile(request, path)) : undefined;
  if (open) return open;
  const route = matchRoute(request.method, pathname, basePath);
  if (state.strict && !hasHfToken(request) && !(route.kind === "models" && route.model === undefined)) return unauthorized();
  const got = request.method === "GET" ? providerGet(request, path) : undefined;
  if (got) return got;
  const provided = await providerRoute(request, path, text, state.faults);
  if (provided) return provided;
  if (route.kind === "unknown") return jsonResponse(404, { error: "Not Found" });
  const refusal = modelRefusal(route, path, text, state.models, state.strict);
  if (refusal) return refusal;
  if (route.kind === "models") return modelList(route.model, state.models);
  // The router's body-model route: a configured model (or an unknown one with a `:provider`).
  const routed = (route.kind === "chat" || route.kind === "responses") && route.model === undefined ? routeByModel(text, state.models) : undefined;
  if (routed && "refusal" in routed) return routed.refusal;
  const model = withTask(route, resolveModel(routed?.model ?? modelIdFor(route, text, state.defaultModel), state.models), text, state.models);
  const wrongTask = state.strict ? taskRefusal(route, model, text) : undefined;
  if (wrongTask) return wrongTask;
  // The router serves the Responses API for any model it is asked for (none or `"tgi"` is the default model's own route).
  const viaRouter = routed !== undefined || (route.kind === "responses" && route.model === undefined && namesModel(text));
  // The provider that serves a router request: the router's pick, or hf-inference on its own path.
  const provider = routed?.provider ?? (pathname.startsWith("/hf-inference/") ? "hf-inference" : undefined);
  // A model the hub does not list, asked for on the router's route, is served by the default model behind the router,
  // which speaks OpenAI's protocol: its `json_schema` reaches a TGI-served default as TGI's own form. (A listed model
  // named there answers as that server would: the hub's root is also a TGI endpoint's own route.)
  const routerChat = route.kind === "chat" && route.model === undefined && namesModel(text) && routed === undefined && !state.models.has(modelIdFor(route, text, state.defaultModel));
  const sent = routerChat && model.backend !== "transformers" && !isOpenAiServer(model.backend) ? routerToTgi(text) : text;
  const response = await answer(state, route, request, sent, model, viaRouter, provider);
  return routed ? withProvider(response, routed.provider) : response;
}

type ModelRoute = Exclude<Route, { kind: "unknown" | "models" }>;

/** The model a request names, for its log line: the Hub API's or a route's path, else the body's `model`. */
function namedModel(request: Request, text: string, basePath: string | undefined): string | undefined {
  const pathname = new URL(request.url).pathname;
  const path = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  const hub = /^\/api\/models\/([^/]+(?:\/(?!revision\/)[^/]+)?)/.exec(path);
  if (hub) return hub[1];
  const route = matchRoute(request.method, pathname, basePath);
  return (route.kind === "unknown" ? undefined : route.model) ?? bodyModel(text);
}

/** The connection's faults, `/info`, the router's and the proxy's faults, then the backend. */
async function answer(state: HubState, route: ModelRoute, request: Request, text: string, model: ResolvedModel, viaRouter: boolean, provider?: string): Promise<Response> {
  const [refused] = state.faults.takeEach(model.id, ["refused"], provider);
  if (refused) return refusedConnection();
  const [delay] = state.faults.takeEach(model.id, ["headersDelay"], provider);
  if (delay?.type === "headersDelay") await state.timers.sleep(delay.delayMs);
  if (route.kind === "info") return tgiInfo(model);
  // The router refuses a provider before that provider (or its proxy) is asked.
  const refusal = provider === undefined ? undefined : routerFault(state.faults, model.id, provider, text);
  const gated = refusal ?? (await proxyGate({ request, model: model.id, faults: state.faults, provider }));
  return gated ?? dispatch(route, exchange(state, request, text, model, provider), viaRouter);
}

function exchange(state: HubState, request: Request, text: string, model: ResolvedModel, provider?: string): Exchange {
  return {
    request,
    text,
    model,
    takeStreamFaults: () => state.faults.takeEach(model.id, STREAM_FAULTS, provider) as StreamFault[],
    takeStructuredFault() {
      const rule = state.faults.peek(model.id, STRUCTURED_FAULTS, provider);
      return rule ? (state.faults.use(rule) as StructuredOutputFault) : undefined;
    },
    eventStream: (plan, faults) => eventStreamResponse(createEventStream(plan, faults, state.streams, request.signal)),
  };
}

/** `viaRouter`: the router serves the Responses API for every model it routes, whatever serves it. */
function dispatch(route: Exclude<ModelRoute, { kind: "info" }>, exchange: Exchange, viaRouter: boolean): Response {
  const { backend } = exchange.model;
  if (route.kind === "responses") {
    if (viaRouter || isOpenAiServer(backend)) return openAiResponses(exchange);
    // TGI has no such route (axum's empty 404); the pipeline's API answers its own 404.
    return backend === "transformers" ? jsonResponse(404, { error: "Not Found" }) : new Response(null, { status: 404 });
  }
  const task = route.kind === "pipeline" ? (route.task ?? exchange.model.task) : undefined;
  if (task !== undefined) return taskPipeline(exchange, task);
  // vLLM, SGLang and llama.cpp serve only the OpenAI routes here.
  if (isOpenAiServer(backend)) {
    if (route.kind === "chat") return openAiChat(exchange);
    return route.kind === "completions" ? openAiCompletions(exchange) : jsonResponse(404, { error: "Not Found" });
  }
  const transformers = backend === "transformers";
  switch (route.kind) {
    case "chat":
      return transformers ? transformersChat(exchange) : tgiChat(exchange);
    case "pipeline":
      return transformers ? transformersPipeline(exchange) : tgiGenerate(exchange, "compat");
    case "generate":
      return transformers ? jsonResponse(404, { error: "Not Found" }) : tgiGenerate(exchange, route.stream ? "stream" : "generate");
    case "completions":
      return transformers ? jsonResponse(404, { error: "Not Found" }) : tgiCompletions(exchange);
  }
}

/** The path's model, else the body's `model` (`"tgi"`, none, or a `:provider` suffix aside). */
function modelIdFor(route: ModelRoute, text: string, defaultModel: string): string {
  if (route.model !== undefined) return route.model;
  if (route.kind !== "chat" && route.kind !== "completions" && route.kind !== "responses") return defaultModel;
  const body = parseJson(text);
  const named = isRecord(body) && typeof body.model === "string" ? body.model.split(":")[0] : undefined;
  return !named || named === "tgi" ? defaultModel : named;
}

/** The body names a model: a non-empty string other than `"tgi"`. */
function namesModel(text: string): boolean {
  const body = parseJson(text);
  const model = isRecord(body) ? body.model : undefined;
  return typeof model === "string" && model !== "" && model !== "tgi";
}

function record(request: Request, text: string, requestId: string): RecordedRequest {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const body = text === "" ? undefined : (parseJson(text) ?? text);
  return { method: request.method, path: url.pathname + url.search, headers, body, time: Date.now(), requestId };
}

function internalError(error: unknown): Response {
  return textResponse(500, `mock hub error: ${error instanceof Error ? error.message : String(error)}`);
}
