import type { RequestReport } from "./report";

/** The proxy's Prometheus metrics: a registry of its own, fed one report a request. */
export interface ProxyMetrics {
  /** Counts and times one answered request. */
  record(report: RequestReport): void;
  /** The registry in Prometheus' text format, and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

/** The routes a metric names; any other path is `other`, so a client's typos make no new series. */
const ROUTES = new Set(["/v1/chat/completions", "/v1/responses", "/v1/models"]);

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const FIRST_CHUNK_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The most values a label takes: a client names the model, an upstream the provider, and each value is a series of
 * every metric. Past them, a new value is counted as `other`.
 */
export const MAX_LABEL_VALUES = 32;

type Labels = Record<string, string>;

/** `labels` with each value among the first `MAX_LABEL_VALUES` its label took, else `other`. */
export function labelCap(): <L extends Labels>(labels: L) => L {
  const seen = new Map<string, Set<string>>();
  return <L extends Labels>(labels: L): L => {
    const out: Labels = {};
    for (const [name, value] of Object.entries(labels)) {
      let values = seen.get(name);
      if (!values) seen.set(name, (values = new Set()));
      if (values.size < MAX_LABEL_VALUES) values.add(value);
      out[name] = values.has(value) ? value : "other";
    }
    return out as L; // the same names, each with a string
  };
}

/** `ok`, the hfkit error's class name, or `http_<status>` for an error the proxy answered without one. */
export function outcomeOf(r: RequestReport): string {
  if (r.error) return r.error;
  return r.status < 400 ? "ok" : `http_${r.status}`;
}

/** Loads prom-client (only now: a proxy without metrics, or the fetch adapter, never does) and makes the metrics. */
export async function createMetrics(): Promise<ProxyMetrics> {
  const { Counter, Histogram, Registry } = await import("prom-client");
  const registry = new Registry();
  const labelNames = ["route", "model", "provider", "outcome"] as const;
  const registers = [registry];
  const requests = new Counter({
    name: "hfkit_proxy_requests_total",
    help: "Requests answered, by outcome (ok or the error's class)",
    labelNames,
    registers,
  });
  const duration = new Histogram({
    name: "hfkit_proxy_request_duration_seconds",
    help: "From a request's arrival to its answer's last byte",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const firstChunk = new Histogram({
    name: "hfkit_proxy_time_to_first_chunk_seconds",
    help: "From a streamed call's start to its first chunk with data",
    labelNames: ["route", "model", "provider"] as const,
    buckets: FIRST_CHUNK_BUCKETS,
    registers,
  });
  const tokens = new Counter({
    name: "hfkit_proxy_tokens_total",
    help: "Tokens the upstream counted, by type (input: the prompt's, output: the answer's)",
    labelNames: ["route", "model", "provider", "type"] as const,
    registers,
  });
  const capped = labelCap();
  return {
    record(r) {
      const { outcome, ...call } = capped({
        route: ROUTES.has(r.route) ? r.route : "other",
        model: r.model ?? "",
        provider: r.provider ?? "",
        outcome: outcomeOf(r),
      });
      const labels = { ...call, outcome };
      requests.inc(labels);
      duration.observe(labels, r.durationMs / 1000);
      if (r.firstChunkMs !== undefined) firstChunk.observe(call, r.firstChunkMs / 1000);
      if (r.tokens) {
        tokens.inc({ ...call, type: "input" }, r.tokens.input);
        tokens.inc({ ...call, type: "output" }, r.tokens.output);
      }
    },
    scrape: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
  };
}
