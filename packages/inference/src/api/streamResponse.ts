/**
 * Streams for web servers: a chat stream as OpenAI's server-sent events, in web APIs only
 * (`ReadableStream`, `Response`, `TextEncoder`), so it runs in Node 18+, Deno, Bun, Workers, edge
 * runtimes and browsers alike.
 */

/** OpenAI's error event body: what `openai`'s stream reader throws as an `APIError`. */
interface StreamErrorBody {
  error: { message: string; type: string; code: string | null; param: null; status?: number };
}

const DONE = "data: [DONE]\n\n";

const STATUS_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "invalid_request_error",
  422: "invalid_request_error",
  429: "rate_limit_error",
};

/** An error as OpenAI's `{"error": {message, type, code, param}}`, read from its fields (no class is imported: nothing is pulled into a bundle). */
function errorBody(error: unknown): StreamErrorBody {
  const e: { message?: unknown; name?: unknown; status?: unknown; kind?: unknown } =
    typeof error === "object" && error !== null ? error : {};
  const message = typeof e.message === "string" ? e.message : String(error);
  const status = typeof e.status === "number" ? e.status : undefined;
  const name = typeof e.name === "string" ? e.name : "Error";
  const type =
    status !== undefined
      ? (STATUS_TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error"))
      : name === "TimeoutError"
        ? "timeout"
        : name === "InputError"
          ? "invalid_request_error"
          : "server_error";
  const code = name === "TimeoutError" && typeof e.kind === "string" ? e.kind : name;
  return { error: { message, type, code, param: null, ...(status !== undefined ? { status } : {}) } };
}

/**
 * A stream of chat chunks (what `chatCompletionStream` returns, or any async iterable of JSON-able
 * objects) as the bytes of OpenAI's server-sent events: `data: {json}\n\n` per chunk, then
 * `data: [DONE]\n\n`. Chunks are read one at a time as the reader pulls, so a slow client slows the
 * upstream read. An error while streaming becomes one `data: {"error": {message, type, code, param}}`
 * event and the stream ends (without `[DONE]`): OpenAI clients throw it as their `APIError`.
 * Cancelling the ReadableStream (a client that leaves) calls the iterator's `return()`, which for
 * `chatCompletionStream` closes the upstream request at once.
 *
 * @example
 * ```ts
 * const body = toReadableStream(chatCompletionStream({ model, messages }));
 * return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export function toReadableStream(stream: AsyncIterable<object>): ReadableStream<Uint8Array> {
  // Made per stream, not at load: a module-level `new` would stay in bundles that never stream to a web server.
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<object> | undefined;
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (finished) return;
      try {
        iterator ??= stream[Symbol.asyncIterator]();
        const r = await iterator.next();
        if (finished) return;
        if (r.done) {
          finished = true;
          controller.enqueue(encoder.encode(DONE));
          return controller.close();
        }
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(r.value)}\n\n`));
      } catch (error) {
        if (finished) return;
        finished = true;
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(errorBody(error))}\n\n`));
        controller.close();
      }
    },
    cancel() {
      if (finished) return;
      finished = true;
      // Not awaited: a plain async generator answers `return()` only after its pending `next()`.
      void Promise.resolve(iterator?.return?.()).catch(() => {});
    },
  });
}

/**
 * A `Response` streaming the chat stream as OpenAI's server-sent events ({@link toReadableStream}),
 * with `content-type: text/event-stream`, `cache-control: no-cache` and `x-accel-buffering: no` (so
 * nginx does not hold the events); `init` adds a status and headers, its headers winning. For a route
 * handler in Next.js, a Worker, Deno, Bun, Hono or any server that answers web `Response`s.
 *
 * The response is made at once, so an error, even before the first chunk, arrives as an error event
 * in a 200. To answer a real HTTP error for a call that fails at once, await the stream's first chunk
 * before building the response.
 *
 * @example
 * ```ts
 * export async function POST(req: Request) {
 *   const { messages } = await req.json();
 *   return toResponse(client.chatCompletionStream({ model, messages }, { signal: req.signal }));
 * }
 * ```
 */
export function toResponse(stream: AsyncIterable<object>, init: ResponseInit = {}): Response {
  const headers = new Headers({
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "x-accel-buffering": "no",
  });
  new Headers(init.headers).forEach((value, name) => headers.set(name, value));
  return new Response(toReadableStream(stream), { ...init, headers });
}
