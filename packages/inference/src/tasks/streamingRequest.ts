import { MalformedEventError } from "../core/errors";
import { taskRoute } from "../targets/taskRoutes";
import { arraySource, type Source, type StreamRules } from "../core/source";
import { isEventStream, type Reply, sendOnce, serialize } from "../core/request";
import { withRetries } from "../core/retry";
import { EventStream } from "../core/sse";
import type { Options, RequestArgs, RequestOptions } from "../types";
import { sending } from "../core/sending";
import { checkArgs } from "../checks/params";
import { warnDeprecated } from "./request";
import { readAnswer } from "../targets/io";
import { StreamIterator } from "../core/streamIterator";
import { jsonBody } from "../checks/inputs";

/** A generic stream ends at `[DONE]` or at the end of its body: never incomplete, no grace. */
function genericRules<T>(): StreamRules<T> {
  let justAccepted = false;
  return {
    accept: (event) => ((justAccepted = true), event as T),
    // Asked after each event (not complete yet), and at the end of the body (complete).
    graceAfterComplete: () => (justAccepted ? ((justAccepted = false), undefined) : 0),
    whole: (body) => [body as T],
  };
}

async function open<T>(call: Parameters<typeof readAnswer>[0], reply: Reply): Promise<Source<T>> {
  if (isEventStream(reply.res))
    return new EventStream<T>(reply.res.body, call, genericRules<T>(), reply.origin, reply.release).prime();
  const value = await readAnswer(call, reply);
  if (value instanceof Blob)
    throw new MalformedEventError(
      `Expected an event stream, the server answered ${value.type || "binary"} data`,
      "",
      undefined,
      call.secret,
    );
  return arraySource([value as T]);
}

/**
 * Sends any JSON body with `stream: true` and yields the data of each event, parsed. Deprecated, as in
 * `@huggingface/inference`: use the task functions. Bad input is an InputError from the first `next()`.
 */
export function streamingRequest<T>(
  args: RequestArgs,
  options: Options & RequestOptions = {},
): AsyncGenerator<T, undefined, unknown> {
  return new StreamIterator<T>(() => {
    checkArgs(args, options);
    warnDeprecated("streamingRequest", options);
    const route = taskRoute(args, options, options.task ?? "custom");
    const out = { url: route.url, body: serialize(jsonBody(args, { stream: true }).json) };
    const ctx = sending(args, options, route.model);
    return {
      call: ctx.call,
      source: withRetries(ctx, async () => open<T>(ctx.call, await sendOnce(ctx.call, ctx.conn, out))),
    };
  });
}
