import type { IncomingMessage, ServerResponse } from "node:http";
import type { Options } from "@hfkit/inference";
import { createMetrics, type ProxyMetrics } from "./metrics";
import { type LogFormat, type LogSink, type RequestReport, RequestTrace, requestLogger } from "./report";

/** The proxy's options that say what it reports. */
export interface TelemetryOptions {
  /** One line per request (method, route, model, provider, status, timings, tokens, error class): `"json"`, `"text"` or `"off"` (default). */
  log?: LogFormat;
  /** Where log lines go: a function given each line, or a stream written each line (default: stderr). */
  logTo?: LogSink;
  /** Serves Prometheus metrics at `GET /metrics`, from a registry of the proxy's own; prom-client is loaded only then. Default false. */
  metrics?: boolean;
}

/** Where a proxy's requests are reported: its log, its metrics (once prom-client is loaded). */
export interface Telemetry {
  log?: (report: RequestReport) => void;
  metrics?: Promise<ProxyMetrics>;
}

/** The proxy's telemetry; undefined when its log and its metrics are off. */
export function createTelemetry(options: TelemetryOptions): Telemetry | undefined {
  const log = requestLogger(options.log, options.logTo);
  if (!log && !options.metrics) return undefined;
  const metrics = options.metrics ? createMetrics() : undefined;
  // Told at the first scrape; never an unhandled rejection meanwhile.
  metrics?.catch(() => {});
  return { log, metrics };
}

/** `GET /metrics` on a proxy with metrics on. */
export const isScrape = (req: IncomingMessage, telemetry: Telemetry | undefined): boolean =>
  telemetry?.metrics !== undefined && req.method === "GET" && req.url?.split("?")[0] === "/metrics";

/**
 * The request's trace, reported once its answer is sent or its client left. A scrape of `/metrics` is
 * neither logged nor counted: a scraper would drown the log.
 */
export function traceOf(req: IncomingMessage, res: ServerResponse, telemetry: Telemetry | undefined): RequestTrace {
  const trace = new RequestTrace(req.method ?? "GET", (req.url ?? "/").split("?")[0] ?? "/");
  if (!telemetry || isScrape(req, telemetry)) return trace;
  res.once("close", () => {
    const report = trace.finish(res.headersSent ? res.statusCode : undefined);
    telemetry.log?.(report);
    void telemetry.metrics?.then(
      (m) => m.record(report),
      () => {},
    );
  });
  return trace;
}

/** The call's `observe`: the request's trace told first, then the caller's own. */
export const observing =
  (trace: RequestTrace, own: Options["observe"]): NonNullable<Options["observe"]> =>
  (event) => {
    trace.observe(event);
    own?.(event);
  };

/** `GET /metrics`: the registry in Prometheus' text format; 500 when prom-client could not be loaded. */
export async function scrape(res: ServerResponse, metrics: Promise<ProxyMetrics>): Promise<void> {
  try {
    const { contentType, text } = await (await metrics).scrape();
    res.writeHead(200, { "content-type": contentType }).end(text);
  } catch (error) {
    const message = `The proxy's metrics are unavailable: ${String((error as Error)?.message ?? error)}`;
    res
      .writeHead(500, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message, type: "server_error", code: null } }));
  }
}
