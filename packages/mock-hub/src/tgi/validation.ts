/** TGI's request validation (router `validation.rs`): the rules, their order and their messages. */

const MAX_BEST_OF = 2;
const MAX_STOP_SEQUENCES = 4;
const MAX_TOP_N_TOKENS = 5;

/** `GenerateParameters` after the chat route's mapping. */
export interface GenerateParameters {
  best_of?: number | null;
  temperature?: number | null;
  repetition_penalty?: number | null;
  frequency_penalty?: number | null;
  top_k?: number | null;
  top_p?: number | null;
  typical_p?: number | null;
  do_sample?: boolean | null;
  max_new_tokens?: number | null;
  stop?: string[] | null;
  seed?: number | null;
  top_n_tokens?: number | null;
  details?: boolean | null;
  decoder_input_details?: boolean | null;
  return_full_text?: boolean | null;
}

export interface PromptSize {
  inputTokens: number;
  maxTotalTokens: number;
}

type Rule = (p: GenerateParameters, size: PromptSize) => string | undefined;

const isSet = (value: number | null | undefined): value is number => value !== undefined && value !== null;

const RULES: readonly Rule[] = [
  (p) =>
    isSet(p.best_of) && (p.best_of < 1 || p.best_of > MAX_BEST_OF)
      ? `\`best_of\` must be > 0 and <= ${MAX_BEST_OF}. Given: ${p.best_of}`
      : undefined,
  (p) => ((p.best_of ?? 1) > 1 && !sampling(p) ? "you must use sampling when `best_of` is > 1" : undefined),
  (p) => (isSet(p.temperature) && p.temperature <= 0 ? "`temperature` must be strictly positive" : undefined),
  (p) =>
    isSet(p.repetition_penalty) && p.repetition_penalty <= 0
      ? "`repetition_penalty` must be strictly positive"
      : undefined,
  (p) =>
    isSet(p.frequency_penalty) && Math.abs(p.frequency_penalty) > 2
      ? "`frequency_penalty` must be >= -2.0 and <= 2.0"
      : undefined,
  (p) => (isSet(p.top_p) && (p.top_p <= 0 || p.top_p >= 1) ? "`top_p` must be > 0.0 and < 1.0" : undefined),
  (p) =>
    isSet(p.typical_p) && (p.typical_p <= 0 || p.typical_p >= 1) ? "`typical_p` must be > 0.0 and < 1.0" : undefined,
  (p) => (isSet(p.top_k) && p.top_k <= 0 ? "`top_k` must be strictly positive" : undefined),
  (p) => (p.max_new_tokens === 0 ? "`max_new_tokens` must be strictly positive" : undefined),
  (p) => {
    const count = p.stop?.length ?? 0;
    return count > MAX_STOP_SEQUENCES
      ? `\`stop\` supports up to ${MAX_STOP_SEQUENCES} stop sequences. Given: ${count}`
      : undefined;
  },
  (p) => ((p.best_of ?? 1) > 1 && isSet(p.seed) ? "`seed` must not be set when `best_of` > 1" : undefined),
  (p) =>
    isSet(p.top_n_tokens) && p.top_n_tokens > MAX_TOP_N_TOKENS
      ? `\`top_n_tokens\` must be >= 0 and <= ${MAX_TOP_N_TOKENS}. Given: ${p.top_n_tokens}`
      : undefined,
  (_, size) => (size.inputTokens === 0 ? "`inputs` cannot be empty" : undefined),
  (p, { inputTokens, maxTotalTokens }) =>
    isSet(p.max_new_tokens) && inputTokens + p.max_new_tokens > maxTotalTokens
      ? `\`inputs\` tokens + \`max_new_tokens\` must be <= ${maxTotalTokens}. Given: ${inputTokens} \`inputs\` tokens and ${p.max_new_tokens} \`max_new_tokens\``
      : undefined,
];

function sampling(p: GenerateParameters): boolean {
  return Boolean(p.do_sample) || [p.temperature, p.top_k, p.top_p, p.typical_p].some(isSet);
}

/** The full error message ("Input validation error: ...") of the first rule broken, if any. */
export function validationError(parameters: GenerateParameters, size: PromptSize): string | undefined {
  for (const rule of RULES) {
    const problem = rule(parameters, size);
    if (problem) return `Input validation error: ${problem}`;
  }
  return undefined;
}

/** Checks that only apply to `generate_stream` (server `generate_stream_internal`). */
export function streamOnlyError(parameters: GenerateParameters): string | undefined {
  if ((parameters.best_of ?? 1) !== 1)
    return "Input validation error: `best_of` != 1 is not supported when streaming tokens";
  if (parameters.decoder_input_details) {
    return "Input validation error: `decoder_input_details` == true is not supported when streaming tokens";
  }
  return undefined;
}
