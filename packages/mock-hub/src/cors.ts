/** CORS as the inference API answers it, so browser pages can call the hub. */
import { isRefused } from "./http.js";

const EXPOSED = "x-request-id, x-compute-type, x-compute-time, x-inference-provider, retry-after, retry-after-ms";
const VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

export function preflight(request: Request): Response {
  const requested = request.headers.get("access-control-request-headers");
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": requested ?? "*",
      "access-control-max-age": "86400",
    },
  });
}

/** Adds the CORS and request-id headers every answer carries, errors included (a refused connection has none). */
export function withCommonHeaders(response: Response, request: Request, requestId: string): Response {
  if (isRefused(response)) return response;
  const origin = request.headers.get("origin");
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", origin ?? "*");
  headers.set("access-control-allow-credentials", "true");
  headers.set("access-control-expose-headers", EXPOSED);
  headers.set("vary", VARY);
  headers.set("x-request-id", requestId);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
