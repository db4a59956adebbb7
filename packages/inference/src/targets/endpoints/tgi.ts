/**
 * TGI (text-generation-inference) chat: the OpenAI protocol on its chat route, with OpenAI's ranges
 * mapped to what TGI accepts and the refusals of its old versions got around.
 */
import { type HttpError, InputError, ValidationError } from "../../core/errors";
import { readErrorFields } from "../../core/errorTable";
import { isRecord } from "../../core/json";
import type { ChatContext } from "../chat";
import { warnOnce } from "../../core/logger";
import type { ChatBackend, Request } from "./backend";
import { chatBody, readChat, readChatStream } from "./openai";

/**
 * TGI before 2.0.2 refuses `temperature: 0` on its chat route (422 "`temperature` must be strictly
 * positive") instead of decoding greedily. Its chat route always samples, so greedy there is nucleus
 * sampling with a `top_p` so small that only the likeliest token is kept.
 */
export const GREEDY_TOP_P = 1e-6;

/** What the backend memory keeps, among a TGI endpoint's refused parameters, once it refused `temperature: 0`. */
export const ZERO_TEMPERATURE = "temperature: 0";

/** The chat body, greedy asked as `top_p: 1e-6` where the endpoint refused `temperature: 0`. */
function tgiChatBody(ctx: ChatContext, learnt: ReadonlySet<string>): Record<string, unknown> {
  const body = chatBody(ctx);
  // OpenAI's `json_schema` is TGI's `json` grammar (its chat route knows no other name for it).
  const format = body.response_format;
  if (isRecord(format) && format.type === "json_schema" && isRecord(format.json_schema))
    body.response_format = { type: "json", value: format.json_schema.schema };
  if (body.temperature === 0 && learnt.has(ZERO_TEMPERATURE)) {
    delete body.temperature;
    body.top_p = GREEDY_TOP_P;
  }
  return body;
}

/** The recorded answers of TGI's chat route on a model the transformers pipeline serves. */
function isNotTgi(error: HttpError): boolean {
  const f = readErrorFields(error.body);
  if (error.status === 500) {
    const warnings = isRecord(error.body) ? error.body.warnings : undefined;
    return f.errorType === undefined && /unknown error/i.test(f.message) && Array.isArray(warnings);
  }
  if (error.status === 400) return /wrong format|not supported/i.test(f.message);
  if (error.status === 404) return !/does not exist/i.test(f.message);
  return false;
}

export const tgi: ChatBackend = {
  name: "tgi",
  check(ctx) {
    const { n, presence_penalty: penalty } = ctx.args;
    if (n != null && n > 1) throw new InputError(`\`n\` must be 1 for a TGI-served model (got ${n})`, "n");
    if (typeof penalty === "number" && penalty <= -2) {
      throw new InputError(
        `\`presence_penalty\` must be > -2 and <= 2 for a TGI-served model (got ${penalty})`,
        "presence_penalty",
      );
    }
  },
  request: (ctx, learnt): Request => ({ url: ctx.route.url, body: tgiChatBody(ctx, learnt) }),
  read: readChat,
  readStream: readChatStream,
  avoid(error, ctx, sent) {
    const refused = error instanceof ValidationError && /`temperature` must be strictly positive/.test(error.message);
    if (!refused || sent.temperature !== 0) return undefined;
    const { route } = ctx;
    warnOnce(
      ctx.logger,
      `t0:${route.key || route.model}`,
      `${route.model}: TGI < 2.0.2 refuses \`temperature: 0\`, sent as \`top_p: 1e-6\` (greedy).`,
    );
    return [ZERO_TEMPERATURE];
  },
  handOff(error) {
    if (!isNotTgi(error)) return undefined;
    const note = `; its chat route had answered HTTP ${error.status} "${readErrorFields(error.body).message.slice(0, 120)}", so the transformers pipeline was tried`;
    return { to: "transformers", note };
  },
};
