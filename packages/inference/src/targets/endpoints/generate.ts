/**
 * `textGeneration` on each backend: TGI's `generate` API (`POST /` with `inputs` and `parameters`,
 * events on `stream: true`), and the transformers pipeline at the same URL, which answers the same
 * shape but cannot stream (a stream yields its one answer as one final event). Apart from the chat
 * backends, so that an app that only chats does not carry it.
 */
import { serverText } from "../../core/redact";
import { type HttpError, MalformedEventError } from "../../core/errors";
import { readErrorFields, toHttpError } from "../../core/errorTable";
import { generateParameters } from "../../checks/generation";
import type { GenerateContext } from "../chat";
import { arraySource, type Source, type StreamRules } from "../../core/source";
import { isEventStream, type Origin, parseMaybeJson, readText, type Reply } from "../../core/request";
import { EventStream } from "../../core/sse";
import { isRecord, type JsonObject } from "../../core/json";
import type { TextGenerationOutput, TextGenerationStreamOutput } from "../../types";
import type { Backends, GenerateBackend, Request } from "./backend";
import { completionsGenerate } from "./completions";
import { streamTries, wholeTries } from "./detect";

function generateBody(ctx: GenerateContext, stream: boolean): Record<string, unknown> {
  const { args } = ctx;
  // TGI's `/` and the pipeline answer the prompt too unless told not to; what is asked is the continuation.
  const parameters = { return_full_text: false, ...generateParameters(args.parameters) };
  return { inputs: args.inputs, parameters, ...(stream ? { stream: true } : {}) };
}

/** An answer as far as it is read: its `generated_text` a string. */
const isGeneration = (v: JsonObject): v is JsonObject & TextGenerationOutput => typeof v.generated_text === "string";

/** `[{generated_text, details?}]` (or one object) as its first element; an error JSON is mapped, anything else quoted. */
export function toGenerationOutput(body: unknown, text: string, origin: Origin): TextGenerationOutput {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  if (isRecord(first)) {
    if (isGeneration(first)) return first;
    if (first.error != null) throw toHttpError({ status: 200, body: first, inStream: true, ...origin });
  }
  throw new MalformedEventError(
    `Expected [{generated_text}], the server answered: ${serverText(text, origin.secret)}`,
    text,
    undefined,
    origin.secret,
  );
}

/** A whole answer as the one final event a stream would end with. */
export function asEvents(out: TextGenerationOutput): TextGenerationStreamOutput[] {
  const token = { id: 0, text: out.generated_text, logprob: 0, special: false };
  return [{ index: 1, token, generated_text: out.generated_text, details: out.details ?? null }];
}

/** A whole `generate` answer. */
export async function readGeneration(ctx: GenerateContext, { res, origin }: Reply): Promise<TextGenerationOutput> {
  const text = await readText(ctx.call, res);
  return toGenerationOutput(parseMaybeJson(text), text, origin);
}

/** A streamed `generate` answer: TGI's events, or a whole answer as the one final event. */
export async function readGenerationStream(
  ctx: GenerateContext,
  reply: Reply,
): Promise<Source<TextGenerationStreamOutput>> {
  const { res, origin, release } = reply;
  if (isEventStream(res)) return new EventStream(res.body, ctx.call, generateRules(origin), origin, release).prime();
  return arraySource(asEvents(await readGeneration(ctx, reply)));
}

/** The stream completes at the event whose `generated_text` is a string, even if the socket stays open. */
function generateRules(origin: Origin): StreamRules<TextGenerationStreamOutput> {
  let complete = false;
  let count = 0;
  return {
    accept(event) {
      if (event.token === undefined && event.generated_text === undefined) return undefined; // `{}`: a keep-alive
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

/** The pipeline's 400 when asked to stream. */
const streamRefused = (error: HttpError): boolean =>
  error.status === 400 && /stream.*not supported/i.test(readErrorFields(error.body).message);

const generateRequest = (ctx: GenerateContext): Request => ({
  url: ctx.route.pipelineUrl,
  body: generateBody(ctx, ctx.stream),
});

const tgiGenerate: GenerateBackend = {
  name: "tgi",
  check() {},
  request: generateRequest,
  read: readGeneration,
  readStream: readGenerationStream,
  handOff: (error, ctx) => {
    if (ctx.stream && streamRefused(error)) return { to: "transformers", note: "" };
    // An OpenAI-protocol endpoint (vLLM, SGLang, llama.cpp) has no route at `/`: its completions route serves.
    if (ctx.route.kind === "endpoint" && (error.status === 404 || error.status === 405)) {
      return {
        to: "openai",
        note: `; its generate route had answered HTTP ${error.status}, so the OpenAI completions route was tried`,
      };
    }
    return undefined;
  },
};

const pipelineGenerate: GenerateBackend = {
  name: "transformers",
  check() {},
  request: (ctx): Request => ({ url: ctx.route.pipelineUrl, body: generateBody(ctx, false) }),
  read: readGeneration,
  // The pipeline cannot stream: its whole answer is the one final event.
  readStream: async (ctx, reply) => arraySource(asEvents(await readGeneration(ctx, reply))),
};

/** `textGeneration`'s backends: an OpenAI-protocol server is asked on its completions route. */
export const GENERATE_BACKENDS: Backends<GenerateContext["args"], TextGenerationOutput, TextGenerationStreamOutput> = {
  tgi: tgiGenerate,
  transformers: pipelineGenerate,
  openai: completionsGenerate,
};

/** The tries of a `textGeneration` call, on its backends. */
export const generationTries = (ctx: GenerateContext): (() => Promise<TextGenerationOutput>) =>
  wholeTries(ctx, GENERATE_BACKENDS);

/** The tries of a `textGenerationStream` call, on its backends. */
export const generationStreamTries = (ctx: GenerateContext): (() => Promise<Source<TextGenerationStreamOutput>>) =>
  streamTries(ctx, GENERATE_BACKENDS);
