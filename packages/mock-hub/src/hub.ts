import { preflight, withCommonHeaders } from "./cors.js";
import { createEventStream, StreamTracker } from "./event-stream.js";
import type { Exchange } from "./exchange.js";
import { FaultRegistry } from "./faults.js";
import { eventStreamResponse, isEventStream, jsonResponse, refusedConnection, textResponse } from "./http.js";
import { DEFAULT_MODEL_ID, PREDEFINED_MODELS, resolveModel, type ResolvedModel } from "./models.js";
import { proxyGate, unauthorized } from "./proxy.js";
import { isOpenAiServer } from "./openai/dialects.js";
import { routerToTgi } from "./structured.js";
import { modelList, routerFault, withProvider } from "./openai/router.js";
import { providerFile, providerGet, providerRoute } from "./providerRoutes.js";
import { hubModelApi } from "./hubApi.js";
import { hasHfToken } from "./credentials.js";
import { modelRefusal, taskRefusal, withTask } from "./gate.js";
import { logLine, logSink } from "./log.js";
import { latencyMs, pause } from "./latency.js";
import { dispatch } from "./dispatch.js";
import { modelIdFor, type ModelRoute, namedModel, namesModel, record, routing } from "./requests.js";
import { tgiInfo } from "./tgi/info.js";
import { Timers } from "./timers.js";
import type {
  FaultType,
  LatencyFault,
  MockHubConfig,
  MockHubCore,
  ModelConfig,
  RecordedRequest,
  StreamFault,
  StructuredOutputFault,
} from "./types.js";

const STRUCTURED_FAULTS: readonly FaultType[] = ["badJson", "schemaViolation"];
const STREAM_FAULTS: readonly FaultType[] = [
  "overloadedInStream",
  "responseFailed",
  "linger",
  "stall",
  "drop",
  "truncate",
  "malformed",
  "keepAlive",
  "slow",
  "bodyChunking",
  "lineEnding",
  "bom",
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
      requests.push(record(request, text, requestId, routing(request, text, options.basePath, state.models).provider));
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

async function respond(
  state: HubState,
  request: Request,
  text: string,
  basePath: string | undefined,
): Promise<Response> {
  if (request.method === "OPTIONS") return preflight(request);
  const pathname = new URL(request.url).pathname;
  const path = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  // The Hub's model API and the files answers name are public; in strict mode the rest needs an HF token (`hf_…`).
  const open =
    request.method === "GET" ? (hubModelApi(request, path, state) ?? providerFile(request, path)) : undefined;
  if (open) return open;
  const { route, routed, provider } = routing(request, text, basePath, state.models);
  if (state.strict && !hasHfToken(request) && !(route.kind === "models" && route.model === undefined))
    return unauthorized();
  const got = request.method === "GET" ? providerGet(request, path) : undefined;
  if (got) return got;
  const provided = await providerRoute(request, path, text, state.faults);
  if (provided) return provided;
  if (route.kind === "unknown") return jsonResponse(404, { error: "Not Found" });
  const refusal = modelRefusal(route, path, text, state.models, state.strict);
  if (refusal) return refusal;
  if (route.kind === "models") return modelList(route.model, state.models);
  if (routed && "refusal" in routed) return routed.refusal;
  const model = withTask(
    route,
    resolveModel(routed?.model ?? modelIdFor(route, text, state.defaultModel), state.models),
    text,
    state.models,
  );
  const wrongTask = state.strict ? taskRefusal(route, model, text) : undefined;
  if (wrongTask) return wrongTask;
  // The router serves the Responses API for any model it is asked for (none or `"tgi"` is the default model's own route).
  const viaRouter =
    routed !== undefined || (route.kind === "responses" && route.model === undefined && namesModel(text));
  // A model the hub does not list, asked for on the router's route, is served by the default model behind the router,
  // which speaks OpenAI's protocol: its `json_schema` reaches a TGI-served default as TGI's own form. (A listed model
  // named there answers as that server would: the hub's root is also a TGI endpoint's own route.)
  const routerChat =
    route.kind === "chat" &&
    route.model === undefined &&
    namesModel(text) &&
    routed === undefined &&
    !state.models.has(modelIdFor(route, text, state.defaultModel));
  const sent =
    routerChat && model.backend !== "transformers" && !isOpenAiServer(model.backend) ? routerToTgi(text) : text;
  const response = await answer(state, route, request, sent, model, viaRouter, provider);
  return routed ? withProvider(response, routed.provider) : response;
}

/** The connection's faults, `/info`, the router's and the proxy's faults, then the backend. */
async function answer(
  state: HubState,
  route: ModelRoute,
  request: Request,
  text: string,
  model: ResolvedModel,
  viaRouter: boolean,
  provider?: string,
): Promise<Response> {
  const [refused] = state.faults.takeEach(model.id, ["refused"], provider);
  if (refused) return refusedConnection();
  const [delay] = state.faults.takeEach(model.id, ["headersDelay"], provider);
  if (delay?.type === "headersDelay") await state.timers.sleep(delay.delayMs);
  if (route.kind === "info") return tgiInfo(model);
  // The router refuses a provider before that provider (or its proxy) is asked.
  const refusal = provider === undefined ? undefined : routerFault(state.faults, model.id, provider, text);
  const gated = refusal ?? (await proxyGate({ request, model: model.id, faults: state.faults, provider }));
  if (gated) return gated;
  const latency = state.faults.peek(model.id, ["latency"], provider);
  const waitMs = latency ? latencyMs(state.faults.use(latency) as LatencyFault, latency.hits) : 0;
  const response = dispatch(route, exchange(state, request, text, model, provider, waitMs), viaRouter);
  // A stream waits before its first event (its status line goes at once); a whole answer, before its status line.
  if (waitMs > 0 && !isEventStream(response)) await pause(state.timers, waitMs, request.signal);
  return response;
}

/** `waitMs`: a latency fault's wait before the first event of a stream. */
function exchange(
  state: HubState,
  request: Request,
  text: string,
  model: ResolvedModel,
  provider: string | undefined,
  waitMs: number,
): Exchange {
  return {
    request,
    text,
    model,
    takeStreamFaults: () => state.faults.takeEach(model.id, STREAM_FAULTS, provider) as StreamFault[],
    takeStructuredFault() {
      const rule = state.faults.peek(model.id, STRUCTURED_FAULTS, provider);
      return rule ? (state.faults.use(rule) as StructuredOutputFault) : undefined;
    },
    eventStream: (plan, faults) =>
      eventStreamResponse(
        createEventStream({ ...plan, firstEventDelayMs: waitMs }, faults, state.streams, request.signal),
      ),
  };
}

function internalError(error: unknown): Response {
  return textResponse(500, `mock hub error: ${error instanceof Error ? error.message : String(error)}`);
}
