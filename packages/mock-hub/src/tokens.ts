/** The end-of-sequence token a natural stop emits (TGI shows it as a special token). */
export const EOS_TOKEN = { id: 2, text: "</s>" } as const;

/** Word-tokens: "The", " capital", " of", ... (leading whitespace kept). */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

export function countTokens(text: string): number {
  return splitTokens(text).length;
}

/** JSON text as a tokenizer cuts it: runs of punctuation (`{"`, `":"`) and words (" Paris") apart; joined, the text again. */
export function jsonTokens(text: string): string[] {
  return text.match(/[{}[\]":,]+|\s*[^{}[\]":,\s]+|\s+/g) ?? [];
}

/** `<think>` + reasoning + `</think>` + answer, the tags cut in two as a tokenizer may cut them. */
export function inlineThinkTokens(reasoning: string, answer: string): string[] {
  return ["<thi", "nk>", ...splitTokens(reasoning), "</th", "ink>", ...splitTokens(answer)];
}

export type StopReason = "length" | "eos_token" | "stop_sequence";

export interface Generation {
  tokens: string[];
  text: string;
  reason: StopReason;
  /** A natural stop: an EOS token follows the words. */
  eos: boolean;
  /** Words plus the EOS token when there is one. */
  generatedTokens: number;
}

export interface Limits {
  maxNewTokens?: number | undefined;
  stop?: readonly string[] | undefined;
}

/** Replays the fixed answer (text or its tokens) under `max_new_tokens` and stop sequences, as TGI's stopping criteria do. */
export function runGeneration(answer: string | readonly string[], limits: Limits): Generation {
  const words = typeof answer === "string" ? splitTokens(answer) : answer;
  const stops = (limits.stop ?? []).filter((stop) => stop !== "");
  const max = limits.maxNewTokens;
  const tokens: string[] = [];
  let text = "";
  const finish = (reason: StopReason): Generation => {
    const eos = reason === "eos_token";
    return { tokens, text, reason, eos, generatedTokens: tokens.length + (eos ? 1 : 0) };
  };
  for (const word of words) {
    if (max !== undefined && tokens.length >= max) return finish("length");
    tokens.push(word);
    text += word;
    if (stops.some((stop) => text.includes(stop))) return finish("stop_sequence");
  }
  // The EOS token needs one more slot under max_new_tokens.
  return finish(max !== undefined && tokens.length >= max ? "length" : "eos_token");
}
