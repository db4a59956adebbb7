/**
 * Which backend serves a call, and one try against it: the caller's `backend` > what was learnt of
 * the endpoint > one detection (TGI's route first; the backend its answer hands off to). Concurrent
 * first calls for an endpoint wait for one detection (single-flight); what was learnt is kept in one
 * bounded memory with an expiry, shared by every client.
 */
import { HttpError } from "../../core/errors";
import type { CallContext } from "../chat";
import { type Outgoing, sendOnce, serialize } from "../../core/request";
import { noop } from "../../core/source";
import type { Backend } from "../../types";
import type { ServerBackend } from "./backend";
import { BACKENDS } from "./index";
import { BoundedMemory } from "./memory";

/** The backends of a task, by name. */
export type Backends = Readonly<Record<Backend, ServerBackend>>;

/** What was learnt of a (base, model): which backend serves it, and which parameters it refuses. */
export interface BackendFact {
  backend: Backend;
  dropped: ReadonlySet<string>;
}

const NOTHING: ReadonlySet<string> = new Set();

/** The backend memory, and the detections in flight. */
class BackendMemory extends BoundedMemory<BackendFact> {
  readonly detections = new Map<string, Promise<void>>();

  /** Called only once the backend's route has answered 2xx. */
  remember(key: string, backend: Backend, dropped: ReadonlySet<string> = NOTHING): void {
    this.set(key, { backend, dropped });
  }
}

export const backendMemory = new BackendMemory();

/** One try of the call (the retry loop's attempt): the answer as the backend reads it. */
export function serve(ctx: CallContext, backends: Backends = BACKENDS): Promise<unknown> {
  const { route, state } = ctx;
  const known = route.key ? backendMemory.get(route.key) : undefined;
  const chosen = ctx.options.backend ?? state.backend ?? (route.kind === "router" ? "openai" : known?.backend);
  if (chosen) return tryBackend(ctx, backends[chosen], known?.dropped);
  const running = backendMemory.detections.get(route.key);
  if (running) return ctx.call.until(running).then(() => serve(ctx, backends));
  const detection = detect(ctx, backends);
  const done = detection.then(noop, noop);
  backendMemory.detections.set(route.key, done);
  void done.then(() => {
    if (backendMemory.detections.get(route.key) === done) backendMemory.detections.delete(route.key);
  });
  return detection;
}

async function detect(ctx: CallContext, backends: Backends): Promise<unknown> {
  try {
    return await tryBackend(ctx, backends.tgi, undefined);
  } catch (error) {
    const handOff = error instanceof HttpError ? backends.tgi.handOff?.(error, ctx) : undefined;
    if (!handOff) throw error;
    ctx.state.backend = handOff.to;
    ctx.state.note = handOff.note;
    return tryBackend(ctx, backends[handOff.to], undefined);
  }
}

/**
 * Sends the backend's request and reads its answer; a refusal the backend knows how to get around
 * is sent once more without what it refused. What a 2xx proved is remembered for the endpoint.
 */
async function tryBackend(ctx: CallContext, backend: ServerBackend, known: ReadonlySet<string> | undefined): Promise<unknown> {
  const name = backend.name;
  backend.check(ctx);
  const learnt = new Set(known);
  for (let avoided = false; ; avoided = true) {
    const out = outgoing(ctx, backend, learnt);
    try {
      const reply = await sendOnce(ctx.call, ctx.conn, out);
      const answer = await backend.read(ctx, reply, learnt);
      // A plain `generate` is answered alike by TGI and the pipeline (one URL): it proves nothing.
      if (ctx.route.key && (ctx.task === "chat" || ctx.stream || name === "openai")) backendMemory.remember(ctx.route.key, name, learnt);
      return answer;
    } catch (error) {
      const learn = !avoided && error instanceof HttpError ? backend.avoid?.(error, ctx, out.body.value) : undefined;
      if (!learn) {
        if (ctx.state.note && error instanceof HttpError && name === ctx.state.backend) error.message += ctx.state.note;
        throw error;
      }
      for (const what of learn) learnt.add(what);
    }
  }
}

/** The request of `backend` for what was learnt, its body serialised once per call. */
function outgoing(ctx: CallContext, backend: ServerBackend, learnt: ReadonlySet<string>): Outgoing {
  const key = learnt.size === 0 ? backend.name : `${backend.name}|${[...learnt].join("|")}`;
  let out = ctx.requests.get(key);
  if (!out) {
    const { url, body } = backend.request(ctx, learnt);
    ctx.requests.set(key, (out = { url, body: serialize(body) }));
  }
  return out;
}
