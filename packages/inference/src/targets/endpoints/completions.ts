/**
 * `textGeneration` on an OpenAI-protocol server (vLLM, SGLang, llama.cpp's server, Ollama, TGI >= 3):
 * OpenAI's completions route, `POST {base}/v1/completions` with `prompt`, answered as TGI's
 * `generate` would be: `generated_text` is the continuation (the prompt before it with
 * `return_full_text`), a stream yields one event per chunk and the whole text in the last one.
 */
import { serverText } from "../../core/redact";
import { isGreedy } from "../../checks/params";
import { MalformedEventError } from "../../core/errors";
import { toHttpError } from "../../core/errorTable";
import type { GenerateContext } from "../chat";
import { arraySource, type Source, type StreamRules } from "../../core/source";
import { grow } from "../../core/body";
import { isEventStream, type Origin, parseMaybeJson, readText, type Reply } from "../../core/request";
import { EventStream } from "../../core/sse";
import { isRecord } from "../../core/json";
import type {
  TextGenerationInputGenerateParameters,
  TextGenerationOutput,
  TextGenerationStreamOutput,
} from "../../types";
import type { GenerateBackend, Request } from "./backend";

/** TGI's `generate` parameters in OpenAI's completions words; what has no counterpart is not sent. */
function completionsBody(ctx: GenerateContext): Record<string, unknown> {
  const { args } = ctx;
  const p: TextGenerationInputGenerateParameters = args.parameters ?? {};
  const body: Record<string, unknown> = { model: ctx.route.bodyModel, prompt: args.inputs };
  if (p.max_new_tokens != null) body.max_tokens = p.max_new_tokens;
  // Greedy in TGI's words (do_sample false, or temperature / top_p 0) is temperature 0 in OpenAI's.
  if (p.do_sample === false || isGreedy(p)) body.temperature = 0;
  else {
    if (p.temperature != null) body.temperature = p.temperature;
    if (p.top_p != null) body.top_p = p.top_p;
  }
  if (p.stop?.length) body.stop = p.stop;
  if (p.seed != null) body.seed = p.seed;
  if (p.frequency_penalty != null) body.frequency_penalty = p.frequency_penalty;
  if (ctx.stream) body.stream = true;
  return body;
}

type Choice = { text?: unknown; finish_reason?: unknown };

/** The first choice of a completions answer or chunk; an error JSON is mapped, anything else quoted. */
function firstChoice(body: unknown, text: string, origin: Origin): Choice | undefined {
  if (typeof body === "object" && body !== null) {
    const b: { choices?: unknown; error?: unknown } = body;
    if (b.error != null) throw toHttpError({ status: 200, body, inStream: true, ...origin });
    if (Array.isArray(b.choices)) {
      const first: unknown = b.choices[0];
      return isRecord(first) ? first : undefined; // any other value has no text and no finish reason either
    }
  }
  throw new MalformedEventError(
    `Expected a completion, the server answered: ${serverText(text, origin.secret)}`,
    text,
    undefined,
    origin.secret,
  );
}

const textOf = (choice: Choice | undefined): string => (typeof choice?.text === "string" ? choice.text : "");
const fullText = ({ args }: GenerateContext, text: string): string =>
  args.parameters?.return_full_text === true ? args.inputs + text : text;

function event(index: number, text: string, generated: string | null): TextGenerationStreamOutput {
  return { index, token: { id: 0, text, logprob: 0, special: false }, generated_text: generated, details: null };
}

/** One event per chunk with text; the chunk with a finish reason completes it and carries the whole text. */
function completionsRules(ctx: GenerateContext, origin: Origin): StreamRules<TextGenerationStreamOutput> {
  let text = "";
  let count = 0;
  let complete = false;
  return {
    accept(chunk) {
      if (!Array.isArray(chunk.choices)) return undefined; // `{}`: a keep-alive
      const choice = firstChoice(chunk, "", origin);
      const piece = textOf(choice);
      const finished = choice?.finish_reason != null;
      if (piece === "" && !finished) return undefined; // a keep-alive, a usage-only chunk
      text = grow(text, piece);
      complete ||= finished;
      return event(++count, piece, finished ? fullText(ctx, text) : null);
    },
    graceAfterComplete: () => (complete ? 0 : undefined),
    whole: (body, raw) => {
      const out = textOf(firstChoice(body, raw, origin));
      return [event(1, out, fullText(ctx, out))];
    },
  };
}

/** The continuation a whole completions answer holds. */
async function continuation(ctx: GenerateContext, { res, origin }: Reply): Promise<string> {
  const raw = await readText(ctx.call, res);
  return textOf(firstChoice(parseMaybeJson(raw), raw, origin));
}

/** A whole completions answer, as `generate` answers. */
async function readCompletion(ctx: GenerateContext, reply: Reply): Promise<TextGenerationOutput> {
  return { generated_text: fullText(ctx, await continuation(ctx, reply)) };
}

/** A streamed completions answer: one event per chunk, or a whole answer as the one final event. */
async function readCompletionStream(ctx: GenerateContext, reply: Reply): Promise<Source<TextGenerationStreamOutput>> {
  const { res, origin, release } = reply;
  if (isEventStream(res))
    return new EventStream(res.body, ctx.call, completionsRules(ctx, origin), origin, release).prime();
  const text = await continuation(ctx, reply);
  return arraySource([event(1, text, fullText(ctx, text))]);
}

/** `textGeneration` on an OpenAI-protocol server. */
export const completionsGenerate: GenerateBackend = {
  name: "openai",
  check() {},
  request: (ctx): Request => ({ url: `${ctx.route.pipelineUrl}/v1/completions`, body: completionsBody(ctx) }),
  read: readCompletion,
  readStream: readCompletionStream,
};
