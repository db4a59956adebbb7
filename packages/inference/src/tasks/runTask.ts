/**
 * The shared core of the tasks that are not chat: check the arguments, build the body, send it with the
 * same timeouts, retries (loading-aware) and typed errors as chat, and shape the answer. A task is a
 * {@link TaskSpec}; its file is a few lines.
 */
import { MalformedEventError } from "../errors";
import { taskRoute } from "../router";
import { readBlob } from "../transport/body";
import type { Call } from "../transport/call";
import { mediaType, type Payload, readText, type Reply, sendOnce, serialize } from "../transport/request";
import { withRetries } from "../transport/retry";
import type { BaseArgs, Options } from "../types";
import { checkArgs, sending } from "./prepare";
import type { Answer } from "./taskAnswers";
import type { TaskBody } from "./taskInputs";

/** One task: its pipeline name, its body (the checks first), the shape of its answer. */
export interface TaskSpec<A, O> {
  /** The pipeline's name, e.g. `"fill-mask"` (the route of some tasks depends on it). */
  readonly task: string;
  /** Checks the arguments (an InputError before any request) and makes the body. */
  readonly body: (args: A, options: Options) => TaskBody | Promise<TaskBody>;
  /** Shapes the answer (parsed JSON, or a Blob for a binary one). */
  readonly answer: Answer<O>;
}

/** Runs `spec` for `args`: nothing is sent unless the arguments and options are valid. */
export async function runTask<A extends BaseArgs, O>(spec: TaskSpec<A, O>, args: A, options: Options = {}): Promise<O> {
  checkArgs(args, options);
  const route = taskRoute(args, options, spec.task);
  const out = { url: route.url, body: payloadOf(await spec.body(args, options)) };
  const ctx = sending(args, options, route.model);
  try {
    return await withRetries(ctx, async () => spec.answer(await readAnswer(ctx.call, await sendOnce(ctx.call, ctx.conn, out)), ctx.call.secret));
  } finally {
    ctx.call.finish();
  }
}

function payloadOf(body: TaskBody): Payload {
  if ("json" in body) return serialize(body.json);
  const size = body.bytes instanceof ArrayBuffer ? body.bytes.byteLength : body.bytes.size;
  return { value: { data: `[binary body: ${size} bytes]` }, json: "", bytes: body.bytes, contentType: body.contentType || "application/octet-stream" };
}

const isJson = (type: string): boolean => type === "application/json" || type.endsWith("+json");

/** A 2xx answer: JSON when the server says so (it must parse), anything else a Blob of its type. */
export async function readAnswer(call: Call, { res, origin, release }: Reply): Promise<unknown> {
  try {
    if (!isJson(mediaType(res))) return await readBlob(call, res);
    const text = await readText(call, res);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new MalformedEventError(`The server's JSON answer does not parse: ${text.slice(0, 200)}`, text, error, origin.secret);
    }
  } finally {
    release();
  }
}
