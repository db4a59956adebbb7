/** The real OpenTelemetry SDK in memory: spans kept by an exporter, metrics collected on demand. No global state. */
import type { CallEvent } from "@hfkit/inference";
import { type Attributes, SpanKind } from "@opentelemetry/api";
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { type TelemetryOptions, withTelemetry } from "../src/index";

/** A reader collected by hand (`collect()`), the cumulative view of every histogram. */
class CollectedReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Recorded {
  /** What the call's options get: `observe`, also keeping every event in `events`. */
  observe: (event: CallEvent) => void;
  events: CallEvent[];
  /** The ended spans. */
  spans: () => ReadableSpan[];
  /** The call spans (kind CLIENT, no hfkit parent). */
  calls: () => ReadableSpan[];
  /** The attempt spans under a call span. */
  attemptsOf: (call: ReadableSpan) => ReadableSpan[];
  /** A histogram's points, by metric name. */
  points: (name: string) => Promise<Array<DataPoint<Histogram>>>;
}

export function record(options: Omit<TelemetryOptions, "tracerProvider" | "meterProvider"> = {}): Recorded {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectedReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = withTelemetry({ ...options, tracerProvider, meterProvider });
  const events: CallEvent[] = [];
  const spans = () => exporter.getFinishedSpans();
  return {
    events,
    observe: (event) => {
      events.push(event);
      telemetry.observe(event);
    },
    spans,
    calls: () => spans().filter((s) => s.name !== "hfkit.attempt"),
    attemptsOf: (call) =>
      spans().filter((s) => s.name === "hfkit.attempt" && s.parentSpanContext?.spanId === call.spanContext().spanId),
    points: async (name) => {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
      return (metric?.dataPoints ?? []) as Array<DataPoint<Histogram>>;
    },
  };
}

/** Milliseconds since the epoch of an OpenTelemetry time. */
export const ms = ([s, ns]: [number, number]) => s * 1000 + ns / 1e6;

export const CLIENT = SpanKind.CLIENT;

/** Every attribute a span, its events and the metrics carry, as one string to search. */
export function everything(spans: ReadableSpan[], points: Array<{ attributes: Attributes }>): string {
  return JSON.stringify([
    spans.map((s) => [s.name, s.attributes, s.events.map((e) => [e.name, e.attributes]), s.status]),
    points.map((p) => p.attributes),
  ]);
}
