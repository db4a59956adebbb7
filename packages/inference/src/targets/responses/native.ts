/**
 * The Responses API on servers that have it (the HF router, vLLM): the arguments sent as they are to
 * `{base}/v1/responses`, the answer read as a response or as its event stream. The stream is complete
 * at `response.completed` or `response.incomplete`; `response.failed` and `error` events are typed
 * errors, even in a 200; `[DONE]` is never waited for.
 */
import { serverText } from "../../core/redact";
import { MalformedEventError } from "../../core/errors";
import { toHttpError } from "../../core/errorTable";
import type { ChatContext } from "../chat";
import {
  type Origin,
  type Outgoing,
  parseMaybeJson,
  readText,
  type Reply,
  isEventStream,
  serialize,
} from "../../core/request";
import { EventStream } from "../../core/sse";
import { arraySource, type Source, type StreamRules } from "../../core/source";
import type { OneResponsesArgs, ResponsesOutput, ResponsesStreamEvent } from "../../types";
import { outputText, ResponseWriter } from "./writer";
import { isRecord, type JsonObject } from "../../core/json";

/** A whole response as far as it is read: an object whose `output` is an array. */
const isResponse = (v: unknown): v is ResponsesOutput => isRecord(v) && Array.isArray(v.output);

/** Arguments that steer the client and never go on the wire as they are. */
const CLIENT_KEYS = /* @__PURE__ */ new Set([
  "accessToken",
  "endpointUrl",
  "provider",
  "fallbackModels",
  "model",
  "stream",
]);

/** The events yielded; others (hosted tools' progress, summaries) are not. */
const EVENT_TYPES = /* @__PURE__ */ new Set([
  "response.created", "response.in_progress", "response.completed", "response.incomplete",
  "response.output_item.added", "response.output_item.done", "response.content_part.added", "response.content_part.done",
  "response.output_text.delta", "response.output_text.done", "response.reasoning_text.delta", "response.reasoning_text.done",
  "response.function_call_arguments.delta", "response.function_call_arguments.done",
]); // prettier-ignore

/** An event of a type that is yielded, read as that type's event. */
const isYielded = (event: JsonObject): event is JsonObject & ResponsesStreamEvent =>
  typeof event.type === "string" && EVENT_TYPES.has(event.type);

/** The HTTP status of OpenAI's error codes, so that a failed response is the typed error its class would be over HTTP. */
const STATUS_OF_CODE: Record<string, number> = {
  rate_limit_exceeded: 429,
  server_is_overloaded: 429,
  invalid_prompt: 400,
  invalid_request_error: 400,
  server_error: 500,
};

/** The request of the native route: `{base}/v1/responses` (the router's own), the arguments as they are. */
export function nativeRequest(ctx: ChatContext, args: OneResponsesArgs): Outgoing {
  const { route } = ctx;
  // The router's chat URL is `{router}/v1/chat/completions` (its `routerUrl`, offline): its Responses route is beside it.
  const url =
    route.kind === "router"
      ? route.url.replace(/\/chat\/completions$/, "/responses")
      : `${route.pipelineUrl}/v1/responses`;
  const body: JsonObject = { model: route.bodyModel };
  for (const [key, value] of Object.entries(args)) if (value != null && !CLIENT_KEYS.has(key)) body[key] = value;
  body.stream = ctx.stream;
  return { url, body: serialize(body) };
}

/** The error body of an `error` event or a `response.failed`, in the shape the error table reads; undefined for any other event. */
export function failureOf(event: JsonObject): unknown {
  let error: unknown;
  if (event.type === "error") error = isRecord(event.error) ? event.error : event;
  else if (event.type === "response.failed") error = isRecord(event.response) ? event.response.error : undefined;
  else return undefined;
  const e = isRecord(error) ? error : {};
  const code = typeof e.code === "string" ? e.code : typeof e.type === "string" ? e.type : undefined;
  const message = typeof e.message === "string" && e.message ? e.message : "The response failed";
  return {
    error: {
      message,
      type: code,
      code: (code && STATUS_OF_CODE[code]) ?? (typeof e.code === "number" ? e.code : undefined),
      param: e.param ?? null,
    },
  };
}

/** A 2xx JSON body as a response: an error or a failed response is the typed error, anything else quoted. */
function toResponse(body: unknown, text: string, origin: Origin): ResponsesOutput {
  if (isResponse(body)) {
    if (body.status === "failed")
      throw toHttpError({
        status: 200,
        body: failureOf({ type: "response.failed", response: body }),
        inStream: true,
        ...origin,
      });
    if (typeof body.output_text !== "string") body.output_text = outputText(body.output);
    return body;
  }
  if (isRecord(body) && body.error != null) throw toHttpError({ status: 200, body, inStream: true, ...origin });
  throw new MalformedEventError(
    `Expected a response, the server answered: ${serverText(text, origin.secret)}`,
    text,
    undefined,
    origin.secret,
  );
}

/** A whole response as the events a stream of it would give (a server that answered JSON to a stream request). */
export function responseEvents(native: ResponsesOutput): ResponsesStreamEvent[] {
  const writer = new ResponseWriter({ ...native, status: "in_progress", output: [], usage: null });
  // Read as the server sent it: any shape.
  const items: readonly unknown[] = native.output;
  items.forEach((item, i) => {
    if (!isRecord(item)) return;
    const text = (s: unknown): string => (typeof s === "string" ? s : "");
    if (item.type === "function_call")
      writer.toolCall(i, text(item.call_id) || undefined, text(item.name), text(item.arguments));
    else if ((item.type === "message" || item.type === "reasoning") && Array.isArray(item.content)) {
      const parts: unknown[] = item.content;
      for (const part of parts) if (isRecord(part)) writer.text(item.type, text(part.text));
    }
  });
  writer.finish(native.status === "incomplete" ? "length" : "stop", native.usage);
  return writer.events;
}

/** The rules of a Responses event stream: complete at `response.completed` / `response.incomplete`. */
function nativeRules(origin: Origin): StreamRules<ResponsesStreamEvent> {
  let complete = false;
  return {
    accept(event) {
      if (!isYielded(event)) return undefined;
      if (event.type === "response.completed" || event.type === "response.incomplete") {
        complete = true;
        // Read as the server sent it: any shape.
        const response: unknown = event.response;
        if (isRecord(response) && Array.isArray(response.output) && typeof response.output_text !== "string") {
          response.output_text = outputText(response.output);
        }
      }
      return event;
    },
    graceAfterComplete: () => (complete ? 0 : undefined),
    whole: (body, text) => responseEvents(toResponse(body, text, origin)),
    failure: failureOf,
  };
}

/** A 2xx answer of the native route, whole: the response. */
export async function readNative(ctx: ChatContext, { res, origin }: Reply): Promise<ResponsesOutput> {
  const text = await readText(ctx.call, res);
  return toResponse(parseMaybeJson(text), text, origin);
}

/** A 2xx answer of the native route to a streamed call: its events, or a whole response as the events a stream would give. */
export async function readNativeStream(ctx: ChatContext, reply: Reply): Promise<Source<ResponsesStreamEvent>> {
  const { res, origin, release } = reply;
  if (isEventStream(res)) return new EventStream(res.body, ctx.call, nativeRules(origin), origin, release).prime();
  return arraySource(responseEvents(await readNative(ctx, reply)));
}
