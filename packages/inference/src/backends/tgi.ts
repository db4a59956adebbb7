import { ValidationError } from "../errors";
import type { ChatCompletionInput, ChatCompletionOutput, ChatCompletionStreamOutput } from "../types";

/** Arguments that steer the client and never go on the wire. */
const CLIENT_KEYS = new Set(["accessToken", "endpointUrl", "provider", "model", "stream"]);

/**
 * The OpenAI-shaped chat body, with OpenAI's ranges mapped to what TGI accepts (each mapping keeps
 * the meaning): `top_p: 0` is greedy, `top_p: 1` and `presence_penalty: 0` are the defaults.
 */
export function chatBody(args: ChatCompletionInput, model: string, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { model };
  for (const key in args) {
    const value = args[key];
    if (value != null && !CLIENT_KEYS.has(key)) body[key] = value; // null, as Python clients send, is unset
  }
  if (args.top_p === 0) {
    delete body.top_p;
    body.temperature = 0;
  } else if (args.top_p === 1) delete body.top_p;
  if (args.presence_penalty === 0) delete body.presence_penalty;
  if (args.n === 1) delete body.n; // the default; n > 1 reaches only OpenAI-protocol routes
  if (typeof args.stop === "string") body.stop = [args.stop];
  body.stream = stream;
  if (!stream) delete body.stream_options;
  return body;
}

/**
 * TGI before 2.0.2 refuses `temperature: 0` on its chat route (422 "`temperature` must be strictly
 * positive") instead of decoding greedily. Its chat route always samples, so greedy there is nucleus
 * sampling with a `top_p` so small that only the likeliest token is kept.
 */
export const GREEDY_TOP_P = 1e-6;

/** What the backend memory keeps, among a TGI endpoint's refused parameters, once it refused `temperature: 0`. */
export const ZERO_TEMPERATURE = "temperature: 0";

/** True when `error` is an old TGI's refusal of the `temperature: 0` that `body` carried. */
export function refusedZeroTemperature(error: unknown, body: Record<string, unknown>): boolean {
  return error instanceof ValidationError && body.temperature === 0 && /`temperature` must be strictly positive/.test(error.message);
}

/** A chat body that asks `temperature: 0`, with greedy decoding asked the way TGI < 2.0.2 takes it. */
export function greedyByTopP(body: Record<string, unknown>): Record<string, unknown> {
  const { temperature: _zero, ...rest } = body;
  return { ...rest, top_p: GREEDY_TOP_P };
}

/** TGI's older finish reasons, in OpenAI's words. */
const FINISH_REASONS: Record<string, string> = { eos_token: "stop", stop_sequence: "stop" };

/**
 * Normalises one chunk in place: finish reasons of TGI < 2.1 (and the EOS token's text they came
 * with) and tool-call deltas of TGI <= 3.1 (one object, not an array) take OpenAI's shapes.
 */
export function normalizeChunk(chunk: ChatCompletionStreamOutput): ChatCompletionStreamOutput {
  const choices = chunk.choices;
  if (!Array.isArray(choices)) {
    chunk.choices = [];
    return chunk;
  }
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i]!;
    const reason = choice.finish_reason;
    // TGI < 2.1 sends the EOS token's own text ("</s>") with `eos_token`; later versions send "".
    if (reason === "eos_token" && typeof choice.delta?.content === "string") choice.delta.content = "";
    if (reason) choice.finish_reason = FINISH_REASONS[reason] ?? reason;
    if (choice.delta?.tool_calls) choice.delta.tool_calls = toolCalls(choice.delta.tool_calls);
  }
  return chunk;
}

/** Normalises a whole (non-streamed) answer in place, as `normalizeChunk` does. */
export function normalizeOutput(output: ChatCompletionOutput): ChatCompletionOutput {
  for (const choice of output.choices ?? []) {
    if (choice.finish_reason) choice.finish_reason = FINISH_REASONS[choice.finish_reason] ?? choice.finish_reason;
    if (choice.message?.tool_calls) choice.message.tool_calls = toolCalls(choice.message.tool_calls);
  }
  return output;
}

/** One object becomes an array; TGI 2.x's numeric ids and object arguments become strings. */
function toolCalls<C extends { id: unknown; function: { arguments: unknown } }>(calls: C[] | C): C[] {
  const list = Array.isArray(calls) ? calls : [calls];
  for (const call of list) {
    if (typeof call.id === "number") call.id = String(call.id);
    const fn = call.function;
    if (fn && typeof fn.arguments === "object" && fn.arguments !== null) fn.arguments = JSON.stringify(fn.arguments);
  }
  return list;
}
