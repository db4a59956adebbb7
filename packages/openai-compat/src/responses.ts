import {
  HttpError,
  InputError,
  type Options,
  type ResponsesArgs,
  type ResponsesStreamEvent,
  responses,
  responsesStream,
} from "@hfkit/inference";
import { type Answer, asResponse, EVENT_STREAM_HEADERS, type Framing } from "./answer";
import type { ChatRequest } from "./answer";
import { errorResponse, toOpenAIError } from "./protocol";

/** One Responses event as OpenAI frames it: `event: <type>`, `data: {json}`, a blank line (and never `[DONE]`). */
function responsesEvent(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Responses events as OpenAI frames them; an error after the first is OpenAI's `error` event, numbered after the last. */
function responsesFraming(): Framing<ResponsesStreamEvent> {
  let next = 0;
  return {
    event(value) {
      // A server's event without a number is numbered after the last one.
      next = (typeof value.sequence_number === "number" ? value.sequence_number : next) + 1;
      return responsesEvent(value.type, value);
    },
    failed(error) {
      const { message, code, param } = toOpenAIError(error).body.error;
      return responsesEvent("error", { type: "error", code, message, param: param ?? null, sequence_number: next });
    },
  };
}

/**
 * Answers one OpenAI Responses request (`POST /v1/responses`) through the hfkit core: natively where
 * the server has the API, else over chat completions. A stream is OpenAI's (`event: <type>` and
 * `data: {json}` per event, no `[DONE]`), answered once its first event is read, so an error before it is
 * a real HTTP error; an error after it is an `error` event, which OpenAI's clients throw as their `APIError`.
 */
export async function answerResponses(req: ChatRequest, options: Options): Promise<Response> {
  return asResponse(await responsesAnswer(req, options));
}

/** {@link answerResponses}'s answer, a stream's left unwrapped for the proxy. */
export async function responsesAnswer(req: ChatRequest, options: Options): Promise<Answer> {
  const args = req.body as ResponsesArgs & { stream?: boolean };
  if (typeof args !== "object" || args === null)
    return errorResponse(new InputError("The body must be a JSON object", "body"));
  const call: ResponsesArgs & { stream?: unknown; endpointUrl?: unknown } = { ...args, accessToken: req.accessToken };
  const callOptions: Options = { ...options, ...(req.signal ? { signal: req.signal } : {}) };
  delete call.stream;
  // Where the call goes is the adapter's or the proxy's to say, never the body's.
  delete call.endpointUrl;
  try {
    if (!args.stream)
      return new Response(JSON.stringify(await responses(call, callOptions)), {
        headers: { "content-type": "application/json" },
      });
    const stream = responsesStream(call, callOptions);
    const first = await stream.next();
    return { headers: EVENT_STREAM_HEADERS, first, stream, framing: responsesFraming() };
  } catch (error) {
    return errorResponse(error, error instanceof HttpError ? error.requestId : undefined);
  }
}
