import type { HttpError } from "../../core/errors";
import type { Reply } from "../../core/request";
import type { Source } from "../../core/source";
import type {
  Backend,
  OneChatArgs,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  TextGenerationArgs,
  TextGenerationOutput,
  TextGenerationStreamOutput,
} from "../../types";
import type { CallContext } from "../chat";

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
 * What every backend is, for a call with arguments `A` answered whole as `W` or streamed as chunks `C`:
 * how a server kind is asked (its request for a call, from what was learnt of the endpoint), how its
 * answers are read (whole, or as a stream), and which of its own error answers it knows (one it gets
 * around by sending again without something, one that says another backend serves the model). Adding a
 * server kind is one file and one line in `index.ts`.
 */
export interface ServerBackend<A, W, C> {
  readonly name: Backend;
  /** Throws an InputError, before its first request, for what this backend cannot honour. */
  check(ctx: CallContext<A>): void;
  /** The request of one try; `learnt` holds what the endpoint refused before (and is sent without). */
  request(ctx: CallContext<A>, learnt: ReadonlySet<string>): Request;
  /** A 2xx answer to a call that does not stream: the whole output. */
  read(ctx: CallContext<A>, reply: Reply, learnt: ReadonlySet<string>): Promise<W>;
  /** A 2xx answer to a streamed call: its chunks (a server that answers whole gives its answer as chunks). */
  readStream(ctx: CallContext<A>, reply: Reply, learnt: ReadonlySet<string>): Promise<Source<C>>;
  /** A refusal of the body `sent` that a changed request gets around: what to learn (the request is then sent once more), or undefined. */
  avoid?(error: HttpError, ctx: CallContext<A>, sent: Readonly<Record<string, unknown>>): string[] | undefined;
  /** An answer saying that another backend serves the model. */
  handOff?(error: HttpError, ctx: CallContext<A>): HandOff | undefined;
}

/** A backend, or how to load it: one that only some endpoints need is a chunk loaded on its first use. */
export type Loadable<B> = B | (() => Promise<B>);

/** The backends of a task, by name; TGI's, which detection tries first, at hand. */
export type Backends<A, W, C> = { readonly tgi: ServerBackend<A, W, C> } & Readonly<
  Record<Exclude<Backend, "tgi">, Loadable<ServerBackend<A, W, C>>>
>;

/** A backend of chat. */
export type ChatBackend = ServerBackend<OneChatArgs, ChatCompletionOutput, ChatCompletionStreamOutput>;
/** A backend of `generate`. */
export type GenerateBackend = ServerBackend<TextGenerationArgs, TextGenerationOutput, TextGenerationStreamOutput>;
