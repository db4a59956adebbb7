/** Finish reasons, usage and response metadata, as the AI SDK names them. */
import type { FinishReason, ResponseMetadata, Usage } from "./spec/types";
import type { ChatCompletionUsage, Served } from "@hfkit/inference";

const UNIFIED: Record<string, FinishReason["unified"]> = {
  stop: "stop",
  eos_token: "stop",
  stop_sequence: "stop",
  end_turn: "stop",
  length: "length",
  max_tokens: "length",
  tool_calls: "tool-calls",
  function_call: "tool-calls",
  content_filter: "content-filter",
  error: "error",
};

/**
 * The server's finish reason, unified: `stop` (and TGI's `eos_token` / `stop_sequence`), `length`,
 * `tool_calls`, `content_filter`; anything else is `other`. An answer with tool calls finishes with
 * `tool-calls` even when the server said `stop` (as TGI does).
 */
export function finishReason(raw: string | null | undefined, madeToolCalls: boolean): FinishReason {
  const unified = raw ? (UNIFIED[raw] ?? "other") : "other";
  return { unified: madeToolCalls && unified === "stop" ? "tool-calls" : unified, raw: raw ?? undefined };
}

/** Token counts as the AI SDK's usage; every count undefined when the server sent none (TGI < 2.3 streams). */
export function usageOf(usage: ChatCompletionUsage | null | undefined): Usage {
  const u = usage ?? undefined;
  const input = count(u?.prompt_tokens);
  const output = count(u?.completion_tokens);
  const cached = count(detail(u?.prompt_tokens_details, "cached_tokens"));
  const reasoning = count(detail(u?.completion_tokens_details, "reasoning_tokens"));
  return {
    inputTokens: {
      total: input,
      noCache: input === undefined || cached === undefined ? input : input - cached,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: output,
      text: output === undefined || reasoning === undefined ? output : output - reasoning,
      reasoning,
    },
    ...(u ? { raw: JSON.parse(JSON.stringify(u)) as NonNullable<Usage["raw"]> } : {}),
  };
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function detail(details: unknown, key: string): unknown {
  return typeof details === "object" && details !== null ? (details as Record<string, unknown>)[key] : undefined;
}

/** The answer's id, model and time, as far as the server gave them. */
export function responseMetadata(out: { id?: string; model?: string; created?: number }): ResponseMetadata {
  return {
    id: out.id || undefined,
    modelId: out.model || undefined,
    timestamp: typeof out.created === "number" && out.created > 0 ? new Date(out.created * 1000) : undefined,
  };
}

/** A call's estimated cost, as on the answer's `served.cost` (a type, not an interface: provider metadata is JSON). */
export type ServedCost = { input: number; output: number; total: number; currency: string };

/** A hedge that ran, as on the answer's `served.hedge`: the candidate running, the one started beside it, the winner. */
export type ServedHedge = { from: string; to: string; winner: string };

/**
 * Which candidate answered a call that failed over, as the AI SDK's provider metadata (`providerMetadata.hfkit`):
 * the answer's `served`, in the same shape.
 */
export function servedMetadata(served: Served): {
  model: string;
  provider: string;
  cost?: ServedCost;
  hedge?: ServedHedge;
} {
  const { cost, hedge } = served;
  const priced = cost
    ? { cost: { input: cost.input, output: cost.output, total: cost.total, currency: cost.currency } }
    : {};
  const hedged = hedge ? { hedge: { from: hedge.from, to: hedge.to, winner: hedge.winner } } : {};
  return { model: served.model, provider: served.provider, ...priced, ...hedged };
}
