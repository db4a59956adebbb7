/**
 * TGI (text-generation-inference): the OpenAI protocol on its chat route, with OpenAI's ranges mapped
 * to what TGI accepts, the refusals of its old versions got around, and its own `generate` API.
 */
import { type HttpError, InputError, MalformedEventError, ValidationError } from "../errors";
import { readErrorFields, toHttpError } from "../errorTable";
import { generateParameters } from "../params";
import type { CallContext } from "../tasks/prepare";
import { arraySource } from "../tasks/streamIterator";
import { isEventStream, type Origin, parseMaybeJson, readText, type Reply } from "../transport/request";
import { EventStream, type StreamRules } from "../transport/sse";
import type { ChatCompletionArgs, TextGenerationArgs, TextGenerationOutput, TextGenerationStreamOutput } from "../types";
import { warnOnce } from "../warnOnce";
import type { Request, ServerBackend } from "./backend";
import { chatBody, readChat } from "./openai";

/**
 * TGI before 2.0.2 refuses `temperature: 0` on its chat route (422 "`temperature` must be strictly
 * positive") instead of decoding greedily. Its chat route always samples, so greedy there is nucleus
 * sampling with a `top_p` so small that only the likeliest token is kept.
 */
export const GREEDY_TOP_P = 1e-6;

/** What the backend memory keeps, among a TGI endpoint's refused parameters, once it refused `temperature: 0`. */
export const ZERO_TEMPERATURE = "temperature: 0";

/**
 * The chat body with OpenAI's ranges mapped to what TGI accepts (each mapping keeps the meaning):
 * `top_p: 0` is greedy, `top_p: 1` and `presence_penalty: 0` are the defaults, `stop` an array.
 */
function tgiChatBody(ctx: CallContext, learnt: ReadonlySet<string>): Record<string, unknown> {
  const args = ctx.args as ChatCompletionArgs;
  const body = chatBody(ctx);
  if (args.top_p === 0) {
    delete body.top_p;
    body.temperature = 0;
  } else if (args.top_p === 1) delete body.top_p;
  if (args.presence_penalty === 0) delete body.presence_penalty;
  if (args.n === 1) delete body.n;
  if (typeof args.stop === "string") body.stop = [args.stop];
  if (body.temperature === 0 && learnt.has(ZERO_TEMPERATURE)) {
    delete body.temperature;
    body.top_p = GREEDY_TOP_P;
  }
  return body;
}

function generateBody(ctx: CallContext): Record<string, unknown> {
  const args = ctx.args as TextGenerationArgs;
  const parameters = generateParameters(args.parameters);
  return { inputs: args.inputs, ...(parameters ? { parameters } : {}), ...(ctx.stream ? { stream: true } : {}) };
}

/** The recorded answers of TGI's chat route on a model the transformers pipeline serves. */
function isNotTgi(error: HttpError): boolean {
  const f = readErrorFields(error.body);
  if (error.status === 500) {
    const warnings = (error.body as { warnings?: unknown } | null)?.warnings;
    return f.errorType === undefined && /unknown error/i.test(f.message) && Array.isArray(warnings);
  }
  if (error.status === 400) return /wrong format|not supported/i.test(f.message);
  if (error.status === 404) return !/does not exist/i.test(f.message);
  return false;
}

/** `[{generated_text, details?}]` (or one object) as its first element; an error JSON is mapped, anything else quoted. */
export function toGenerationOutput(body: unknown, text: string, origin: Origin): TextGenerationOutput {
  const first = (Array.isArray(body) ? body[0] : body) as Record<string, unknown> | null | undefined;
  if (typeof first === "object" && first !== null) {
    if (typeof first.generated_text === "string") return first as TextGenerationOutput;
    if (first.error != null) throw toHttpError({ status: 200, body: first, inStream: true, ...origin });
  }
  throw new MalformedEventError(`Expected [{generated_text}], the server answered: ${text.slice(0, 200)}`, text, undefined, origin.secret);
}

/** A whole answer as the one final event a stream would end with. */
export function asEvents(out: TextGenerationOutput): TextGenerationStreamOutput[] {
  const token = { id: 0, text: out.generated_text, logprob: 0, special: false };
  return [{ index: 1, token, generated_text: out.generated_text, details: out.details ?? null }];
}

/** A `generate` answer: a whole output, or as a stream (TGI's events, or the one final event). */
export async function readGeneration(ctx: CallContext, { res, origin, release }: Reply): Promise<unknown> {
  if (ctx.stream && isEventStream(res)) return new EventStream(res.body, ctx.call, generateRules(origin), origin, release).prime();
  const text = await readText(ctx.call, res);
  const output = toGenerationOutput(parseMaybeJson(text), text, origin);
  return ctx.stream ? arraySource(asEvents(output)) : output;
}

/** The stream completes at the event whose `generated_text` is a string, even if the socket stays open. */
function generateRules(origin: Origin): StreamRules<TextGenerationStreamOutput> {
  let complete = false;
  let count = 0;
  return {
    accept(event) {
      count++;
      if (typeof event.generated_text === "string") complete = true;
      // Older TGI events carry no index; TGI counts tokens from 1.
      if (event.index === undefined) event.index = count;
      return event as TextGenerationStreamOutput;
    },
    graceAfterComplete: () => (complete ? 0 : undefined),
    whole: (body, text) => asEvents(toGenerationOutput(body, text, origin)),
  };
}

export const tgi: ServerBackend = {
  name: "tgi",
  check(ctx) {
    if (ctx.task !== "chat") return;
    const { n, presence_penalty: penalty } = ctx.args as ChatCompletionArgs;
    if (n != null && n > 1) throw new InputError(`\`n\` must be 1 for a TGI-served model, which returns one choice (got ${n})`, "n");
    if (typeof penalty === "number" && penalty <= -2) {
      throw new InputError(`\`presence_penalty\` must be > -2 and <= 2 for a TGI-served model (got ${penalty})`, "presence_penalty");
    }
  },
  request: (ctx, learnt): Request =>
    ctx.task === "chat" ? { url: ctx.route.url, body: tgiChatBody(ctx, learnt) } : { url: ctx.route.pipelineUrl, body: generateBody(ctx) },
  read: (ctx, reply) => (ctx.task === "chat" ? readChat(ctx, reply) : readGeneration(ctx, reply)),
  avoid(error, ctx, sent) {
    const refused = error instanceof ValidationError && /`temperature` must be strictly positive/.test(error.message);
    if (ctx.task !== "chat" || !refused || sent.temperature !== 0) return undefined;
    const { route } = ctx;
    warnOnce(ctx.logger, `t0:${route.key || route.model}`, `${route.model}: TGI < 2.0.2 refuses \`temperature: 0\`, sent as \`top_p: 1e-6\` (greedy).`);
    return [ZERO_TEMPERATURE];
  },
  handOff(error, ctx) {
    const fields = readErrorFields(error.body);
    if (ctx.task === "chat" && isNotTgi(error)) {
      const note = `; its chat route had answered HTTP ${error.status} "${fields.message.slice(0, 120)}", so the transformers pipeline was tried`;
      return { to: "transformers", note };
    }
    // The pipeline's 400 when asked to stream.
    if (ctx.stream && error.status === 400 && /stream.*not supported/i.test(fields.message)) return { to: "transformers", note: "" };
    return undefined;
  },
};
