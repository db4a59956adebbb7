/**
 * The one place the specifications' outputs differ: the core answers in v3/v4's shapes (the same for what
 * this provider writes), and v2 (`ai` 5) gets its flat usage, its finish reason as a string and its warnings.
 */
import type {
  FinishReason,
  FinishReasonOf,
  ModelWarningOf,
  SpecVersion,
  StreamPart,
  Usage,
  UsageOf,
  Warning,
  WarningOf,
  WarningV2,
} from "./types";

/** A language model's warnings in version V. */
export function warningsFor<V extends SpecVersion>(version: V, warnings: Warning[]): Array<WarningOf<V>> {
  if (version !== "v2") return warnings as Array<WarningOf<V>>;
  return warnings.map((w): WarningV2 =>
    w.type === "unsupported" ? { type: "unsupported-setting", setting: w.feature, details: w.details } : asOther(w),
  ) as Array<WarningOf<V>>;
}

/** Another model type's warnings in version V (v2 names only its own options in `setting`: sent as `other`). */
export function modelWarningsFor<V extends SpecVersion>(version: V, warnings: Warning[]): Array<ModelWarningOf<V>> {
  return (version === "v2" ? warnings.map(asOther) : warnings) as Array<ModelWarningOf<V>>;
}

function asOther(w: Warning): { type: "other"; message: string } {
  return w.type === "other" ? w : { type: "other", message: w.details ? `${w.feature}: ${w.details}` : w.feature };
}

/** The finish reason in version V. */
export function finishReasonFor<V extends SpecVersion>(version: V, reason: FinishReason): FinishReasonOf<V> {
  return (version === "v2" ? reason.unified : reason) as FinishReasonOf<V>;
}

/** The usage in version V. */
export function usageFor<V extends SpecVersion>(version: V, usage: Usage): UsageOf<V> {
  if (version !== "v2") return usage as UsageOf<V>;
  const { inputTokens: input, outputTokens: output } = usage;
  const total =
    input.total === undefined && output.total === undefined ? undefined : (input.total ?? 0) + (output.total ?? 0);
  return {
    inputTokens: input.total,
    outputTokens: output.total,
    totalTokens: total,
    reasoningTokens: output.reasoning,
    cachedInputTokens: input.cacheRead,
  } as UsageOf<V>;
}

/** A stream part in version V: only `stream-start` and `finish` differ. */
export function streamPartFor<V extends SpecVersion>(version: V, part: StreamPart): StreamPart<V> {
  if (version === "v2" && part.type === "stream-start")
    return { type: "stream-start", warnings: warningsFor(version, part.warnings) };
  if (version === "v2" && part.type === "finish") {
    return { ...part, usage: usageFor(version, part.usage), finishReason: finishReasonFor(version, part.finishReason) };
  }
  return part as StreamPart<V>;
}
