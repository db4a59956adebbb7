/**
 * Which backend serves a call, and one try against it: the caller's `backend` > what was learnt of
 * the endpoint > one detection (TGI's route first; the backend its answer hands off to). Concurrent
 * first calls for an endpoint wait for one detection (single-flight); what was learnt is kept in one
 * bounded memory with an expiry, shared by every client.
 */
import { HttpError } from "../../core/errors";
import { type Outgoing, type Reply, sendOnce, serialize } from "../../core/request";
import { noop, type Source } from "../../core/source";
import type { Backend } from "../../types";
import type { CallContext } from "../chat";
import type { Backends, HandOff, Loadable, ServerBackend } from "./backend";
import { BoundedMemory } from "../../core/memory";
import { shared } from "../../core/shared";

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

export const backendMemory = /* @__PURE__ */ shared("backends", () => new BackendMemory());

/** How a try reads a 2xx answer of `backend`. */
type Read<A, W, C, T> = (backend: ServerBackend<A, W, C>, reply: Reply, learnt: ReadonlySet<string>) => Promise<T>;

/** The tries of a call that does not stream (the retry loop's attempt): each resolves to the whole output. */
export function wholeTries<A, W, C>(ctx: CallContext<A>, backends: Backends<A, W, C>): () => Promise<W> {
  return tries(ctx, backends, (backend, reply, learnt) => backend.read(ctx, reply, learnt));
}

/** The tries of a streamed call (the retry loop's attempt): each resolves to the source of its chunks. */
export function streamTries<A, W, C>(ctx: CallContext<A>, backends: Backends<A, W, C>): () => Promise<Source<C>> {
  return tries(ctx, backends, (backend, reply, learnt) => backend.readStream(ctx, reply, learnt));
}

/**
 * One call's tries against its backends. What a try finds out is kept for the next tries of the same
 * call, not on the call's context: the backend a detection handed off to, and each backend's request
 * serialised once.
 */
function tries<A, W, C, T>(ctx: CallContext<A>, backends: Backends<A, W, C>, read: Read<A, W, C, T>): () => Promise<T> {
  const { route } = ctx;
  const requests = new Map<string, Outgoing>();
  let handOff: HandOff | undefined;

  /** The request of `backend` for what was learnt, its body serialised once per call. */
  const outgoing = (backend: ServerBackend<A, W, C>, learnt: ReadonlySet<string>): Outgoing => {
    const key = learnt.size === 0 ? backend.name : `${backend.name}|${[...learnt].join("|")}`;
    let out = requests.get(key);
    if (!out) {
      const { url, body } = backend.request(ctx, learnt);
      requests.set(key, (out = { url, body: serialize(body), backend: backend.name }));
    }
    return out;
  };

  /**
   * Sends the backend's request and reads its answer; a refusal the backend knows how to get around
   * is sent once more without what it refused. What a 2xx proved is remembered for the endpoint.
   */
  const tryBackend = async (
    loadable: Loadable<ServerBackend<A, W, C>>,
    known: ReadonlySet<string> | undefined,
  ): Promise<T> => {
    const backend = typeof loadable === "function" ? await ctx.call.until(loadable()) : loadable;
    backend.check(ctx);
    const learnt = new Set(known);
    for (let avoided = false; ; avoided = true) {
      const out = outgoing(backend, learnt);
      try {
        const answer = await read(backend, await sendOnce(ctx.call, ctx.conn, out), learnt);
        // A plain `generate` is answered alike by TGI and the pipeline (one URL): it proves nothing.
        if (route.key && (ctx.task === "chat" || ctx.stream || backend.name === "openai"))
          backendMemory.remember(route.key, backend.name, learnt);
        return answer;
      } catch (error) {
        const learn = !avoided && error instanceof HttpError ? backend.avoid?.(error, ctx, out.body.value) : undefined;
        if (!learn) {
          if (handOff?.note && error instanceof HttpError && backend.name === handOff.to) error.message += handOff.note;
          throw error;
        }
        for (const what of learn) learnt.add(what);
      }
    }
  };

  /** TGI's route first; the backend its answer hands off to, kept for the call's later tries. */
  const detect = async (): Promise<T> => {
    try {
      return await tryBackend(backends.tgi, undefined);
    } catch (error) {
      handOff = error instanceof HttpError ? backends.tgi.handOff?.(error, ctx) : undefined;
      if (!handOff) throw error;
      return tryBackend(backends[handOff.to], undefined);
    }
  };

  const attempt = (): Promise<T> => {
    const known = route.key ? backendMemory.get(route.key) : undefined;
    const chosen = ctx.options.backend ?? handOff?.to ?? (route.kind === "router" ? "openai" : known?.backend);
    if (chosen) return tryBackend(backends[chosen], known?.dropped);
    const running = backendMemory.detections.get(route.key);
    if (running) return ctx.call.until(running).then(attempt);
    const detection = detect();
    const done = detection.then(noop, noop);
    backendMemory.detections.set(route.key, done);
    void done.then(() => {
      if (backendMemory.detections.get(route.key) === done) backendMemory.detections.delete(route.key);
    });
    return detection;
  };
  return attempt;
}
