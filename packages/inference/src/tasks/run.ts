/**
 * The shared core of the tasks that are not chat: check the arguments, build the body, send it with the
 * same timeouts, retries (loading-aware) and typed errors as chat, and shape the answer. A task is a
 * {@link TaskSpec}; its file is a few lines.
 */
import { ConnectionError, HttpError, type InferenceError } from "../core/errors";
import { sealError } from "../core/redact";
import { type Payload, serialize } from "../core/request";
import { withRetries } from "../core/retry";
import { sending } from "../core/sending";
import { checkArgs } from "../checks/params";
import type { Answer } from "../checks/answers";
import type { TaskBody } from "../checks/inputs";
import { isRecord } from "../core/json";
import type { BaseArgs, Options } from "../types";
import { answerTries, providerIo } from "../targets/io";
import { resolveProvider, type Target, planProvider } from "../targets/providers/resolve";
import { routerBase } from "../targets/routes";
import { taskProvider, taskRoute } from "../targets/taskRoutes";

/** One task: its pipeline name, its checks, its body on hf-inference and endpoints, the shape of its answer. */
export interface TaskSpec<A, O> {
  /** The pipeline's name, e.g. `"fill-mask"` (the route of some tasks depends on it). */
  readonly task: string;
  /**
   * The checks of the arguments and options that hold on every target (an InputError before any request, the
   * Hub's lookup included). A task that only hf-inference and endpoints serve may leave them to `body`.
   */
  readonly check?: (args: A, options: Options) => void;
  /** Makes the body on hf-inference and endpoints (with the checks of those targets alone). */
  readonly body: (args: A, options: Options) => TaskBody | Promise<TaskBody>;
  /** Shapes the answer (parsed JSON, or a Blob for a binary one). */
  readonly answer: Answer<O>;
}

/**
 * Runs `spec` for `args`: nothing is sent unless the arguments and options are valid. On a provider
 * other than hf-inference (or `"auto"`) the Hub's mapping of the model is looked up first, and the
 * provider's format sent through the router.
 */
export async function runTask<A extends BaseArgs, O>(spec: TaskSpec<A, O>, args: A, options: Options = {}): Promise<O> {
  // Observed (`features/observe.ts`, loaded on first use): the operation as the GenAI conventions name it, else the task's.
  if (options?.observe)
    return (await import("../features/observe")).observedWhole(
      spec.task === "feature-extraction" ? "embeddings" : spec.task,
      args,
      options,
      (a, o) => runTask(spec, a, o),
    );
  checkArgs(args, options);
  spec.check?.(args, options);
  const provider = taskProvider(args, options);
  // A provider implies a model (taskProvider requires one): the test of `args.model` only tells the type so.
  const plan =
    provider === undefined || args.model === undefined
      ? undefined
      : planProvider(provider, spec.task, args.model, args, options);
  const route = plan ?? (await hfTarget(spec, args, options));
  const ctx = sending(args, options, route.model);
  try {
    const onHfInference = (model: string) => hfTarget(spec, { ...args, model, provider: "hf-inference" }, options);
    const target =
      "out" in route
        ? route
        : await resolveProvider(route, { call: ctx.call, options, args, logger: ctx.logger, onHfInference });
    const conn = target.headers ? { ...ctx.conn, headers: withHeaders(ctx.conn.headers, target.headers) } : ctx.conn;
    const io = providerIo(
      ctx,
      conn,
      target.out.url,
      target.provider,
      options.allowPrivateNetwork === true,
      routerBase(options.routerUrl),
    );
    // Retries resend the request only: what its answer needs next (a queue's polls, the file it names) is
    // tried again on its own, so that a failed poll never submits a queued task (and bills it) twice.
    const submitting = target.submitOnce ? { ...ctx, policy: { ...ctx.policy, retryable: unaccepted } } : ctx;
    const value = await withRetries(submitting, answerTries(ctx.call, conn, target.out)).catch((error: unknown) => {
      throw target.submitOnce ? maybeSubmitted(error) : error;
    });
    // A target's answer is untyped: `spec.answer`, or the provider table's format for `spec.task`, which answers O.
    return (await target.answer(value, ctx.call.secret, io)) as O;
  } catch (error) {
    throw sealError(error, ctx.call.secret);
  } finally {
    ctx.call.finish();
  }
}

/** `extra` over `headers`, a name of `extra` replacing the same name of `headers` in any case. */
function withHeaders(headers: Record<string, string>, extra: Readonly<Record<string, string>>): Record<string, string> {
  const names = new Set(Object.keys(extra).map((k) => k.toLowerCase()));
  const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !names.has(k.toLowerCase())));
  return { ...kept, ...extra };
}

/** The request of `spec` on hf-inference or an endpoint (the body checked first). */
async function hfTarget<A extends BaseArgs, O>(
  spec: TaskSpec<A, O>,
  args: A,
  options: Options,
): Promise<Target & { model: string }> {
  const route = taskRoute(args, options, spec.task);
  return {
    out: { url: route.url, body: taskPayload(await spec.body(args, options)) },
    answer: spec.answer,
    model: route.model,
  };
}

/** A task's body on hf-inference or an endpoint, as sent: JSON serialised once, or the bytes with their media type. */
function taskPayload(body: TaskBody): Payload {
  if ("json" in body) return serialize(body.json);
  const size = body.bytes instanceof ArrayBuffer ? body.bytes.byteLength : body.bytes.size;
  return {
    value: { data: `[binary body: ${size} bytes]` },
    json: "",
    bytes: body.bytes,
    contentType: body.contentType || "application/octet-stream",
  };
}

/** Failures of a connection never made (refused, no such host): nothing was sent. */
const NEVER_SENT = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/;

/** Whether `error` (or a cause of it) is a connection that was never made. */
function neverSent(error: unknown): boolean {
  for (let e = error, depth = 0; isRecord(e) && depth < 8; e = e.cause, depth++) {
    const code = e.code;
    if (typeof code === "string" && NEVER_SENT.test(code)) return true;
  }
  return false;
}

/** What a billed submission may be sent again after: a connection never made, a 429, a 503 (nothing accepted). */
function unaccepted(error: InferenceError): boolean {
  if (error instanceof ConnectionError) return neverSent(error);
  return error instanceof HttpError && (error.status === 429 || error.status === 503);
}

/** A billed submission whose connection failed after its bytes may have gone out: the error says the job may exist. */
function maybeSubmitted(error: unknown): unknown {
  if (!(error instanceof ConnectionError) || neverSent(error)) return error;
  const message = `${error.message}. The request may have reached the provider: the job may exist (and be billed), so it was not sent again`;
  return new ConnectionError(message, { cause: error.cause, url: error.url });
}
