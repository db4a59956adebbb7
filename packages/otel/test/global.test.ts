/**
 * The defaults: the global providers, read at the first call (not when withTelemetry() is made), and the span active
 * at a call's start as its parent. This file alone sets global state, and undoes it.
 */
import type { CallEvent } from "@hfkit/inference";
import { type Context, type ContextManager, ROOT_CONTEXT, context, metrics, trace } from "@opentelemetry/api";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, expect, it } from "vitest";
import { withTelemetry } from "../src/index";

/** A synchronous context manager: enough for events told by hand inside `context.with`. */
class StackContext implements ContextManager {
  private stack: Context[] = [];
  active(): Context {
    return this.stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.stack = [];
    return this;
  }
}

class CollectedReader extends MetricReader {
  protected override onShutdown = () => Promise.resolve();
  protected override onForceFlush = () => Promise.resolve();
}

afterEach(() => {
  trace.disable();
  metrics.disable();
  context.disable();
});

const events = (time: number): CallEvent[] => [
  { type: "start", call: 1, operation: "chat", model: "m", stream: false, parameters: {}, time },
  { type: "end", call: 1, durationMs: 3, chunks: 1, finishReasons: ["stop"], attempts: 1 },
];

it("uses the global providers registered after withTelemetry() was made, under the span active at the call's start", async () => {
  const telemetry = withTelemetry();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectedReader();
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  context.setGlobalContextManager(new StackContext());

  const parent = tracerProvider.getTracer("app").startSpan("request");
  const [start, end] = events(Date.now());
  context.with(trace.setSpan(context.active(), parent), () => telemetry.observe(start!));
  telemetry.observe(end!);
  parent.end();

  const call = exporter.getFinishedSpans().find((s) => s.name === "chat m");
  expect(call?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  expect(call?.spanContext().traceId).toBe(parent.spanContext().traceId);
  const { resourceMetrics } = await reader.collect();
  expect(resourceMetrics.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name))).toContain(
    "gen_ai.client.operation.duration",
  );
});
