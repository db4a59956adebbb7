import type { Literal, LiteralObject } from "./literals";
import { promptOf, type SnippetRequest } from "./request";

/** The Messages API arguments every chat snippet sends, in this order. */
export function chatArgs(req: SnippetRequest): LiteralObject {
  return {
    model: req.model,
    messages: req.messages as unknown as Literal,
    max_tokens: req.maxTokens,
    temperature: req.temperature,
  };
}

/** TGI's generate payload: `{inputs, parameters}`. */
export function generationArgs(req: SnippetRequest): { inputs: string; parameters: LiteralObject } {
  return {
    inputs: promptOf(req.messages),
    parameters: { max_new_tokens: req.maxTokens, temperature: req.temperature },
  };
}
