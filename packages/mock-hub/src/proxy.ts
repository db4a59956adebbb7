import { hasBadToken } from "./credentials.js";
import type { FaultRegistry } from "./faults.js";
import { jsonResponse } from "./http.js";
import type { FaultType, ProxyFault } from "./types.js";

/** The serverless proxy in front of both backends: tokens, unknown models, and the scripted faults. */

const PROXY_FAULTS: readonly FaultType[] = ["loading", "rateLimit", "serverError", "unauthorized", "tooLarge"];

const RATE_LIMIT =
  "Rate limit reached. You reached free usage limit (reset hourly). Please subscribe to a plan at https://huggingface.co/pricing to use the API at this rate";

const REASONS: Record<number, string> = {
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export interface ProxyRequest {
  request: Request;
  model: string;
  faults: FaultRegistry;
  /** The router's provider serving the request, if it came through the router. */
  provider?: string;
}

/** A response when the proxy answers instead of the backend; undefined lets the request through. */
export async function proxyGate({ request, model, faults, provider }: ProxyRequest): Promise<Response | undefined> {
  if (hasBadToken(request)) return unauthorized();
  if (model.includes("does-not-exist")) return modelNotFound(model);
  const waitForModel = request.headers.get("x-wait-for-model")?.toLowerCase() === "true";
  for (;;) {
    const rule = faults.peek(model, PROXY_FAULTS, provider);
    if (!rule) return undefined;
    if (rule.fault.type !== "loading" || !waitForModel)
      return faultResponse(faults.use(rule) as ProxyFault, model, rule.endsAt);
    // x-wait-for-model: hold the request until the model has loaded.
    await Promise.race([rule.whenRemoved(), aborted(request.signal)]);
    if (request.signal.aborted) return faultResponse(rule.fault, model);
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** hf-inference's answer for a model it does not have. */
export function modelNotFound(model: string): Response {
  return jsonResponse(404, { error: `Model ${model} does not exist` });
}

/** The proxy's (and the router's) 401, for a refused token or none. */
export function unauthorized(): Response {
  return jsonResponse(401, { error: "Invalid username or password." });
}

/** `endsAt`: when the fault's `durationMs` ends it (a 429 says how long is left). */
function faultResponse(fault: ProxyFault, model: string, endsAt?: number): Response {
  switch (fault.type) {
    case "loading":
      return jsonResponse(503, {
        error: `Model ${model} is currently loading`,
        estimated_time: fault.estimatedTime ?? 20,
      });
    case "rateLimit":
      return jsonResponse(429, { error: RATE_LIMIT }, retryHeaders(fault, endsAt));
    case "unauthorized":
      return unauthorized();
    case "tooLarge":
      return jsonResponse(403, {
        error: `The model ${model} is too large to be loaded automatically (145GB > 10GB). Please use Spaces (https://huggingface.co/spaces) or Inference Endpoints (https://huggingface.co/inference-endpoints).`,
      });
    case "serverError":
      return serverError(fault);
  }
}

function retryHeaders(
  fault: Extract<ProxyFault, { type: "rateLimit" }>,
  endsAt: number | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const left = endsAt === undefined ? undefined : Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
  const seconds = fault.retryAfter ?? left;
  if (seconds !== undefined) headers["retry-after"] = String(seconds);
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  return headers;
}

function serverError(fault: Extract<ProxyFault, { type: "serverError" }>): Response {
  const status = fault.status ?? 500;
  if (fault.body === undefined) return jsonResponse(status, { error: REASONS[status] ?? "Internal Server Error" });
  return new Response(fault.body, {
    status,
    headers: { "content-type": fault.contentType ?? "text/plain; charset=utf-8" },
  });
}
