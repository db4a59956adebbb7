/**
 * The four GenAI client metrics (semantic-conventions v1.41.0), recorded once per call at its end from what the
 * `end` event says: the duration, the tokens, and for a stream the time to the first chunk and between chunks.
 */
import type { Attributes, Counter, Histogram, Meter } from "@opentelemetry/api";
import type { CallEndEvent } from "@hfkit/inference";

/** The conventions' advised buckets: seconds for durations, powers of 4 for tokens. */
const SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const CHUNK_SECONDS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5];
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

/** The most values a server-chosen metric attribute takes per `withTelemetry()`: later new ones are `"other"`. */
export const MAX_SERVER_VALUES = 32;

/** The metric attributes whose values a server chooses (a series each): the model it names, the host it sends to. */
const SERVER_CHOSEN = ["gen_ai.response.model", "server.address", "server.port", "hfkit.target"];

/** The instruments, made once per meter, and the values their server-chosen attributes took so far. */
export interface Instruments {
  duration: Histogram;
  tokens: Histogram;
  firstChunk: Histogram;
  perChunk: Histogram;
  /** Breakers opened, half-opened, closed; hedges started and won (hfkit's own, beside the conventions'). */
  health: Counter;
  seen: Map<string, Set<string>>;
}

/** `attributes` with each server-chosen value among the first `MAX_SERVER_VALUES` its attribute took, else `"other"`. */
export function bounded(seen: Map<string, Set<string>>, attributes: Attributes): Attributes {
  const out = { ...attributes };
  for (const key of SERVER_CHOSEN) {
    const value = out[key];
    if (value === undefined) continue;
    let values = seen.get(key);
    if (!values) seen.set(key, (values = new Set()));
    const text = String(value);
    if (values.size < MAX_SERVER_VALUES) values.add(text);
    if (!values.has(text)) out[key] = "other";
  }
  return out;
}

export function instruments(meter: Meter): Instruments {
  return {
    seen: new Map(),
    duration: meter.createHistogram("gen_ai.client.operation.duration", {
      description: "GenAI operation duration.",
      unit: "s",
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    tokens: meter.createHistogram("gen_ai.client.token.usage", {
      description: "Number of input and output tokens used.",
      unit: "{token}",
      advice: { explicitBucketBoundaries: TOKENS },
    }),
    firstChunk: meter.createHistogram("gen_ai.client.operation.time_to_first_chunk", {
      description: "Time to receive the first chunk in a streaming operation.",
      unit: "s",
      advice: { explicitBucketBoundaries: SECONDS },
    }),
    perChunk: meter.createHistogram("gen_ai.client.operation.time_per_output_chunk", {
      description: "Time per output chunk after the first one in a streaming operation.",
      unit: "s",
      advice: { explicitBucketBoundaries: CHUNK_SECONDS },
    }),
    health: meter.createCounter("hfkit.health.changes", {
      description: "Circuit breakers of failover targets opened, half-opened or closed, and hedges started or won.",
      unit: "{change}",
    }),
  };
}

/** What a call measured, with the attributes its metrics share. */
export interface Measured {
  end: CallEndEvent;
  stream: boolean;
  firstChunkMs: number | undefined;
  attributes: Attributes;
}

/**
 * A call's metrics. hfkit reports the mean gap between a stream's chunks, not each gap: it is recorded once per chunk
 * after the first, so the histogram's count and sum are those of the conventions, its spread is not.
 */
export function record(to: Instruments, { end, stream, firstChunkMs, attributes: all }: Measured): void {
  const attributes = bounded(to.seen, all);
  to.duration.record(end.durationMs / 1000, attributes);
  if (end.usage) {
    to.tokens.record(end.usage.input, { ...attributes, "gen_ai.token.type": "input" });
    to.tokens.record(end.usage.output, { ...attributes, "gen_ai.token.type": "output" });
  }
  if (!stream) return;
  if (firstChunkMs !== undefined) to.firstChunk.record(firstChunkMs / 1000, attributes);
  const perChunk = end.timePerChunkMs;
  if (perChunk !== undefined) for (let i = 1; i < end.chunks; i++) to.perChunk.record(perChunk / 1000, attributes);
}
