/** `textGeneration`'s arguments: checked, and its sampling settings mapped for `generate`. */
import { InputError } from "../core/errors";
import type { TextGenerationInput, TextGenerationInputGenerateParameters } from "../types";
import { checkBoolean, checkInteger, checkRange, checkStop, isGreedy } from "./params";

/** Checks `textGeneration` arguments: `inputs` a string, and the generate parameters' ranges. */
export function validateGenerateInput(args: TextGenerationInput): void {
  if (typeof args.inputs !== "string") throw new InputError("`inputs` must be a string", "inputs");
  const p = args.parameters;
  if (p === undefined) return;
  if (typeof p !== "object" || p === null) throw new InputError("`parameters` must be an object", "parameters");
  const at = "parameters.";
  checkRange(p, "top_p", 0, 1, at);
  checkRange(p, "typical_p", 0, 1, at);
  checkRange(p, "temperature", 0, Infinity, at);
  checkRange(p, "repetition_penalty", 0, Infinity, at, true);
  checkRange(p, "frequency_penalty", -2, 2, at);
  for (const field of ["max_new_tokens", "top_k", "truncate", "best_of"] as const) checkInteger(p, field, 1, at);
  checkInteger(p, "top_n_tokens", 0, at);
  checkInteger(p, "seed", 0, at);
  for (const field of ["do_sample", "return_full_text", "details", "decoder_input_details", "watermark"] as const)
    checkBoolean(p, field, at);
  checkStop(p, at);
}

/**
 * OpenAI-style ranges mapped for `generate` (TGI and the pipeline alike): `temperature: 0` and
 * `top_p: 0` are greedy (`do_sample: false`), `top_p: 1` / `typical_p: 1` are the default.
 */
export function generateParameters(
  p: TextGenerationInputGenerateParameters | undefined,
): TextGenerationInputGenerateParameters | undefined {
  if (!p) return p;
  const out = { ...p };
  if (isGreedy(out)) {
    out.do_sample = false;
    delete out.temperature;
    if (out.top_p === 0) delete out.top_p;
    if (out.typical_p === 0) delete out.typical_p;
  }
  if (out.top_p === 1) delete out.top_p;
  if (out.typical_p === 1) delete out.typical_p;
  return out;
}
