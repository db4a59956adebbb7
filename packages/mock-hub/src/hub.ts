import { preflight, withCommonHeaders } from "./cors.js";
import { createEventStream, StreamTracker } from "./event-stream.js";
import type { Exchange } from "./exchange.js";
import { FaultRegistry } from "./faults.js";
import { eventStreamResponse, isRecord, jsonResponse, parseJson, textResponse } from "./http.js";
import { DEFAULT_MODEL_ID, PREDEFINED_MODELS, resolveModel, type ResolvedModel } from "./models.js";
import { proxyGate } from "./proxy.js";
import { matchRoute, type Route } from "./routes.js";
import { tgiChat } from "./tgi/chat.js";
import { tgiGenerate } from "./tgi/generate.js";
import { tgiInfo } from "./tgi/info.js";
import { Timers } from "./timers.js";
import { transformersChat, transformersPipeline } from "./transformers.js";
import type {
  Fault,
  FaultType,
  HandleOptions,
  MockHubConfig,
  MockHubCore,
  ModelConfig,
  RecordedRequest,
  StreamFault,
} from "./types.js";

const STREAM_FAULTS: readonly FaultType[] = [
  "overloadedInStream", "linger", "stall", "drop", "truncate", "malformed",
  "keepAlive", "slow", "bodyChunking", "lineEnding", "bom",
];

/** The emulator's core: web-standard Request in, Response out; no Node built-ins. */
export function createMockHub(config: MockHubConfig = {}): MockHubCore {
  const models = new Map<string, ModelConfig>(Object.entries({ ...PREDEFINED_MODELS, ...config.models }));
  const defaultModel = config.defaultModel ?? DEFAULT_MODEL_ID;
  const timers = new Timers();
  const faults = new FaultRegistry(timers);
  const streams = new StreamTracker();
  const requests: RecordedRequest[] = [];
  let counter = 0;

  const addConfigFaults = (id: string, model: ModelConfig): void => {
    for (const fault of model.faults ?? []) faults.add(fault, id, undefined, "config");
  };
  for (const [id, model] of models) addConfigFaults(id, model);

  const exchangeFor = (request: Request, text: string, model: ResolvedModel): Exchange => ({
    request,
    text,
    model,
    takeStreamFaults: () => faults.takeEach(model.id, STREAM_FAULTS) as StreamFault[],
    eventStream: (plan, streamFaults) => eventStreamResponse(createEventStream(plan, streamFaults, streams, request.signal)),
  });

  const answer = async (request: Request, text: string, route: Route): Promise<Response> => {
    if (route.kind === "unknown") return jsonResponse(404, { error: "Not Found" });
    const model = resolveModel(modelIdFor(route, text, defaultModel), models);
    const [delay] = faults.takeEach(model.id, ["headersDelay"]);
    if (delay?.type === "headersDelay") await timers.sleep(delay.delayMs);
    if (route.kind === "info") return tgiInfo(model);
    const refusal = await proxyGate({ request, model: model.id, faults });
    if (refusal) return refusal;
    return dispatch(route, exchangeFor(request, text, model));
  };

  return {
    requests,
    async handle(request: Request, options: HandleOptions = {}): Promise<Response> {
      const requestId = `mock-${++counter}`;
      const text = await request.text();
      const url = new URL(request.url);
      requests.push(record(request, url, text, requestId));
      const route = matchRoute(request.method, url.pathname, options.basePath);
      const response = await (request.method === "OPTIONS" ? Promise.resolve(preflight(request)) : answer(request, text, route))
        .catch((error: unknown) => textResponse(500, `mock hub error: ${error instanceof Error ? error.message : String(error)}`));
      return withCommonHeaders(response, request, requestId);
    },
    openStreams: () => streams.count(),
    setModel(id: string, model: ModelConfig): void {
      models.set(id, model);
      for (const rule of faults.rulesOf(id, "config")) rule.remove();
      addConfigFaults(id, model);
    },
    inject: (fault: Fault, options = {}) => faults.add(fault, options.model, options.times, "inject"),
    clearFaults: () => faults.clear(),
    reset(): void {
      requests.length = 0;
      faults.clear();
      for (const [id, model] of models) addConfigFaults(id, model);
    },
    dispose(): void {
      faults.clear();
      timers.clear();
      streams.stopAll();
    },
  };
}

function dispatch(route: Exclude<Route, { kind: "unknown" | "info" }>, exchange: Exchange): Response {
  const transformers = exchange.model.backend === "transformers";
  switch (route.kind) {
    case "chat":
      return transformers ? transformersChat(exchange) : tgiChat(exchange);
    case "pipeline":
      return transformers ? transformersPipeline(exchange) : tgiGenerate(exchange, "compat");
    case "generate":
      return transformers ? jsonResponse(404, { error: "Not Found" }) : tgiGenerate(exchange, route.stream ? "stream" : "generate");
  }
}

/** The path's model, else the body's `model` (`"tgi"`, none, or a `:provider` suffix aside). */
function modelIdFor(route: Exclude<Route, { kind: "unknown" }>, text: string, defaultModel: string): string {
  if (route.model !== undefined) return route.model;
  if (route.kind !== "chat") return defaultModel;
  const body = parseJson(text);
  const named = isRecord(body) && typeof body.model === "string" ? body.model.split(":")[0] : undefined;
  return !named || named === "tgi" ? defaultModel : named;
}

function record(request: Request, url: URL, text: string, requestId: string): RecordedRequest {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const body = text === "" ? undefined : (parseJson(text) ?? text);
  return { method: request.method, path: url.pathname + url.search, headers, body, time: Date.now(), requestId };
}
