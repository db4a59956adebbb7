/**
 * `withTelemetry()`: an `observe` function that turns each hfkit call's events into one CLIENT span (with a child
 * span per HTTP attempt, an event per retry and failover move) and the GenAI client metrics at its end.
 */
import type { Attributes, MeterProvider, Span, Tracer, TracerProvider } from "@opentelemetry/api";
import { context, metrics, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type {
  CallAttemptEvent,
  CallEndEvent,
  CallEvent,
  CallFailoverEvent,
  CallRetryEvent,
  CallStartEvent,
  CallToolEvent,
} from "@hfkit/inference";
import { PROVIDER_NAME, requestAttributes, serverAttributes } from "./attributes";
import { bounded, type Instruments, instruments, record } from "./metrics";

/** Where the spans and metrics go, and what they say of the server. */
export interface TelemetryOptions {
  /** The spans' provider (default: the global one, `trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** The metrics' provider (default: the global one, `metrics.getMeterProvider()`, read at the first call). */
  meterProvider?: MeterProvider;
  /** `server.address` on every span and metric (default: the host each attempt went to, with its `server.port`). */
  serverAddress?: string;
}

/** What `withTelemetry()` returns: spread it into a call's or a client's options. */
export interface Telemetry {
  /** Told each event of each call (hfkit's `observe` option); never throws. */
  observe: (event: CallEvent) => void;
}

/** A call in flight: its span, its clock, and what its metrics will need at its end. */
interface Call {
  span: Span;
  start: CallStartEvent;
  startedAt: number;
  server: Attributes;
  firstChunkMs?: number;
}

/**
 * A breaker's change or a hedge of a call that fails over, typed here (as hfkit tells them) so that this package
 * compiles against a release of hfkit from before them too.
 */
type HealthEvent =
  | { type: "breaker"; call: number; target: string; state: string; failures: number; cooldownMs?: number }
  | { type: "hedge"; call: number; from: string; to: string; winner?: string };

/** What each event after `start` does to its call. */
type Handlers = {
  [T in Exclude<CallEvent["type"], "start" | "tool" | HealthEvent["type"]>]: (
    call: Call,
    event: Extract<CallEvent, { type: T }>,
  ) => void;
};

const SCOPE = "@hfkit/otel";

/** OpenTelemetry spans and GenAI client metrics for hfkit calls: `new InferenceClient(token, { ...withTelemetry() })`. */
export function withTelemetry(options: TelemetryOptions = {}): Telemetry {
  const calls = new Map<number, Call>();
  let tools: { tracer: Tracer; instruments: Instruments } | undefined;
  const fixedServer: Attributes = options.serverAddress ? { "server.address": options.serverAddress } : {};

  // The providers are read at the first call, so a global SDK started after withTelemetry() is still used.
  const resolve = () => {
    tools ??= {
      tracer: (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE),
      instruments: instruments((options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE)),
    };
    return tools;
  };

  const handlers: Handlers = {
    attempt: (call, event) => attempt(resolve().tracer, call, event, options.serverAddress === undefined),
    retry: (call, event) => call.span.addEvent("hfkit.retry", retryAttributes(event), now(call)),
    failover: (call, event) => call.span.addEvent("hfkit.failover", failoverAttributes(event), now(call)),
    "first-chunk": (call, event) => {
      call.firstChunkMs = event.ms;
      call.span.setAttribute("hfkit.time_to_first_chunk_ms", event.ms);
    },
    end: (call, event) => {
      calls.delete(event.call);
      finish(resolve().instruments, call, event);
    },
  };

  const observe = (event: CallEvent): void => {
    try {
      // The call's clock starts before the first call makes the tracer and instruments.
      if (event.type === "start")
        return void calls.set(event.call, open(event, performance.now(), resolve().tracer, fixedServer));
      if (event.type === "tool") return toolSpan(resolve().tracer, event);
      if (event.type === "breaker" || event.type === "hedge")
        return health(calls.get(event.call), resolve().instruments, event);
      const call = calls.get(event.call);
      if (call) (handlers[event.type] as (call: Call, event: CallEvent) => void)(call, event);
    } catch {
      // Telemetry never fails a call.
    }
  };
  return { observe };
}

/** A call's span, started at its `start` under the span active then. */
function open(start: CallStartEvent, startedAt: number, tracer: Tracer, server: Attributes): Call {
  const attributes: Attributes = {
    "gen_ai.operation.name": start.operation,
    "gen_ai.provider.name": PROVIDER_NAME,
    ...(start.model ? { "gen_ai.request.model": start.model } : {}),
    ...requestAttributes(start.parameters),
    ...server,
    "hfkit.stream": start.stream,
  };
  const name = start.model ? `${start.operation} ${start.model}` : start.operation;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, startTime: start.time, attributes });
  return { span, start, startedAt, server };
}

/** The call's clock, in ms since the epoch: its start's `time` plus the monotonic time since. */
function now(call: Call): number {
  return call.start.time + (performance.now() - call.startedAt);
}

