/**
 * A call observed (loaded on first use, only by a call with the `observe` option): its start, each HTTP attempt
 * (from the call's own `onResponse`), each retry or loading wait (`onRetry`), each failover move (`onFailover`), its
 * first chunk and its end, told to `observe` with timings, tokens, the provider and the error's class. The call
 * itself runs as it would unobserved: the hooks it is given call the caller's own too. No text, never the token:
 * every event passes through `safeEvent` (observeSafe.ts) before it is told.
 */
import type { Call } from "../core/call";
import type { InferenceError } from "../core/errors";
import { isRecord } from "../core/json";
import type { Source } from "../core/source";
import { MAX_CHOICES, safeEvent, secretOf } from "./observeSafe";
import { tapped } from "./tapped";
import { shared } from "../core/shared";
import type {
  Backend,
  ChatCompletionStreamOutput,
  ChatCompletionUsage,
  CallEvent,
  CallOperation,
  Options,
  ToolCallResult,
} from "../types";

/** The parameters the GenAI conventions name (`gen_ai.request.*`), as a call's arguments spell them. */
const PARAMETERS = [
  "temperature",
  "top_p",
  "top_k",
  "max_tokens",
  "max_new_tokens",
  "frequency_penalty",
  "presence_penalty",
  "seed",
  "n",
  "stop",
] as const;

/** Call numbers, one sequence for every copy of the package in the process (each observer tells calls apart by them). */
const numbers = /* @__PURE__ */ shared("calls", () => ({ last: 0 }));

/** One observed call: what it has seen so far, and the hooks that tell it. */
class Observation {
  readonly call = ++numbers.last;
  private readonly started = performance.now();
  private attemptStarted = this.started;
  private attempts = 0;
  private firstChunk: number | undefined;
  private lastChunk: number | undefined;
  private chunks = 0;
  private provider: string | undefined;
  private backend: Backend | undefined;
  private ended = false;
  private readonly secret: string | undefined;

  constructor(
    private readonly tell: (event: CallEvent) => void,
    operation: CallOperation,
    args: object,
    stream: boolean,
  ) {
    const parameters: Record<string, number | string | boolean> = {};
    const own = isRecord(args) ? args : {};
    this.secret = secretOf(own);
    const nested = isRecord(own.parameters) ? own.parameters : {};
    for (const key of PARAMETERS) {
      const value = own[key] ?? nested[key];
      if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") parameters[key] = value;
      else if (Array.isArray(value) && value.every((v) => typeof v === "string")) parameters[key] = value.join(",");
    }
    const model = typeof own.model === "string" ? own.model : "";
    this.emit({ type: "start", call: this.call, operation, model, stream, parameters, time: Date.now() });
  }

  /** `observe` is told, what it is told made safe; an exception it throws is dropped (observing never fails a call). */
  private emit(event: CallEvent): void {
    tell(this.tell, safeEvent(event, this.secret));
  }

  /** The call's options, each hook telling this observation before the caller's own. */
  options(options: Options): Options {
    const { onResponse, onRetry, onFailover, onHealth } = options;
    return {
      ...options,
      observe: undefined,
      onResponse: (info) => {
        this.attempts++;
        const provider = info.headers.get("x-inference-provider") ?? undefined;
        if (provider) this.provider = provider;
        let host = "";
        try {
          host = new URL(info.url).host;
        } catch {
          host = "";
        }
        const now = performance.now();
        const event: CallEvent = {
          type: "attempt",
          call: this.call,
          attempt: this.attempts,
          status: info.status,
          durationMs: now - this.attemptStarted,
          host,
        };
        if (provider) event.provider = provider;
        if (info.backend) event.backend = this.backend = info.backend;
        if (info.requestId) event.requestId = info.requestId;
        this.emit(event);
        onResponse?.(info);
      },
      onRetry: (retry) => {
        // A connection that failed had no answer: it is an attempt too.
        if (retry.status === undefined) this.attempts++;
        this.attemptStarted = performance.now() + retry.delayMs;
        const event: CallEvent = {
          type: "retry",
          call: this.call,
          attempt: retry.attempt - 1,
          reason: retry.reason,
          delayMs: retry.delayMs,
        };
        if (retry.status !== undefined) event.status = retry.status;
        if (retry.estimatedTime !== undefined) event.estimatedTime = retry.estimatedTime;
        this.emit(event);
        onRetry?.(retry);
      },
      onFailover: (move) => {
        this.attemptStarted = performance.now();
        const event: CallEvent = {
          type: "failover",
          call: this.call,
          from: move.from,
          to: move.to,
          reason: move.reason,
        };
        if (move.error) event.error = move.error.name;
        this.emit(event);
        onFailover?.(move);
      },
      onHealth: (change) => {
        this.emit({ ...change, call: this.call });
        onHealth?.(change);
      },
    };
  }

