/**
 * Chat on the transformers pipeline (`POST /models/{id}`), for models TGI does not serve: one whole
 * answer, never streamed (a stream yields it as chunks), `generate`-style parameters, and its 400
 * for parameters a model does not take, got around by sending without them.
 */
import { serverText } from "../../core/redact";
import { isGreedy } from "../../checks/params";
import { type HttpError, InputError, MalformedEventError } from "../../core/errors";
import { readErrorFields } from "../../core/errorTable";
import { arraySource } from "../../core/source";
import { isRecord } from "../../core/json";
import { parseMaybeJson, readText } from "../../core/request";
import type { ChatCompletionInput, ChatCompletionOutput, Logger } from "../../types";
import { warnOnce } from "../../core/logger";
import type { ChatBackend } from "./backend";
import { outputToChunks } from "./openai";

/** What the pipeline cannot honour; an InputError unless the caller is `lenient`. `null` is unset, as Python clients send it. */
const UNSUPPORTED: Array<[keyof ChatCompletionInput, (v: unknown) => boolean]> = [
  ["tools", (v) => Array.isArray(v) && v.length > 0],
  ["tool_choice", (v) => v != null && v !== "none"],
  ["response_format", (v) => v != null && !(isRecord(v) && v.type === "text")],
  ["logprobs", (v) => v === true],
  ["top_logprobs", (v) => v != null],
  ["n", (v) => typeof v === "number" && v > 1],
  ["frequency_penalty", (v) => typeof v === "number" && v !== 0],
  ["presence_penalty", (v) => typeof v === "number" && v !== 0],
  ["seed", (v) => v != null],
];

/** Throws (or, when lenient, warns once) for what a transformers-served model cannot do. */
function checkPipelineSupport(args: ChatCompletionInput, lenient: boolean, logger: Logger, model: string): void {
  const used = UNSUPPORTED.filter(([field, isSet]) => isSet(args[field])).map(([field]) => String(field));
  if (used.length === 0) return;
  const what = used.map((f) => `\`${f}\``).join(", ");
  if (!lenient) {
    const them = used.length > 1 ? "them" : "it";
    throw new InputError(
      `${model} is served by the transformers pipeline, which cannot honour ${what}; remove ${them}, or pass \`lenient: true\` to drop ${them}`,
      used[0],
    );
  }
  warnOnce(
    logger,
    `lenient:${model}:${what}`,
    `${model} is served by the transformers pipeline: ${what} dropped (lenient: true).`,
  );
}

/**
 * The pipeline's payload: OpenAI's ranges mapped to `generate` (`temperature: 0` or `top_p: 0` is
 * greedy: `do_sample: false`, no temperature or top_p), unset parameters not sent.
 */
function pipelineBody(args: ChatCompletionInput, dropped: ReadonlySet<string>): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (args.max_tokens != null) p.max_new_tokens = args.max_tokens;
  if (isGreedy(args)) p.do_sample = false;
  else {
    if (args.temperature != null) p.temperature = args.temperature;
    if (args.top_p != null && args.top_p !== 1) p.top_p = args.top_p;
  }
  p.return_full_text = false;
  if (args.stop != null) p.stop = typeof args.stop === "string" ? [args.stop] : args.stop;
  for (const name of dropped) delete p[name];
  return { inputs: args.messages, parameters: p };
}

/** The parameter names of a 400 "The following `model_kwargs` are not used by the model: ['stop']". */
function unusedModelKwargs(error: HttpError): string[] | undefined {
  if (error.status !== 400) return undefined;
  const { message } = readErrorFields(error.body);
  const m = /`model_kwargs` are not used by the model: \[([^\]]*)\]/.exec(message);
  if (!m) return undefined;
  return [...(m[1] ?? "").matchAll(/['"]([^'"]+)['"]/g)].map((x) => x[1] ?? "");
}

/** Cuts `text` at the first stop sequence, as the server would have. */
export function applyStop(text: string, stop: string[] | string | undefined): { text: string; stopped: boolean } {
  let cut = text.length;
  for (const s of typeof stop === "string" ? [stop] : (stop ?? [])) {
    const at = s ? text.indexOf(s) : -1;
    if (at >= 0 && at < cut) cut = at;
  }
  return { text: text.slice(0, cut), stopped: cut < text.length };
}

let sequence = 0;

/** `[{generated_text: string | messages[]}]` as a ChatCompletionOutput. */
function pipelineOutput(
  answer: unknown,
  model: string,
  clientStop: string[] | string | undefined,
  raw: string,
  secret?: string,
): ChatCompletionOutput {
  const first: unknown = Array.isArray(answer) ? answer[0] : undefined;
  const generated = isRecord(first) ? first.generated_text : undefined;
  let text: string | undefined;
  if (typeof generated === "string") text = generated;
  else if (Array.isArray(generated)) {
    // The server ignored return_full_text: the whole conversation, the answer last.
    const last: unknown = generated[generated.length - 1];
    if (isRecord(last) && last.role === "assistant" && typeof last.content === "string") text = last.content;
  }
  if (text === undefined) {
    throw new MalformedEventError(
      `Expected [{generated_text}] from the pipeline, got: ${serverText(raw, secret)}`,
      raw,
      undefined,
      secret,
    );
  }
  const { text: content } = applyStop(text, clientStop);
  return {
    id: `chatcmpl-hfkit-${Date.now().toString(36)}-${(sequence++).toString(36)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: "",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  } as unknown as ChatCompletionOutput;
}

export const transformers: ChatBackend = {
  name: "transformers",
  check: (ctx) => checkPipelineSupport(ctx.args, ctx.options.lenient === true, ctx.logger, ctx.route.model),
  request: (ctx, learnt) => ({ url: ctx.route.pipelineUrl, body: pipelineBody(ctx.args, learnt) }),
  async read(ctx, reply, learnt) {
    const text = await readText(ctx.call, reply.res);
    const stop = learnt.has("stop") ? ctx.args.stop : undefined;
    return pipelineOutput(parseMaybeJson(text), ctx.route.model, stop, text, ctx.call.secret);
  },
  readStream: async (ctx, reply, learnt) => arraySource(outputToChunks(await transformers.read(ctx, reply, learnt))),
  avoid(error, ctx, sent) {
    const unused = unusedModelKwargs(error);
    const parameters = isRecord(sent.parameters) ? sent.parameters : {};
    if (!unused?.length || !unused.every((name) => name in parameters)) return undefined;
    const stopNote = unused.includes("stop") ? "; the client applies `stop` to the answer" : "";
    ctx.logger.warn(
      `Model ${ctx.route.model} does not take ${unused.map((n) => `\`${n}\``).join(", ")}: sent without${stopNote}.`,
    );
    return unused;
  },
};
