import type { HttpError } from "../../core/errors";
import type { CallContext } from "../chat";
import type { Reply } from "../../core/request";
import type { Backend } from "../../types";

/** One request a backend asks for: where, and the body (serialised once by the sending core). */
export interface Request {
  readonly url: string;
  readonly body: Record<string, unknown>;
}

/** Another backend serves the model: which, and what this one answered (added to the other's error). */
export interface HandOff {
  readonly to: Backend;
  readonly note: string;
}

/**
 * What every backend is: how a server kind is asked (its request for a call, from what was learnt
 * of the endpoint), how its answers are read (a stream source, or a whole output), and which of its
 * own error answers it knows (one it gets around by sending again without something, one that says
 * another backend serves the model). Adding a server kind is one file and one line in `index.ts`.
 */
export interface ServerBackend {
  readonly name: Backend;
  /** Throws an InputError, before its first request, for what this backend cannot honour. */
  check(ctx: CallContext): void;
  /** The request of one try; `learnt` holds what the endpoint refused before (and is sent without). */
  request(ctx: CallContext, learnt: ReadonlySet<string>): Request;
  /** A 2xx answer: a `Source` of chunks or events when the call streams, else the whole output. */
  read(ctx: CallContext, reply: Reply, learnt: ReadonlySet<string>): Promise<unknown>;
  /** A refusal of the body `sent` that a changed request gets around: what to learn (the request is then sent once more), or undefined. */
  avoid?(error: HttpError, ctx: CallContext, sent: Readonly<Record<string, unknown>>): string[] | undefined;
  /** An answer saying that another backend serves the model. */
  handOff?(error: HttpError, ctx: CallContext): HandOff | undefined;
}