  /** A chunk with data (or a whole answer) arrived: only the first is timed (no clock read per chunk). */
  chunk(): void {
    if (this.chunks++ === 0) {
      this.firstChunk = performance.now();
      this.emit({ type: "first-chunk", call: this.call, ms: this.firstChunk - this.started });
    }
  }

  /** The answer's last data arrived (a finish reason, a completed response): the end of its chunks' time. */
  finished(): void {
    this.lastChunk = performance.now();
  }

  /** The call ended, with what it answered (for a stream: its chunks' model, usage and finish reasons). */
  end(seen: Seen, error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    const now = performance.now();
    const event: CallEvent = {
      type: "end",
      call: this.call,
      durationMs: now - this.started,
      chunks: this.chunks,
      finishReasons: seen.finishReasons,
      attempts: this.attempts,
    };
    if (this.chunks > 1 && this.firstChunk !== undefined)
      event.timePerChunkMs = ((this.lastChunk ?? now) - this.firstChunk) / (this.chunks - 1);
    if (seen.usage) event.usage = { input: seen.usage.prompt_tokens, output: seen.usage.completion_tokens };
    if (seen.model) event.responseModel = seen.model;
    const provider = seen.served ?? this.provider;
    if (provider) event.provider = provider;
    if (this.backend) event.backend = this.backend;
    if (error !== undefined) {
      const name = error instanceof Error ? error.name : "Error";
      const kind: unknown = error instanceof Error ? Reflect.get(error, "kind") : undefined;
      event.error = typeof kind === "string" ? { name, kind } : { name };
    }
    this.emit(event);
  }
}

type Whole<A, T> = (args: A, options: Options) => Promise<T>;

type Seen = { model?: string; usage?: ChatCompletionUsage | null; finishReasons: string[]; served?: string };

/** What a whole answer says of itself: the model, the usage and finish reasons of a chat; who served it. */
function seenOf(out: unknown): Seen {
  const seen: Seen = { finishReasons: [] };
  if (!isRecord(out)) return seen;
  const choices: unknown = out.choices;
  if (Array.isArray(choices))
    for (const c of choices as unknown[])
      if (isRecord(c) && c.finish_reason != null) seen.finishReasons.push(String(c.finish_reason));
  if (typeof out.model === "string" && out.model) seen.model = out.model;
  const usage = out.usage;
  if (isRecord(usage) && typeof usage.prompt_tokens === "number" && typeof usage.completion_tokens === "number") {
    seen.usage = {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: Number(usage.total_tokens) || 0,
    };
  }
  // A response of the Responses API: its own names for the usage, and its status for a finish reason.
  if (isRecord(usage) && typeof usage.input_tokens === "number" && typeof usage.output_tokens === "number") {
    seen.usage = {
      prompt_tokens: usage.input_tokens,
      completion_tokens: usage.output_tokens,
      total_tokens: usage.input_tokens + usage.output_tokens,
    };
  }
  if (out.object === "response" && typeof out.status === "string") seen.finishReasons.push(out.status);
  if (isRecord(out.served) && typeof out.served.provider === "string") seen.served = out.served.provider;
  return seen;
}

/** A whole call, observed. */
export async function observedWhole<A extends object, T>(
  operation: CallOperation,
  args: A,
  options: Options,
  call: Whole<A, T>,
): Promise<T> {
  const observation = new Observation(options.observe ?? (() => {}), operation, args, false);
  try {
    const out = await call(args, observation.options(options));
    observation.chunk();
    observation.end(seenOf(out));
    return out;
  } catch (error) {
    observation.end({ finishReasons: [] }, error);
    throw error;
  }
}

/** A stream's start: its call and its source (what `StreamIterator`'s opener gives). */
type Opened<T> = { call: Call; source: Promise<Source<T>> };

/** How an observed stream reads its values: which carry data, and what they say of the answer. */
type Reader<T> = (observation: Observation, seen: Seen) => (value: T) => void;

/**
 * The source of a stream, observed: opened by `open` with the observation's hooks, each value tapped as the stream's
 * iterator takes it (no layer per value: observing must not slow a stream), the end told once it is closed. `span` is
 * the iterator's clock: its failure (a `break` before the first value, the caller's signal) cancels the inner call.
 */