/** An HTTP attempt: a child span from its request to its answer's headers. */
function attempt(tracer: Tracer, call: Call, event: CallAttemptEvent, fromHost: boolean): void {
  if (fromHost && event.host) {
    call.server = serverAttributes(event.host);
    call.span.setAttributes(call.server);
  }
  const end = now(call);
  // hfkit times the first attempt from the call's start: never before the span's start (`time` is whole ms).
  const startTime = Math.max(call.start.time, end - event.durationMs);
  const attributes: Attributes = {
    ...call.server,
    "http.response.status_code": event.status,
    "hfkit.attempt": event.attempt,
  };
  if (event.provider) attributes["hfkit.provider"] = event.provider;
  if (event.backend) attributes["hfkit.backend"] = event.backend;
  if (event.requestId) attributes["hfkit.request_id"] = event.requestId;
  if (event.status >= 400) attributes["error.type"] = String(event.status);
  const parent = trace.setSpan(context.active(), call.span);
  const span = tracer.startSpan("hfkit.attempt", { kind: SpanKind.CLIENT, startTime, attributes }, parent);
  if (event.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}

function retryAttributes(event: CallRetryEvent): Attributes {
  const attributes: Attributes = {
    "hfkit.retry.attempt": event.attempt,
    "hfkit.retry.reason": event.reason,
    "hfkit.retry.delay_ms": event.delayMs,
  };
  if (event.status !== undefined) attributes["http.response.status_code"] = event.status;
  if (event.estimatedTime !== undefined) attributes["hfkit.retry.loading_estimate_ms"] = event.estimatedTime * 1000;
  return attributes;
}

function failoverAttributes(event: CallFailoverEvent): Attributes {
  const attributes: Attributes = {
    "hfkit.failover.from": event.from,
    "hfkit.failover.to": event.to,
    "hfkit.failover.reason": event.reason,
  };
  if (event.error) attributes["hfkit.failover.error"] = event.error;
  return attributes;
}

/** A breaker's change or a hedge: an event on its call's span, and a count of each (`hfkit.health.changes`). */
function health(call: Call | undefined, to: Instruments, event: HealthEvent): void {
  const attributes: Attributes =
    event.type === "breaker"
      ? {
          "hfkit.breaker.target": event.target,
          "hfkit.breaker.state": event.state,
          "hfkit.breaker.failures": event.failures,
        }
      : { "hfkit.hedge.from": event.from, "hfkit.hedge.to": event.to };
  if (event.type === "breaker" && event.cooldownMs !== undefined)
    attributes["hfkit.breaker.cooldown_ms"] = event.cooldownMs;
  if (event.type === "hedge" && event.winner !== undefined) attributes["hfkit.hedge.winner"] = event.winner;
  call?.span.addEvent(`hfkit.${event.type}`, attributes, now(call));
  const change = event.type === "breaker" ? event.state : event.winner === undefined ? "hedge-started" : "hedge-won";
  const target = event.type === "breaker" ? event.target : event.to;
  to.health.add(1, bounded(to.seen, { "hfkit.health.change": change, "hfkit.target": target }));
}

/** The call's end: the response's attributes, its status, the span's end and the metrics. */
function finish(to: Instruments, call: Call, end: CallEndEvent): void {
  const { span, start } = call;
  const shared: Attributes = {
    "gen_ai.operation.name": start.operation,
    "gen_ai.provider.name": PROVIDER_NAME,
    ...(start.model ? { "gen_ai.request.model": start.model } : {}),
    ...(end.responseModel ? { "gen_ai.response.model": end.responseModel } : {}),
    ...call.server,
    ...(end.error ? { "error.type": end.error.name } : {}),
  };
  span.setAttributes({ ...shared, "hfkit.attempts": end.attempts, "hfkit.chunks": end.chunks });
  if (end.finishReasons.length > 0) span.setAttribute("gen_ai.response.finish_reasons", end.finishReasons);
  if (end.usage) {
    span.setAttributes({
      "gen_ai.usage.input_tokens": end.usage.input,
      "gen_ai.usage.output_tokens": end.usage.output,
    });
  }
  if (end.provider) span.setAttribute("hfkit.provider", end.provider);
  if (end.backend) span.setAttribute("hfkit.backend", end.backend);
  if (end.error?.kind) span.setAttribute("hfkit.timeout.kind", end.error.kind);
  if (end.error) span.setStatus({ code: SpanStatusCode.ERROR, message: end.error.name });
  span.end(start.time + end.durationMs);
  record(to, { end, stream: start.stream, firstChunkMs: call.firstChunkMs, attributes: shared });
}

/**
 * A tool call the runner ran: an `execute_tool {name}` span of its own, under the span active then, ending now. The
 * name is a tool the caller declared; a call of a tool the model made up (told as `""`) is `execute_tool` alone.
 */
function toolSpan(tracer: Tracer, event: CallToolEvent): void {
  const end = Date.now();
  const attributes: Attributes = {
    "gen_ai.operation.name": "execute_tool",
    ...(event.name ? { "gen_ai.tool.name": event.name } : {}),
    "gen_ai.tool.call.id": event.callId,
    "gen_ai.tool.type": "function",
    "hfkit.tool.status": event.status,
    "hfkit.step": event.step,
  };
  if (event.status !== "ok") attributes["error.type"] = event.error ?? event.status;
  const name = event.name ? `execute_tool ${event.name}` : "execute_tool";
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: end - event.durationMs, attributes });
  if (event.status !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: event.status });
  span.end(end);
}
