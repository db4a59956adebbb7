import {
  type ChatCompletionArgs,
  type ChatCompletionStreamOutput,
  chatCompletion,
  chatCompletionStream,
  eventText,
  HttpError,
  InputError,
  type Options,
  type Served,
} from "@hfkit/inference";
import { openAIChunks, openAICompletion } from "./normalize";
import { DONE_EVENT, errorResponse, sseEvent, toOpenAIError } from "./protocol";

/** The parts of an OpenAI request the hfkit core needs. */
export interface ChatRequest {
  /** The request's parsed JSON body: OpenAI's chat arguments, `stream` included. */
  body: unknown;
  /** The caller's token, from its `Authorization: Bearer` header. */
  accessToken?: string;
  /** The request's signal: aborting it cancels the call. */
  signal?: AbortSignal | null;
}

/**
 * Answers one OpenAI chat request through the hfkit core, in pure OpenAI protocol: `data: `-framed
 * events ending with `data: [DONE]` as soon as the answer is complete; an error before any token is a
 * real HTTP error response; an error after tokens is OpenAI's `data: {"error": {…}}` event after them,
 * then the end of the body (no `[DONE]`), which OpenAI's clients throw as their `APIError`. Answers and chunks carry
 * OpenAI's `object`, an id, tool-call ids and `finish_reason: "tool_calls"` whatever the server sent.
 */
export async function answerChat(req: ChatRequest, options: Options): Promise<Response> {
  return asResponse(await chatAnswer(req, options));
}

/** {@link answerChat}'s answer, a stream's left unwrapped: the proxy relays it without a `Response` in between. */
export async function chatAnswer(req: ChatRequest, options: Options): Promise<Answer> {
  const args = req.body as ChatCompletionArgs & { stream?: boolean };
  if (typeof args !== "object" || args === null)
    return errorResponse(new InputError("The body must be a JSON object", "body"));
  const call = { ...args, accessToken: req.accessToken };
  const callOptions: Options = { ...options, ...(req.signal ? { signal: req.signal } : {}) };
  delete (call as { stream?: unknown }).stream;
  // Where the call goes is the adapter's or the proxy's to say, never the body's: a body's `endpointUrl` would take the token elsewhere.
  delete (call as { endpointUrl?: unknown }).endpointUrl;
  try {
    if (!args.stream) {
      const out = await chatCompletion(call, callOptions);
      return new Response(JSON.stringify(openAICompletion(out)), {
        headers: servedBy(out.served, { "content-type": "application/json" }),
      });
    }
    // Each chunk's text kept: one left as sent is relayed as its bytes (chatFraming).
    const stream = chatCompletionStream(call, { ...callOptions, keepEventText: true });
    const first = await stream.next();
    return { headers: servedBy(first.value?.served, EVENT_STREAM_HEADERS), first, stream, framing: chatFraming() };
  } catch (error) {
    return errorResponse(error, error instanceof HttpError ? error.requestId : undefined);
  }
}

/** A call that failed over names the provider that answered, as the HF router does (`x-inference-provider`). */
function servedBy(served: Served | undefined, headers: Record<string, string>): Record<string, string> {
  return served === undefined ? headers : { ...headers, "x-inference-provider": served.provider };
}

/** How a stream's values go on the wire: each value's event, the end's (chat's `[DONE]`), an error after the first value's. */
export interface Framing<T> {
  event(value: T): string;
  end?: string;
  failed(error: unknown): string;
}

/** A streamed answer whose first value is read: its headers (the status is 200), the stream, and how it is framed. */
export interface EventAnswer<T = unknown> {
  headers: Record<string, string>;
  first: IteratorResult<T, undefined>;
  stream: AsyncGenerator<T, undefined, unknown>;
  framing: Framing<T>;
}

/** A whole answer or an error as a `Response`; a stream as an {@link EventAnswer}. */
export type Answer = Response | EventAnswer;

export const isEventAnswer = (answer: Answer): answer is EventAnswer => "framing" in answer;

/** The answer as a `Response`, for fetch-based clients. */
export const asResponse = (answer: Answer): Response =>
  isEventAnswer(answer) ? new Response(eventBody(answer), { headers: answer.headers }) : answer;

const encoder = new TextEncoder();

/**
 * A stream whose first value is already read, as an event-stream body: read as the client pulls, the
 * upstream call closed when the client cancels. An error after the first value is the framing's error
 * event and the body's clean end: the body is never errored, as that would drop the values still queued.
 */
export function eventBody<T>({ first, stream, framing }: EventAnswer<T>): ReadableStream<Uint8Array> {
  let pending: IteratorResult<T, undefined> | undefined = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const r = pending ?? (await stream.next());
        pending = undefined;
        if (r.done) {
          if (framing.end) controller.enqueue(encoder.encode(framing.end));
          controller.close();
        } else controller.enqueue(encoder.encode(framing.event(r.value)));
      } catch (error) {
        controller.enqueue(encoder.encode(framing.failed(error)));
        controller.close();
      }
    },
    async cancel() {
      await stream.return(undefined);
    },
  });
}

/**
 * Chat chunks as OpenAI frames them: `data: {json}`, then `data: [DONE]`; an error as `data: {"error": {…}}`. A chunk
 * hfkit left as sent that is already OpenAI's (or is but for TGI's empty id) goes out as the server's own text
 * (`eventText`, the id filled in): parsed and checked, not serialised again.
 */
function chatFraming(): Framing<ChatCompletionStreamOutput> {
  const openAI = openAIChunks();
  return {
    event: (chunk) => {
      const sent = eventText(chunk);
      const text = sent === undefined ? undefined : openAI.asText(chunk, sent);
      return text === undefined ? sseEvent(openAI(chunk)) : `data: ${text}\n\n`;
    },
    end: DONE_EVENT,
    failed: (error) => sseEvent(toOpenAIError(error).body),
  };
}

export const EVENT_STREAM_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