function observedSource<A extends object, T>(
  args: A,
  options: Options,
  span: Call,
  open: (args: A, options: Options) => Opened<T>,
  read: Reader<T>,
): Promise<Source<T>> {
  const observation = new Observation(options.observe ?? (() => {}), "chat", args, true);
  const seen: Seen = { finishReasons: [] };
  const failed = (error: unknown): never => {
    observation.end(seen, error);
    throw error;
  };
  let opened: Opened<T>;
  try {
    opened = open(args, observation.options(options));
  } catch (error) {
    return Promise.reject(error).catch(failed);
  }
  const { call, source } = opened;
  const unlink = span.onCancel((reason) => call.fail(reason as InferenceError));
  const over = (): void => {
    unlink();
    call.finish();
  };
  return source.then(
    (s) =>
      tapped(s, read(observation, seen), () => {
        over();
        seen.finishReasons = seen.finishReasons.filter((r) => r !== undefined);
        observation.end(seen, s.failure());
      }),
    (error: unknown) => {
      over();
      return failed(error);
    },
  );
}

/** A chat's chunks: those with content, tool calls or reasoning are its data; usage, model, finish reasons as they pass. */
const chatChunks: Reader<ChatCompletionStreamOutput> = (observation, seen) => (chunk) => {
  let data = false;
  for (const c of chunk.choices) {
    const delta = c.delta;
    if (delta && (delta.content || delta.tool_calls || delta.reasoning)) data = true;
    if (c.finish_reason) {
      // The server numbers the choices: a bogus index is the first choice's, one past any `n` is not kept.
      const index = Number.isInteger(c.index) ? c.index : 0;
      if (index >= 0 && index < MAX_CHOICES) seen.finishReasons[index] = String(c.finish_reason);
      observation.finished();
    }
  }
  if (data) observation.chunk();
  if (chunk.model) seen.model = chunk.model;
  if (chunk.usage) seen.usage = chunk.usage;
  if (chunk.served?.provider) seen.served = chunk.served.provider;
};

/** A Responses API stream's events: its text deltas are its data; `response.completed` (or `incomplete`) says the rest. */
const responseEvents: Reader<{ type: string }> = (observation, seen) => (event) => {
  if (event.type.endsWith(".delta")) observation.chunk();
  const response: unknown = Reflect.get(event, "response");
  if ((event.type === "response.completed" || event.type === "response.incomplete") && isRecord(response)) {
    observation.finished();
    Object.assign(seen, seenOf(response));
  }
};

/** A streamed chat, observed. */
export const observedChat = <A extends object>(
  args: A,
  options: Options,
  span: Call,
  open: (args: A, options: Options) => Opened<ChatCompletionStreamOutput>,
): Promise<Source<ChatCompletionStreamOutput>> => observedSource(args, options, span, open, chatChunks);

/** A Responses API stream, observed. */
export const observedResponses = <A extends object, E extends { type: string }>(
  args: A,
  options: Options,
  span: Call,
  open: (args: A, options: Options) => Opened<E>,
): Promise<Source<E>> => observedSource(args, options, span, open, responseEvents as Reader<E>);

/**
 * A chat stream observed a chunk at a time: a structured stream, whose own check can fail it after its last chunk
 * (a `StructuredOutputError` is then the call's error).
 */
export async function* observedStream<A extends object>(
  args: A,
  options: Options,
  stream: (args: A, options: Options) => AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown>,
): AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown> {
  const observation = new Observation(options.observe ?? (() => {}), "chat", args, true);
  const seen: Seen = { finishReasons: [] };
  const tap = chatChunks(observation, seen);
  let error: unknown;
  try {
    for await (const chunk of stream(args, observation.options(options))) {
      tap(chunk);
      yield chunk;
    }
  } catch (e) {
    error = e;
    throw e;
  } finally {
    seen.finishReasons = seen.finishReasons.filter((r) => r !== undefined);
    observation.end(seen, error);
  }
}

/** `observe` told `event`; an exception it throws is dropped (observing never fails a call). */
function tell(observe: (event: CallEvent) => void, event: CallEvent): void {
  try {
    observe(event);
  } catch {
    // dropped
  }
}

/**
 * A tool call the runner ran, told as an event of its own (`started`: `performance.now()` when its run began). Its
 * name is a tool the caller declared, or `""`: a name the model made up (status `unknown-tool`) is never told.
 */
export function toolRan(
  observe: (event: CallEvent) => void,
  step: number,
  result: ToolCallResult,
  started: number,
  secret?: string,
): void {
  const { id: callId, status } = result;
  const name = status === "unknown-tool" ? "" : result.name;
  const durationMs = performance.now() - started;
  const event: CallEvent = { type: "tool", call: ++numbers.last, step, name, callId, status, durationMs };
  if (result.error) event.error = result.error.name;
  tell(observe, safeEvent(event, secret ?? secretOf({})));
}
